/** What the arrival-rate executors of every scenario share. */
import { env, num } from './env.ts';

/** Headroom over the in-flight requests the latency budget allows. */
const VU_HEADROOM = 1.5;

/**
 * VUs of an arrival-rate executor. By Little's law, `peakRate` arrivals per second answered
 * as slowly as the p99 budget (LOAD_P99_MS) keep peakRate × p99 requests in flight; the
 * executor may grow to that with half again of headroom, so a service within its latency
 * budget never makes the run drop iterations: the verdict is on the service, not on the
 * harness's VUs. LOAD_MAX_VUS, when set, replaces the budget. k6 splits both numbers over
 * the execution segments of a distributed run, as it splits the rate.
 */
export function arrivalVus(peakRate: number): { preAllocatedVUs: number; maxVUs: number } {
  const budget = Math.ceil(peakRate * (num('LOAD_P99_MS', 1000) / 1000) * VU_HEADROOM) + 2;
  const maxVUs = env('LOAD_MAX_VUS') === undefined ? budget : Math.max(1, Math.floor(num('LOAD_MAX_VUS', budget)));
  // One VU per 200 ms answer is ready from the start; the rest are made as answers slow down.
  return { preAllocatedVUs: Math.min(maxVUs, Math.ceil(peakRate / 5) + 2), maxVUs };
}
