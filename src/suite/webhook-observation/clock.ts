/**
 * The target's clock as seen from its `Date` response headers (RFC 9110: second
 * resolution). One sample says the service's clock read D (whole seconds) at some instant
 * between sending the request (t0) and reading the answer (t1), so its offset from the
 * local clock lies in (D - t1, D + 1 s - t0); several samples narrow that interval.
 */
import type { ServiceApi } from '../../api/service.js';
import { ClockOffset as DateHeaderOffset } from '../../clock/date-offset.js';
import { sleep } from '../../clock/wait.js';

export interface ClockOffset {
  /** Service clock minus local clock, best estimate (the middle of the interval), ms. */
  offsetMs: number;
  /** Half the width of the interval: how far the estimate may be off, ms. */
  uncertaintyMs: number;
  samples: number;
}

const SAMPLES = 5;
const SPACING_MS = 230;

/** Samples `GET /v1/whoami` without a credential (any answer carries a Date header). */
export async function measureClockOffset(api: ServiceApi): Promise<ClockOffset | undefined> {
  const clock = new DateHeaderOffset();
  for (let i = 0; i < SAMPLES; i++) {
    if (i > 0) await sleep(SPACING_MS);
    const sentAt = Date.now();
    try {
      const date = (await api.whoami(undefined, { timeoutMs: 5_000 })).headers['date'];
      clock.add(date, sentAt, Date.now());
    } catch {
      // A sample without an answer narrows nothing.
    }
  }
  const { lo, hi, samples } = clock.estimate();
  if (samples === 0) return undefined;
  return { offsetMs: Math.round(((lo + hi) / 2) * 1000), uncertaintyMs: Math.ceil(((hi - lo) / 2) * 1000), samples };
}
