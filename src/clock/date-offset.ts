/**
 * A peer's clock offset (a receiver's, a service's), read from the `Date` headers of its answers.
 *
 * A Date header has one-second resolution: a header saying second `d` means the receiver's
 * clock read somewhere in [d, d + 1) while it answered, and it answered between our send
 * (t0) and our receipt (t1). So the offset (receiver minus harness) lies in
 * (d - t1, d + 1 - t0). Intersecting these intervals over many answers narrows it; probes
 * timed to land on the receiver's second boundary halve it each time.
 * All figures are in seconds.
 */

import { median } from '../stats/summary.js';

export interface OffsetEstimate {
  /** Bounds of receiver clock minus harness clock. */
  lo: number;
  hi: number;
  /** Midpoint, the best single figure. */
  offset: number;
  samples: number;
  /** How the bounds were obtained. */
  basis: 'date-headers' | 'inconsistent-date-headers' | 'assumed';
}

/** Without any Date header the clocks are assumed to agree within this (and the report says so). */
export const ASSUMED_OFFSET_BOUND_S = 2;

export class ClockOffset {
  #lo = -Infinity;
  #hi = Infinity;
  #samples = 0;
  #inconsistent = false;
  readonly #mids: number[] = [];

  /** Feeds one answer: its Date header and the harness's send and receipt times (ms). */
  add(dateHeader: string | undefined, sentAtMs: number, receivedAtMs: number): void {
    if (dateHeader === undefined) return;
    const dateMs = Date.parse(dateHeader);
    if (Number.isNaN(dateMs)) return;
    const d = Math.floor(dateMs / 1000);
    const lo = d - receivedAtMs / 1000;
    const hi = d + 1 - sentAtMs / 1000;
    this.#samples++;
    this.#mids.push((lo + hi) / 2);
    if (this.#inconsistent) return;
    const nextLo = Math.max(this.#lo, lo);
    const nextHi = Math.min(this.#hi, hi);
    // Several servers behind one URL with different clocks: the intervals do not meet.
    if (nextLo > nextHi) this.#inconsistent = true;
    else [this.#lo, this.#hi] = [nextLo, nextHi];
  }

  estimate(): OffsetEstimate {
    if (this.#samples === 0) {
      return { lo: -ASSUMED_OFFSET_BOUND_S, hi: ASSUMED_OFFSET_BOUND_S, offset: 0, samples: 0, basis: 'assumed' };
    }
    if (this.#inconsistent) {
      const mid = median(this.#mids);
      return { lo: mid - 1, hi: mid + 1, offset: mid, samples: this.#samples, basis: 'inconsistent-date-headers' };
    }
    return {
      lo: this.#lo,
      hi: this.#hi,
      offset: (this.#lo + this.#hi) / 2,
      samples: this.#samples,
      basis: 'date-headers',
    };
  }

  /**
   * When to send the next probe (harness ms, at or after `nowMs`) so that it reaches the
   * receiver as its clock turns a second, by the current estimate; its Date header then
   * cuts the interval about in half. `rttMs` is a recent round trip.
   */
  nextProbeAtMs(nowMs: number, rttMs: number): number {
    const { offset } = this.estimate();
    // Receiver time at arrival ~ local time at send + rtt/2 + offset; aim that at an integer.
    const arrivalReceiverS = (nowMs + rttMs / 2) / 1000 + offset;
    const boundary = Math.ceil(arrivalReceiverS + 0.02);
    return (boundary - offset) * 1000 - rttMs / 2;
  }
}

/**
 * Whole seconds a peer's clock is ahead of ours (negative: behind) by one answer's Date
 * header, received at `receivedAtMs` after `durationMs` in flight; 0 without a usable header.
 */
export function wholeSecondsAhead(dateHeader: string | undefined, receivedAtMs: number, durationMs = 0): number {
  const clock = new ClockOffset();
  clock.add(dateHeader, receivedAtMs - durationMs, receivedAtMs);
  const estimate = clock.estimate();
  return estimate.basis === 'date-headers' ? Math.round(estimate.offset) || 0 : 0;
}

/**
 * Bounds, in seconds, of how far a timestamp `ts` was from the receiver's clock while the
 * receiver handled a request sent at `sentAtMs` and answered by `receivedAtMs`:
 * `behind` = receiver clock minus ts, `ahead` = ts minus receiver clock.
 */
export function skewBounds(
  ts: number,
  sentAtMs: number,
  receivedAtMs: number,
  est: OffsetEstimate,
): { behind: [number, number]; ahead: [number, number] } {
  const earliest = sentAtMs / 1000 + est.lo;
  const latest = receivedAtMs / 1000 + est.hi;
  return { behind: [earliest - ts, latest - ts], ahead: [ts - latest, ts - earliest] };
}
