/**
 * Bounds on a run's time that do not depend on the target behaving: a whole-run deadline
 * for the checks, a grace period after an interrupt or the deadline before the checks
 * still running are stopped by force, and a limit on closing the test runner.
 *
 * Each check has its own time-out (src/suite/check.ts) and each request its own
 * (src/http/client.ts); the deadline is the backstop for a run whose target keeps every
 * check at its limit, or whose test runner does not end by itself.
 */

/**
 * Whole-run deadline for the checks, per tier. A clean fast run against a target of the
 * reference's time scale takes a minute or two; one whose smaller max_time_scale stretches the
 * retry and auto-disable checks up to the bound on scaled time (src/suite/timing/budget.ts)
 * takes that bound and a little more, and a check's time-out there reaches
 * LONGEST_BOUNDED_TIMEOUT_MS, which each tier's deadline must exceed (test/runner/deadline.test.ts).
 */
export const RUN_DEADLINE_MS = { fast: 20 * 60_000, full: 60 * 60_000 } as const;

/** After SIGINT/SIGTERM or the deadline: how long running checks may take to finish. */
export const STOP_GRACE_MS = 2_000;

/**
 * After the grace: how long the worker is kept while creating requests it sent are still
 * under way, so that what they create reaches the ledger (an answer never read is a
 * resource nobody can remove). Usually instant; bounded so an interrupt still ends quickly.
 */
export const PENDING_CREATIONS_LIMIT_MS = 4_000;

/** How long closing the test runner (and its worker) may take before the run goes on without it. */
export const CLOSE_LIMIT_MS = 10_000;

/**
 * The same after a stop, when the worker creates nothing more (the stop marker) and its
 * creations have settled: the clean-up need not wait for the runner. A worker that a signal
 * to the whole process group ended can keep vitest's close waiting for its answer until
 * CLOSE_LIMIT_MS, which a CI run measured as an interrupt taking 10.3 s.
 */
export const STOPPED_CLOSE_LIMIT_MS = 2_000;

/** `crashed`: the test runner or its worker ended unexpectedly (killed, out of memory). */
/**
 * The file that tells the suites' worker the run is stopping (written by the runner, polled
 * by src/suite/check.ts): from then on it creates nothing more on the target.
 */
export function stopMarkerPath(ledgerPath: string): string {
  return `${ledgerPath}.stop`;
}

export type StopReason = 'interrupted' | 'deadline' | 'crashed';

/** A one-shot stop: by a signal or by the deadline, whichever comes first. */
export class RunStop {
  reason: StopReason | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private forceNow!: () => void;
  /** Resolves STOP_GRACE_MS after the stop: time to stop waiting for the checks. */
  readonly forced = new Promise<void>((resolve) => (this.forceNow = resolve));

  constructor(
    deadlineMs: number,
    private readonly onStop: (reason: StopReason) => void,
  ) {
    this.timers.push(setTimeout(() => this.stop('deadline'), deadlineMs));
  }

  stop(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    this.onStop(reason);
    this.timers.push(setTimeout(() => this.forceNow(), STOP_GRACE_MS));
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }
}

/** Resolves with the promise's value, or with `fallback` after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export function minutes(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${(ms / 1000).toFixed(0)} s`;
}
