/**
 * Bounds on a run's time that do not depend on the target behaving: a whole-run deadline
 * for the checks, a grace period after an interrupt or the deadline before the checks
 * still running are stopped by force, and a limit on closing the test runner.
 *
 * Each check has its own time-out (src/suite/check.ts) and each request its own
 * (src/http/client.ts); the deadline is the backstop for a run whose target keeps every
 * check at its limit, or whose test runner does not end by itself. What the suites' worker
 * also obeys once a run stops is one layer down, in src/run-state/stop.ts.
 */
import { STOP_GRACE_MS } from '../run-state/stop.js';

/**
 * Whole-run deadline for the checks, per tier. A clean fast run against a target of the
 * reference's time scale takes a minute or two; one whose smaller max_time_scale stretches the
 * retry and auto-disable checks up to the bound on scaled time (src/suite/timing/budget.ts)
 * takes that bound and a little more, and a check's time-out there reaches
 * LONGEST_BOUNDED_TIMEOUT_MS, which each tier's deadline must exceed (test/runner/deadline.test.ts).
 */
export const RUN_DEADLINE_MS = { fast: 20 * 60_000, full: 60 * 60_000 } as const;

/** How long closing the test runner (and its worker) may take before the run goes on without it. */
export const CLOSE_LIMIT_MS = 10_000;

/**
 * The same after a stop, when the worker creates nothing more (the stop marker) and its
 * creations have settled: the clean-up need not wait for the runner. A worker that a signal
 * to the whole process group ended can keep vitest's close waiting for its answer until
 * CLOSE_LIMIT_MS, which would make an interrupt slow to answer.
 */
export const STOPPED_CLOSE_LIMIT_MS = 2_000;

/** `crashed`: the test runner or its worker ended unexpectedly (killed, out of memory). */
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

export function minutes(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${(ms / 1000).toFixed(0)} s`;
}
