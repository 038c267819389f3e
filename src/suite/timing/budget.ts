/**
 * The one bound on the real time a check spends waiting out scaled spec time (the retry
 * schedule, the 24 h auto-disable, a retry delay), and the arithmetic that follows from it:
 * the scale a check runs at, whether it runs at all, and the time-out it must declare.
 *
 * A target that allows a smaller max_time_scale than the reference makes these checks
 * slower, not absent: a check runs at the largest scale it wants and the target allows, and
 * is skipped only when its span would last longer than the bound there. Its time-out is
 * fixed when it is declared, before the target's scale is known, so it is worked out for the
 * slowest scale the bound lets the check run at. docs/time-scale.md explains the choice.
 */

/**
 * Real time a check may spend on the scaled spec time it watches. A target whose
 * max_time_scale makes the longest of them (the whole retry schedule and the watch after
 * its drop, 40.6 h) take longer is judged without them, and CERTIFY_MIN_COVERAGE sees the
 * skips; at 600, a scale staging services allow, every one of them runs.
 */
export const SCALED_SPAN_BOUND_MS = 5 * 60_000;

/**
 * The longest time-out a check under the bound may declare: the run's deadline
 * (src/runner/deadline.ts) is kept above it, test/runner/deadline.test.ts holds the two together.
 */
export const LONGEST_BOUNDED_TIMEOUT_MS = 18 * 60_000;

export interface ScaleChoice {
  /** The scale the check runs at: what it wants, capped by the target's max_time_scale. */
  scale: number;
  /** Real time the span lasts at that scale. */
  realMs: number;
  /** Whether that is within the bound; the check is skipped when not. */
  withinBound: boolean;
}

/** The scale for `spanMs` of spec time: `wanted`, capped by `maxScale`, and whether the span then fits `boundMs`. */
export function chooseScale(
  wanted: number,
  maxScale: number,
  spanMs: number,
  boundMs = SCALED_SPAN_BOUND_MS,
): ScaleChoice {
  const scale = Math.max(1, Math.min(wanted, maxScale));
  const realMs = spanMs / scale;
  return { scale, realMs, withinBound: realMs <= boundMs };
}

/** The smallest max_time_scale at which `spanMs` of spec time fits the bound. */
export function smallestScaleWithin(spanMs: number, boundMs = SCALED_SPAN_BOUND_MS): number {
  return Math.max(1, Math.ceil(spanMs / boundMs));
}

/**
 * The longest real time `watchedMs` of spec time can take in a check whose scale was chosen
 * for `spanMs`: at the slowest scale the bound lets the check run at (scale 1 when the span
 * fits unscaled). `watchedMs` beyond `spanMs` is what a check may add on a path a passing
 * target does not take (a delay measured once more on its own).
 */
export function longestRealMs(spanMs: number, watchedMs = spanMs, boundMs = SCALED_SPAN_BOUND_MS): number {
  return watchedMs / Math.max(1, spanMs / boundMs);
}

export interface BoundedTimeout {
  /** The spec time the check's scale is chosen for. */
  spanMs: number;
  /** Spec time the check may watch in all (default `spanMs`). */
  watchedMs?: number;
  /** How far past their due time missing arrivals or transitions are waited for (1.25: a quarter more). */
  stretch?: number;
  /** Real time no scale shortens: set-up, arrival slack, polls, and whatever the check does outside its scaled waits. */
  fixedMs: number;
}

/**
 * The time-out of a check whose scale chooseScale picks: its fixed part plus its scaled
 * waits at the slowest scale it can run at. At a target's largest scale a passing check ends
 * long before it; a check that reaches it at the slowest scale has waited out everything it
 * would have judged. Throws when it would not fit under LONGEST_BOUNDED_TIMEOUT_MS: a check
 * that could outlast the run's deadline is a mistake of its declaration.
 */
export function boundedTimeoutMs(timeout: BoundedTimeout): number {
  const ms = Math.ceil(timeout.fixedMs + (timeout.stretch ?? 1) * longestRealMs(timeout.spanMs, timeout.watchedMs));
  if (ms > LONGEST_BOUNDED_TIMEOUT_MS) {
    throw new RangeError(
      `a check's time-out of ${Math.round(ms / 1000)} s at the time-scale bound is over the ${LONGEST_BOUNDED_TIMEOUT_MS / 1000} s the run's deadline leaves room for`,
    );
  }
  return ms;
}
