/**
 * Bounds on a run's time that do not depend on the target behaving: a whole-run deadline
 * for the checks, a grace period after an interrupt or the deadline before the checks
 * still running are stopped by force, and a limit on closing the test runner.
 *
 * Each check has its own time-out (src/suite/check.ts) and each request its own
 * (src/http/client.ts); the deadline is the backstop for a run whose target keeps every
 * check at its limit, or whose test runner does not end by itself. How a run stops is
 * src/runner/run-stop.ts; what the suites' worker obeys then, src/run-state/stop.ts.
 */

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
