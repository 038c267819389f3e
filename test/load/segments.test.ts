import { describe, expect, it } from 'vitest';
import { buildLoadScripts } from '../../src/load/bundle.js';
import { wholeTestThresholds } from '../../src/load/segments.js';
import { K6_PATH, K6_SKIP_REASON } from './load-child.js';

describe('the whole test thresholds of a split or observed run', () => {
  it.skipIf(!K6_PATH)(`are the script's under the run's LOAD_ settings, as each k6 run sees them${K6_SKIP_REASON}`, async () => {
    const bundles = await buildLoadScripts();
    const k6 = { path: K6_PATH!, version: 'v2', source: 'env' as const };
    const fanout = wholeTestThresholds(k6, bundles['fanout']!, { ...process.env, LOAD_FANOUT_P95_MS: '1234', LOAD_FANOUT_P99_MS: '5678' });
    expect(fanout['fanout_event_to_arrival_ms']).toEqual(['p(95)<1234', 'p(99)<5678']);
    expect(fanout['fanout_placement_to_arrival_ms']).toEqual(['p(95)<3234', 'p(99)<7678']);
    // A segment's share is its own; the whole test's thresholds are the whole test's (LOAD_INSTANCES=1).
    const calls = wholeTestThresholds(k6, bundles['calls']!, { ...process.env, LOAD_RATE: '40', LOAD_DURATION: '10s', LOAD_P99_MS: '900', LOAD_INSTANCES: '4' });
    expect(calls['http_req_duration{endpoint:calls.place}']).toEqual(['p(95)<500', 'p(99)<900']);
    expect(calls['http_reqs{endpoint:calls.place}']).toEqual(['rate>=36']);
  }, 60_000);
});
