/**
 * How a run stops, as the runner (src/runner/certify.ts) and the suites' worker
 * (src/suite/check.ts) both see it: the marker file the runner writes beside the record of
 * created resources, and the time each side allows the other once the run is stopping.
 */

/** After SIGINT/SIGTERM or the deadline: how long running checks may take to finish. */
export const STOP_GRACE_MS = 2_000;

/**
 * After the grace: how long the worker is kept while creating requests it sent are still
 * under way, so that what they create reaches the record of created resources (an answer
 * never read is a resource nobody can remove). Usually instant; bounded so an interrupt
 * still ends quickly.
 */
export const PENDING_CREATIONS_LIMIT_MS = 4_000;

/**
 * The file that tells the suites' worker the run is stopping (written by the runner, polled
 * by the worker): from then on it creates nothing more on the target.
 */
export function stopMarkerPath(createdResourcesPath: string): string {
  return `${createdResourcesPath}.stop`;
}
