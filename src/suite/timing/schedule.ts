/**
 * The retry schedule of the spec (Events > Retry and replay, 2; Limits) and the pure
 * arithmetic that judges observed attempt times against it: scaled delays, a stated
 * tolerance, gaps measured from the end of each failed attempt to the arrival of the
 * next. All times are monotonic milliseconds (performance.now() of the receiver).
 */

import { round1 } from '../../stats/summary.js';
/** Milliseconds as reports print them (re-exported for the suites that judge schedules). */
export { round1 };

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The six retry delays: 1 minute, 5 minutes, 30 minutes, 2 hours, 12 hours, 24 hours. */
export const SPEC_RETRY_DELAYS_MS: readonly number[] = [
  MINUTE_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  12 * HOUR_MS,
  24 * HOUR_MS,
];
export const SPEC_RETRY_LABELS: readonly string[] = ['1m', '5m', '30m', '2h', '12h', '24h'];
/** Consecutive failures for this long disable an endpoint (States and transitions). */
export const SPEC_AUTO_DISABLE_MS = 24 * HOUR_MS;

/**
 * How far an observed time may be from the expected one: `fraction` of it either way (the
 * jitter the service may add), plus `errorMs` either way (the measurement's own error),
 * plus `lateMs` late only (what delays an arrival and never advances it: round trips).
 * src/suite/timing/error.ts builds the schedule's from what the run measured.
 */
export interface ArrivalTolerance {
  fraction: number;
  errorMs: number;
  lateMs?: number;
}

/** How early an arrival may be. */
export function toleranceMs(expectedMs: number, tolerance: ArrivalTolerance): number {
  return tolerance.fraction * expectedMs + tolerance.errorMs;
}

/** How late an arrival may be. */
export function lateToleranceMs(expectedMs: number, tolerance: ArrivalTolerance): number {
  return toleranceMs(expectedMs, tolerance) + (tolerance.lateMs ?? 0);
}

export function describeTolerance(tolerance: ArrivalTolerance): string {
  const either = `±(${+(tolerance.fraction * 100).toFixed(2)}% + ${tolerance.errorMs} ms)`;
  return tolerance.lateMs ? `${either}, +${tolerance.lateMs} ms more late` : either;
}

/** Real milliseconds of a spec duration at a workspace time scale. */
export function scaled(ms: number, timeScale: number): number {
  return ms / timeScale;
}

export function scaledDelays(timeScale: number, delays: readonly number[] = SPEC_RETRY_DELAYS_MS): number[] {
  return delays.map((delay) => scaled(delay, timeScale));
}

/** One attempt as the receiver saw it: arrival and end of its answer (monotonic ms). */
export interface AttemptTiming {
  startMs: number;
  /** When the answer went out or the connection ended; the arrival when unknown. */
  endMs: number;
}

export interface GapVerdict {
  /** 1 for the first retry (attempt 2). */
  retry: number;
  expectedMs: number;
  /** From the end of the previous (failed) attempt to the arrival of this one. */
  observedMs: number;
  /** observed - expected: negative when early. */
  deviationMs: number;
  /** Allowed earliness. */
  toleranceMs: number;
  /** Allowed lateness. */
  lateToleranceMs: number;
  ok: boolean;
}

export interface ScheduleMatch {
  gaps: GapVerdict[];
  /** The first gap outside its tolerance. */
  firstMismatch?: GapVerdict;
  /** Expected retries that did not arrive (attempts observed fewer than delays + 1). */
  missing: number;
  /** Attempts beyond the expected delays + 1. */
  extra: number;
}

/**
 * Matches attempts (in arrival order, the first one the initial delivery) against the
 * expected delays: retry i is expected `delays[i-1]` after the end of attempt i. The
 * tolerance is one for every gap, or one per gap from the gap's time span.
 */
export function matchSchedule(
  attempts: readonly AttemptTiming[],
  delaysMs: readonly number[],
  tolerance: ArrivalTolerance | ((fromMs: number, toMs: number) => ArrivalTolerance),
): ScheduleMatch {
  const gaps: GapVerdict[] = [];
  const compared = Math.min(attempts.length - 1, delaysMs.length);
  for (let i = 1; i <= compared; i++) {
    const expectedMs = delaysMs[i - 1]!;
    const observedMs = attempts[i]!.startMs - attempts[i - 1]!.endMs;
    const deviationMs = observedMs - expectedMs;
    const gapTolerance =
      typeof tolerance === 'function' ? tolerance(attempts[i - 1]!.endMs, attempts[i]!.startMs) : tolerance;
    const early = toleranceMs(expectedMs, gapTolerance);
    const late = lateToleranceMs(expectedMs, gapTolerance);
    gaps.push({
      retry: i,
      expectedMs,
      observedMs,
      deviationMs,
      toleranceMs: early,
      lateToleranceMs: late,
      ok: deviationMs >= -early && deviationMs <= late,
    });
  }
  const firstMismatch = gaps.find((gap) => !gap.ok);
  return {
    gaps,
    ...(firstMismatch ? { firstMismatch } : {}),
    missing: Math.max(0, delaysMs.length + 1 - attempts.length),
    extra: Math.max(0, attempts.length - (delaysMs.length + 1)),
  };
}

/**
 * Whether a gap outside its tolerance is worth timing once more: only when it came late. A
 * gap runs from our answer going out (at or before the service reads it) to our receipt of
 * the next attempt (at or after the service sends it), and a busy machine delays timers
 * and receipts but never advances them: a gap early beyond its tolerance is the service's own.
 */
export function lateBeyondTolerance(gap: GapVerdict): boolean {
  return gap.deviationMs > gap.lateToleranceMs;
}

/** One line about a gap: "retry 3 came 67 ms after the end of attempt 3, expected 500 ms (-100/+500 ms)". */
export function describeGap(gap: GapVerdict): string {
  const allowed =
    gap.toleranceMs === gap.lateToleranceMs
      ? `±${Math.round(gap.toleranceMs)} ms`
      : `-${Math.round(gap.toleranceMs)}/+${Math.round(gap.lateToleranceMs)} ms`;
  return `retry ${gap.retry} came ${round1(gap.observedMs)} ms after the end of attempt ${gap.retry}, expected ${round1(gap.expectedMs)} ms (${allowed})`;
}

/**
 * For a chart: per attempt, the observed arrival and the nominal one (the first arrival
 * plus the cumulative delays), both relative to the first arrival, in ms.
 */
export function arrivalSeries(
  attempts: readonly AttemptTiming[],
  delaysMs: readonly number[],
): { observedMs: number[]; nominalMs: number[] } {
  const first = attempts[0]?.startMs ?? 0;
  const nominalMs = [0];
  for (const delay of delaysMs) nominalMs.push(nominalMs[nominalMs.length - 1]! + delay);
  return {
    observedMs: attempts.map((attempt) => round1(attempt.startMs - first)),
    nominalMs: nominalMs.map(round1),
  };
}

/** Whether a transition seen between two polls can lie in [lowMs, highMs]: early, late or in the window. */
export function judgeWindow(
  seen: { afterMs: number; byMs: number },
  window: { lowMs: number; highMs: number },
): 'early' | 'late' | 'ok' {
  if (seen.byMs < window.lowMs) return 'early';
  if (seen.afterMs > window.highMs) return 'late';
  return 'ok';
}

/** The attempts of one event so far, for working out when its next retry is due. */
export interface EventAttempts {
  /** Failed attempts so far (all of them, when the delivery is still being retried). */
  failedAttempts: number;
  /** End of the last failed attempt, monotonic ms. */
  lastEndMs: number;
}

/**
 * How many retries the schedule puts in [fromMs, toMs], if every delivery kept failing:
 * the next one after each event's last attempt and the ones after it.
 */
export function retriesDueIn(
  events: readonly EventAttempts[],
  delaysMs: readonly number[],
  fromMs: number,
  toMs: number,
): number {
  let due = 0;
  for (const event of events) {
    let at = event.lastEndMs;
    for (let i = event.failedAttempts - 1; i < delaysMs.length; i++) {
      if (i < 0) continue;
      at += delaysMs[i]!;
      if (at > toMs) break;
      if (at >= fromMs) due++;
    }
  }
  return due;
}

/** Each retry's expected and observed gap with its tolerance band: the series the report charts. */
export function gapSeries(
  match: ScheduleMatch,
): Array<Pick<GapVerdict, 'retry' | 'expectedMs' | 'observedMs' | 'toleranceMs' | 'lateToleranceMs'>> {
  return match.gaps.map((gap) => ({
    retry: gap.retry,
    expectedMs: round1(gap.expectedMs),
    observedMs: round1(gap.observedMs),
    toleranceMs: round1(gap.toleranceMs),
    lateToleranceMs: round1(gap.lateToleranceMs),
  }));
}
