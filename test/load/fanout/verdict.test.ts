/**
 * The fan-out verdict without a monitor: the placed calls come from the runners' samples,
 * the arrivals from the tally, and the script's thresholds are judged on both by the merge.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { FanoutTally, LIFECYCLE_EVENTS } from '../../../src/load/fanout/tally.js';
import { FANOUT_PLACED_METRIC } from '../../../load/lib/fanout-metrics.js';
import { drain, learnPlacedCalls, writeFanoutObservations } from '../../../src/load/fanout/verdict.js';
import { mergeSegments } from '../../../src/load/distributed/merge.js';

const dir = mkdtempSync(join(tmpdir(), 'fanout-verdict-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const ENDPOINTS = ['e1', 'e2'];

/**
 * A runner's k6 --out json file naming the calls it placed (and an unrelated sample): in the
 * samples' metadata, as load/scenarios/fanout.ts writes them, or in their tags, as it did before.
 */
function runnerSamples(file: string, calls: readonly string[], placement: 'metadata' | 'tags' = 'metadata'): string {
  const lines = [
    JSON.stringify({
      type: 'Metric',
      data: { name: FANOUT_PLACED_METRIC, type: 'counter' },
      metric: FANOUT_PLACED_METRIC,
    }),
  ];
  calls.forEach((callId, i) => {
    const time = new Date(T0 + i).toISOString();
    const call = { call_id: callId, placed_at_ms: String(T0 + i) };
    const data =
      placement === 'metadata'
        ? { time, value: 1, tags: { scenario: 'fanout' }, metadata: call }
        : { time, value: 1, tags: { ...call, scenario: 'fanout' } };
    lines.push(JSON.stringify({ type: 'Point', metric: FANOUT_PLACED_METRIC, data }));
    lines.push(
      JSON.stringify({
        type: 'Point',
        metric: 'http_reqs',
        data: { time, value: 1, tags: { endpoint: 'calls.place' } },
      }),
    );
  });
  const path = join(dir, file);
  writeFileSync(path, gzipSync(`${lines.join('\n')}\n`));
  return path;
}

/** Every lifecycle event of `callId` at every endpoint, `latencyMs` after its creation, unless skipped. */
function deliver(
  tally: FanoutTally,
  callId: string,
  latencyMs: number,
  skip?: { endpoint: string; type: string },
): void {
  for (const endpoint of ENDPOINTS) {
    for (const eventType of LIFECYCLE_EVENTS) {
      if (skip?.endpoint === endpoint && skip.type === eventType) continue;
      tally.arrive({
        endpoint,
        eventType,
        callId,
        receivedAtMs: T0 + 50 + latencyMs,
        createdAtMs: T0 + 50,
        placedAtMs: T0,
        signatureOk: true,
        duplicate: false,
      });
    }
  }
}

const THRESHOLDS = {
  fanout_untracked_calls: ['count==0'],
  fanout_loss_ratio: ['value<=0'],
  fanout_bad_signatures: ['count==0'],
  fanout_expected_deliveries: ['count>0'],
  fanout_event_to_arrival_ms: ['p(95)<1000', 'p(99)<2000'],
};

async function verdict(tally: FanoutTally, samples: string[], name: string): Promise<Record<string, boolean>> {
  const out = join(dir, `${name}.receivers.ndjson`);
  await writeFanoutObservations({ tally, samples, drainMs: 0, out });
  const summary = await mergeSegments({
    files: [...samples, out],
    thresholds: THRESHOLDS,
    alsoSummarize: ['fanout_arrived_deliveries'],
  });
  expect(summary.metrics.fanout_arrived_deliveries).toBeDefined();
  return Object.fromEntries(
    Object.entries(summary.metrics).flatMap(([metric, m]) =>
      Object.entries(m.thresholds ?? {}).map(([expr, t]) => [`${metric} ${expr}`, t.ok]),
    ),
  );
}

describe('fan-out verdict', () => {
  it('learns the calls of every runner from their samples', async () => {
    const tally = new FanoutTally(ENDPOINTS);
    const placed = await learnPlacedCalls(tally, [
      runnerSamples('a.ndjson.gz', ['call_a1', 'call_a2']),
      runnerSamples('b.ndjson.gz', ['call_b1']),
    ]);
    expect(placed).toEqual({ placed: 3, untracked: 0, lastSampleMs: T0 + 1 });
    expect(tally.stats()).toMatchObject({ calls_expected: 3, expected: 18, arrived: 0, lost: 18 });
  });

  it('learns the calls of samples written before, with the call in their tags', async () => {
    const tally = new FanoutTally(ENDPOINTS);
    expect(
      await learnPlacedCalls(tally, [runnerSamples('old.ndjson.gz', ['call_o1', 'call_o2'], 'tags')]),
    ).toMatchObject({ placed: 2 });
  });

  it('arrivals tallied before the calls are learnt count: every delivery of two runners arrived, every threshold holds', async () => {
    const tally = new FanoutTally(ENDPOINTS);
    for (const callId of ['call_a1', 'call_b1']) deliver(tally, callId, 40);
    const result = await verdict(
      tally,
      [runnerSamples('c.ndjson.gz', ['call_a1']), runnerSamples('d.ndjson.gz', ['call_b1'])],
      'clean',
    );
    expect(Object.values(result).every(Boolean), JSON.stringify(result)).toBe(true);
  });

  it('one started event missing at one endpoint fails the loss threshold, and only it', async () => {
    const tally = new FanoutTally(ENDPOINTS);
    deliver(tally, 'call_a1', 40);
    deliver(tally, 'call_b1', 40, { endpoint: 'e2', type: 'voice.call.started' });
    const result = await verdict(tally, [runnerSamples('e.ndjson.gz', ['call_a1', 'call_b1'])], 'lost');
    expect(
      Object.entries(result)
        .filter(([, ok]) => !ok)
        .map(([name]) => name),
    ).toEqual(['fanout_loss_ratio value<=0']);
  });

  it('a call that no delivery names is lost whole: placed calls come from the runners, not from arrivals', async () => {
    const tally = new FanoutTally(ENDPOINTS);
    deliver(tally, 'call_a1', 40);
    const result = await verdict(tally, [runnerSamples('f.ndjson.gz', ['call_a1', 'call_never'])], 'silent');
    expect(result['fanout_loss_ratio value<=0']).toBe(false);
  });

  it('latency just past the p99 budget fails it (2,000 ms budget, 2,001 ms arrivals)', async () => {
    const tally = new FanoutTally(ENDPOINTS);
    for (let i = 0; i < 100; i++) deliver(tally, `call_${i}`, i < 98 ? 40 : 2_001);
    const result = await verdict(
      tally,
      [
        runnerSamples(
          'g.ndjson.gz',
          Array.from({ length: 100 }, (_, i) => `call_${i}`),
        ),
      ],
      'late',
    );
    expect(result['fanout_event_to_arrival_ms p(99)<2000']).toBe(false);
    expect(result['fanout_event_to_arrival_ms p(95)<1000']).toBe(true);
  });

  it('the drain returns as soon as nothing is missing, and gives up at its bound', async () => {
    const tally = new FanoutTally(ENDPOINTS);
    tally.expect('call_1', T0);
    setTimeout(() => deliver(tally, 'call_1', 10), 30);
    const started = Date.now();
    expect((await drain(tally, 5_000, 10)).lost).toBe(0);
    expect(Date.now() - started).toBeLessThan(2_000);
    tally.expect('call_2', T0);
    const bounded = Date.now();
    expect((await drain(tally, 100, 10)).lost).toBe(6);
    expect(Date.now() - bounded).toBeGreaterThanOrEqual(95);
  });
});
