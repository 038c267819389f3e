/** What the arrival-rate executors of every scenario share. */
import { num } from './env.ts';

/**
 * VUs of an arrival-rate executor: enough pre-allocated for `peakRate` arrivals per second
 * (one VU per 200 ms answer, and two spare), never more than LOAD_MAX_VUS (default 50).
 */
export function arrivalVus(peakRate: number): { preAllocatedVUs: number; maxVUs: number } {
  const maxVUs = Math.max(1, Math.floor(num('LOAD_MAX_VUS', 50)));
  return { preAllocatedVUs: Math.min(maxVUs, Math.ceil(peakRate / 5) + 2), maxVUs };
}
