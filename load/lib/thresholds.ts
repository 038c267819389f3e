/** Threshold sets shared by the call-placement scenarios: the verdict of a load run. */
import type { Threshold } from 'k6/options';
import { abortOnFail, num } from './env.ts';

export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];

/** `metric{endpoint:value}`: a threshold on one endpoint's requests only. */
export function onEndpoint(metric: string, endpoint: string, extra: Record<string, string> = {}): string {
  const tags = Object.entries({ endpoint, ...extra }).map(([key, value]) => `${key}:${value}`);
  return `${metric}{${tags.join(',')}}`;
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
  endpoint: string;
  maxErrorRate: number;
  p95Ms: number;
  p99Ms: number;
  /** Requests per second the whole test must achieve over its duration. */
  minRate: number;
  /** Iterations the whole test may drop (no free VU in time) before the rate counts as missed. */
  maxDropped: number;
}

export function callThresholds(o: CallThresholdOptions): Record<string, Threshold[]> {
  const share = instanceShare();
  return {
    [onEndpoint('http_req_failed', o.endpoint)]: [gate(`rate<=${o.maxErrorRate}`)],
    [onEndpoint('http_req_duration', o.endpoint)]: [`p(95)<${o.p95Ms}`, `p(99)<${o.p99Ms}`],
    [onEndpoint('http_reqs', o.endpoint)]: [`rate>=${round(o.minRate * share)}`],
    dropped_iterations: [`count<=${Math.floor(o.maxDropped * share)}`],
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
