/** The VU budget of the arrival-rate executors (load/lib/executors.ts), with k6's __ENV stood in. */
import { afterEach, describe, expect, it } from 'vitest';

const globals = globalThis as unknown as { __ENV: Record<string, string> };
globals.__ENV = {};
// By URL: the k6 scripts are type-checked with k6's own types (load/tsconfig.json), not the harness's.
const executors = new URL('../../load/lib/executors.ts', import.meta.url).href;
const { arrivalVus } = (await import(/* @vite-ignore */ executors)) as {
  arrivalVus(peakRate: number): { preAllocatedVUs: number; maxVUs: number };
};

describe('arrival-rate VUs', () => {
  afterEach(() => {
    globals.__ENV = {};
  });

  it('hold the in-flight requests of the rate at the p99 budget, with half again of headroom', () => {
    // 200 calls/s at a 1 s p99: 200 in flight; 100 VUs (the old fixed cap) could not hold them.
    expect(arrivalVus(200)).toEqual({ preAllocatedVUs: 42, maxVUs: 302 });
    globals.__ENV = { LOAD_P99_MS: '250' };
    expect(arrivalVus(200).maxVUs).toBe(77);
  });

  it('LOAD_MAX_VUS replaces the budget', () => {
    globals.__ENV = { LOAD_MAX_VUS: '10' };
    expect(arrivalVus(200)).toEqual({ preAllocatedVUs: 10, maxVUs: 10 });
  });
});
