/** The fan-out's arrivals file (src/load/fanout/arrivals.ts): written and read back, untrusted text bounded, foreign lines ignored. */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SamplesError } from '../../../src/errors.js';
import { ArrivalRecorder, isArrivalsFile, readArrivals } from '../../../src/load/fanout/arrivals.js';
import type { Arrival } from '../../../src/load/fanout/tally.js';

const dir = mkdtempSync(join(tmpdir(), 'fanout-arrivals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ARRIVAL: Arrival = {
  endpoint: 'load-1-fanout-0',
  receivedAtMs: 1_700_000_000_123,
  eventType: 'voice.call.queued',
  callId: 'call_AAAAAAAAAAAAAAAAAAAA',
  createdAtMs: 1_700_000_000_100,
  signatureOk: true,
  duplicate: false,
};

async function readAll(path: string) {
  const recording = await readArrivals(path);
  const arrivals: Arrival[] = [];
  for await (const arrival of recording.arrivals) arrivals.push(arrival);
  return { endpoints: recording.endpoints, arrivals, ending: recording.ending() };
}

describe('fan-out arrivals file', () => {
  it("reads back what was recorded, with the receivers' counters of the last line", async () => {
    const path = join(dir, 'round-trip.ndjson');
    const recorder = await ArrivalRecorder.open(path, ['load-1-fanout-0', 'load-1-fanout-1']);
    const second: Arrival = {
      endpoint: 'load-1-fanout-1',
      receivedAtMs: 1_700_000_000_200,
      placedAtMs: 1_700_000_000_000,
      signatureOk: false,
      duplicate: true,
    };
    recorder.record(ARRIVAL);
    recorder.record(second);
    await recorder.close({ clientClosed: 3 });
    expect(isArrivalsFile(path)).toBe(true);
    expect(await readAll(path)).toEqual({
      endpoints: ['load-1-fanout-0', 'load-1-fanout-1'],
      arrivals: [ARRIVAL, second],
      ending: { dropped: 0, receiver: { clientClosed: 3 } },
    });
    expect(recorder.recorded).toBe(2);
  });

  it('cuts what the service sent to 200 characters, and reads only known fields of known types', async () => {
    const path = join(dir, 'hostile.ndjson');
    const recorder = await ArrivalRecorder.open(path, ['e']);
    recorder.record({ ...ARRIVAL, endpoint: 'e', eventType: 't'.repeat(100_000), callId: 'c'.repeat(5_000) });
    await recorder.close(undefined);
    expect(readFileSync(path, 'utf8').length).toBeLessThan(1_000);
    appendFileSync(
      path,
      [
        '{"endpoint":"e","receivedAtMs":"soon","signatureOk":true}',
        'not json at all',
        '{"endpoint":"e","receivedAtMs":5,"signatureOk":"yes","callId":7,"extra":{"a":1}}',
        '{"endpoint":"e","receivedAt',
      ].join('\n'),
    );
    const { arrivals } = await readAll(path);
    expect(arrivals).toEqual([
      { ...ARRIVAL, endpoint: 'e', eventType: 't'.repeat(200), callId: 'c'.repeat(200) },
      { endpoint: 'e', receivedAtMs: 5, signatureOk: false, duplicate: false },
    ]);
  });

  it('refuses a file without the header: k6 samples are not arrivals', async () => {
    const path = join(dir, 'samples.ndjson');
    writeFileSync(
      path,
      '{"type":"Point","metric":"http_reqs","data":{"time":"2026-11-26T00:00:00Z","value":1,"tags":{}}}\n',
    );
    expect(isArrivalsFile(path)).toBe(false);
    await expect(readArrivals(path)).rejects.toThrow(SamplesError);
    await expect(readArrivals(path)).rejects.toThrow(/not a fan-out arrivals file/);
    expect(isArrivalsFile(join(dir, 'absent.ndjson'))).toBe(false);
    // A first line longer than the 64 KiB read: not a header, whatever follows.
    const long = join(dir, 'long-line.ndjson');
    writeFileSync(long, `${'x'.repeat(100_000)}\n`);
    expect(isArrivalsFile(long)).toBe(false);
  });
});
