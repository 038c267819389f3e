import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunAbort, SamplesError } from '../../../src/errors.js';
import { runSegments, wholeTestThresholds } from '../../../src/load/distributed/segments.js';
import type { FoundK6 } from '../../../src/load/k6/binary.js';
import { buildLoadScripts } from '../../../src/load/k6/bundle.js';
import { K6_PATH, K6_SKIP_REASON } from '../load-child.js';

const dir = mkdtempSync(join(tmpdir(), 'segments-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for k6: `inspect` prints FAKE_INSPECT and exits FAKE_INSPECT_EXIT; `run` ends at once, having written nothing. */
function fakeK6(): FoundK6 {
  const path = join(dir, 'k6');
  writeFileSync(
    path,
    '#!/bin/sh\nif [ "$1" = inspect ]; then echo "$FAKE_INSPECT"; echo "inspect: no script" >&2; exit "${FAKE_INSPECT_EXIT:-0}"; fi\nexit 0\n',
    { mode: 0o755 },
  );
  return { path, version: 'v2.2.0', source: 'env' };
}

describe('the whole test thresholds of a split or observed run', () => {
  it.skipIf(!K6_PATH)(
    `are the script's under the run's LOAD_ settings, as each k6 run sees them${K6_SKIP_REASON}`,
    async () => {
      const bundles = await buildLoadScripts();
      const k6 = { path: K6_PATH!, version: 'v2', source: 'env' as const };
      const fanout = wholeTestThresholds(k6, bundles['fanout']!, {
        ...process.env,
        LOAD_FANOUT_P95_MS: '1234',
        LOAD_FANOUT_P99_MS: '5678',
      });
      expect(fanout['fanout_event_to_arrival_ms']).toEqual(['p(95)<1234', 'p(99)<5678']);
      expect(fanout['fanout_placement_to_arrival_ms']).toEqual(['p(95)<3234', 'p(99)<7678']);
      // A segment's share is its own; the whole test's thresholds are the whole test's (LOAD_INSTANCES=1).
      const calls = wholeTestThresholds(k6, bundles['calls']!, {
        ...process.env,
        LOAD_RATE: '40',
        LOAD_DURATION: '10s',
        LOAD_P99_MS: '900',
        LOAD_INSTANCES: '4',
      });
      expect(calls['http_req_duration{endpoint:calls.place}']).toEqual(['p(95)<500', 'p(99)<900']);
      expect(calls['http_reqs{endpoint:calls.place}']).toEqual(['rate>=36']);
    },
    60_000,
  );
});

describe('a split run that cannot be judged', () => {
  it.skipIf(process.platform === 'win32')(
    'a script k6 cannot inspect ends the run (RunAbort), with what k6 said',
    () => {
      const inspect = () =>
        wholeTestThresholds(fakeK6(), join(dir, 'calls.js'), { ...process.env, FAKE_INSPECT_EXIT: '3' });
      expect(inspect).toThrow(RunAbort);
      expect(inspect).toThrow(/k6 inspect .*calls\.js exited 3: inspect: no script/);
    },
  );

  it.skipIf(process.platform === 'win32')('segments that wrote no samples are a SamplesError naming them', async () => {
    const run = runSegments({
      k6: fakeK6(),
      bundle: join(dir, 'calls.js'),
      scenario: 'calls',
      count: 2,
      reportDir: dir,
      envOf: () => ({ ...process.env, FAKE_INSPECT: '{"thresholds":{}}' }),
      timeLimitMs: 10_000,
      runArgs: (segment) => ['run', ...segment],
    });
    await expect(run).rejects.toThrow(SamplesError);
    await expect(run).rejects.toThrow(/segment\(s\) 1, 2 of 2 wrote no samples \(k6 exit 0, 0\)/);
  });
});
