/** Threshold sets shared by the call-placement scenarios: the verdict of a load run. */
import type { Threshold } from 'k6/options';
import { CALL_ID_CHECK } from './calls.ts';
import { abortOnFail, num } from './env.ts';
import { ENDPOINT } from './target.ts';
import { TREND_STATS as STATS } from './trend-stats.ts';

export const TREND_STATS = [...STATS];

/** `metric{endpoint:value}`: a threshold on one endpoint's requests only. */
export function onEndpoint(metric: string, endpoint: string, extra: Record<string, string> = {}): string {
  const tags = Object.entries({ endpoint, ...extra }).map(([key, value]) => `${key}:${value}`);
  return `${metric}{${tags.join(',')}}`;
}

/**
 * A k6 check as a verdict: every evaluation of the check named `name` must pass. Without a
 * threshold a failed check is only counted, and the run still exits 0.
 */
export function everyCheck(name: string): Record<string, Threshold[]> {
  return { [`checks{check:${name}}`]: ['rate==1'] };
}

/** A gate: aborts the run once it fails (after a short warm-up), unless LOAD_ABORT_ON_FAIL=false. */
export function gate(threshold: string, delayAbortEval = '5s'): Threshold {
  return { threshold, abortOnFail: abortOnFail(), delayAbortEval };
}

/**
 * This instance's share of the whole test's arrivals. A distributed run (k6-operator) gives
 * every runner an equal execution segment and each judges its own thresholds, so rate-like
 * thresholds scale by 1 / LOAD_INSTANCES (the TestRun's parallelism; default 1).
 */
export function instanceShare(): number {
  return 1 / Math.max(1, Math.floor(num('LOAD_INSTANCES', 1)));
}

export interface CallThresholdOptions {
  /** Requests per second the whole test must achieve over its duration. */
  minRate: number;
  /** Iterations the whole test may drop (no free VU in time) before the rate counts as missed. */
  maxDropped: number;
}

/**
 * The verdict of call placement (calls, calls-ramp): error rate LOAD_MAX_ERROR_RATE (a gate),
 * p95 and p99 latency under LOAD_P95_MS and LOAD_P99_MS, the achieved rate, dropped iterations,
 * and every 2xx answer naming its call.
 */
export function callThresholds(o: CallThresholdOptions): Record<string, Threshold[]> {
  const share = instanceShare();
  const endpoint = ENDPOINT.placeCall;
  return {
    [onEndpoint('http_req_failed', endpoint)]: [gate(`rate<=${num('LOAD_MAX_ERROR_RATE', 0.01)}`)],
    [onEndpoint('http_req_duration', endpoint)]: [
      `p(95)<${num('LOAD_P95_MS', 500)}`,
      `p(99)<${num('LOAD_P99_MS', 1000)}`,
    ],
    [onEndpoint('http_reqs', endpoint)]: [`rate>=${round(o.minRate * share)}`],
    dropped_iterations: [`count<=${Math.floor(o.maxDropped * share)}`],
    ...everyCheck(CALL_ID_CHECK),
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
