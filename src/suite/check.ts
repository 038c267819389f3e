/**
 * Declaring conformance checks in vitest suites.
 *
 *   certifySuite('auth-errors', () => {
 *     check('AUTH-MISSING-HEADER', async (t) => { ... });
 *   });
 *
 * Each check is a vitest test named "<ID> <title>" from the catalog; checks run concurrently
 * (each makes its own workspace), within a suite and, when the suites are imported by one
 * file (suites/selected.ts), across suites too, so a run takes about as long as its slowest
 * check, not the sum. Declarations are checked as they happen: a check must belong to the
 * suite's area in the catalog and be declared once (RegistrationError otherwise). With
 * `recordDeclarationsOnly()` the suites can be imported to compare them with the catalog
 * without declaring any vitest test (test/catalog.test.ts).
 */
import { existsSync } from 'node:fs';
import { afterAll, describe, inject, test } from 'vitest';
import { refuseNewResources, refusesNewResources } from '../control/client.js';
import { withTimeout } from '../async/with-timeout.js';
import { pendingCreations } from '../run-state/created-resources.js';
import { PENDING_CREATIONS_LIMIT_MS, STOP_GRACE_MS, stopMarkerPath } from '../run-state/stop.js';
import { getCheck, type Area } from '../catalog/checks.js';
import { CheckContext } from './context.js';
import { closeHarness, harness } from './harness.js';
import { CheckFailure, CheckSkip, ControlUnsupported, isUnanswered } from '../errors.js';
import { Registry, type Declaration } from '../check/registry.js';
import { countedIn, emptyTraffic, judgedFirst, type Exchange, type NetworkTally } from '../http/tally.js';
import './outcome.js';
import { runSuiteEndCleanups } from './suite-end.js';
import { closeSharedJwksServer } from './identity-provider.js';
import { closeSharedReceiver } from './webhooks.js';

const DEFAULT_TIMEOUT_MS = 60_000;
const CLEANUP_ALLOWANCE_MS = 15_000;

export interface CheckOptions {
  /** Upper bound for the whole check, cleanup included. */
  timeoutMs?: number;
}

/** What a service check's declaration holds: its body and its options. */
export interface ServiceCheckBody {
  run: (t: CheckContext) => Promise<void>;
  options: CheckOptions;
}

/** The service checks, declared through the one check registry (src/check/registry.ts). */
export const SERVICE_CHECKS = new Registry<Area, ServiceCheckBody>({
  subject: 'service',
  declaresIt: (area) => `suites/${area}.suite.ts declares it`,
  suiteFunction: 'certifySuite()',
});
let recordOnly = false;
let watchingRunStop = false;
/** Suites declared and not yet ended: the shared servers and clients close with the last. */
let openSuites = 0;

/** From now on certifySuite and check only record (for comparing the suites with the catalog). */
export function recordDeclarationsOnly(): ReadonlyMap<string, Declaration<Area, ServiceCheckBody>> {
  recordOnly = true;
  return SERVICE_CHECKS.declarations();
}

// The runner owns interrupts (src/runner/certify.ts). A Ctrl-C reaches the suites' worker
// too (one process group); dying on it would lose the run's report and clean-up, so the
// worker ignores SIGINT and ends when the runner closes it. Once the run is stopping (a
// signal, or the runner's stop marker), it creates nothing more on the target: whatever it
// created is then recorded, for the runner to remove. Installed by the first suite.
function watchRunStop(): void {
  if (watchingRunStop) return;
  watchingRunStop = true;
  process.on('SIGINT', refuseNewResources);
  process.on('SIGTERM', endOnceCreationsRecorded);
  const marker = setInterval(() => {
    if (runIsStopping()) clearInterval(marker);
  }, 100);
  marker.unref();
}

/** The run's record of created resources, when this worker runs under the runner. */
function createdResourcesPath(): string | undefined {
  try {
    return inject('certify')?.createdResourcesPath;
  } catch {
    return undefined;
  }
}

/** Whether the run is stopping (a signal here, or the runner's stop marker); if so, refuses new resources. */
function runIsStopping(): boolean {
  if (refusesNewResources()) return true;
  const recordPath = createdResourcesPath();
  if (!recordPath || !existsSync(stopMarkerPath(recordPath))) return false;
  refuseNewResources();
  return true;
}

let ending = false;

/**
 * SIGTERM: vitest closing this worker, or a signal to the whole process group (a cancelled CI
 * job). Dying at once would lose the answers to the creating requests under way, and with them
 * what they created (4 workspaces left on the target, in a CI run). So the worker creates
 * nothing more and ends, by the same signal, once those answers are recorded: at once when
 * none is under way; at the latest when the runner has stopped waiting for them (vitest kills a
 * worker that outlives its SIGTERM by 500 ms anyway).
 */
function endOnceCreationsRecorded(): void {
  refuseNewResources();
  if (ending) return;
  ending = true;
  const recordPath = createdResourcesPath();
  const end = () => {
    process.off('SIGTERM', endOnceCreationsRecorded);
    process.kill(process.pid, 'SIGTERM');
  };
  if (!recordPath || pendingCreations(recordPath) === 0) return end();
  const endBy = performance.now() + STOP_GRACE_MS + PENDING_CREATIONS_LIMIT_MS;
  const poll = setInterval(() => {
    if (pendingCreations(recordPath) > 0 && performance.now() < endBy) return;
    clearInterval(poll);
    end();
  }, 20);
}

// The bodies of the checks still running in this worker. When the runner stops the run
// (vitest's cancelCurrentRun), vitest 4 settles each running test at once, as skipped, and
// goes on to the suite's afterAll while the check's body is still running. Closing the
// clients there would cut off that body's requests: a workspace being created would never
// be recorded, and the check's own clean-up would fail. So once the run is stopping, the
// suite's clean-up first waits for those bodies (as vitest 3 did); the runner's grace and
// its closing of the worker bound that wait.
const runningChecks = new Set<Promise<unknown>>();

async function settleRunningChecks(): Promise<void> {
  if (runningChecks.size === 0 || !runIsStopping()) return;
  await withTimeout(Promise.allSettled([...runningChecks]), CLEANUP_ALLOWANCE_MS, undefined);
}

export function certifySuite(area: Area, body: () => void): void {
  const declare = () => SERVICE_CHECKS.inArea(area, body);
  if (recordOnly) return declare();
  watchRunStop();
  openSuites += 1;
  describe.concurrent(area, () => {
    afterAll(async () => {
      openSuites -= 1;
      await settleRunningChecks();
      // Suites running beside this one still use the receiver, the identity provider and the clients.
      if (openSuites > 0) return;
      await runSuiteEndCleanups();
      await closeSharedReceiver();
      await closeSharedJwksServer();
      await closeHarness();
    });
    declare();
  });
}

/**
 * Why a check that threw has no verdict, or undefined when what it threw is its verdict. A
 * request without an answer decides nothing; and a check that failed after one of its requests
 * got none may have failed for want of that answer, so it is not trusted with a `fail` either.
 */
export function noVerdictReason(error: unknown, network: NetworkTally): string | undefined {
  if (isUnanswered(error)) return `${error.message}; the network kept the answer away (${describeCost(network)})`;
  if (network.unanswered === 0) return undefined;
  const failure = (error as Error)?.message ?? String(error);
  return `${network.first_unanswered} (${describeCost(network)}); the failure that followed may come from the missing answer: ${failure.split('\n')[0]}`;
}

/** A check's body still ran when its own time-out came. */
export class CheckOvertime extends Error {
  constructor(timeoutMs: number) {
    super(`the check did not finish within its time-out of ${Math.round(timeoutMs / 1000)} s`);
  }
}

/** `body`, or CheckOvertime after `timeoutMs`; a body still running then goes on unheard (its clean-up follows). */
async function withinOwnTimeout(body: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const overtime = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new CheckOvertime(timeoutMs)), timeoutMs)),
  );
  body.catch(() => undefined);
  try {
    await Promise.race([body, overtime]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why a check that ran out of its own time has no verdict, or undefined when its time-out is its
 * verdict. A check's time-out allows for its own waits, not for a network that stalled it: when its
 * requests met 429s, were sent again or went unanswered, the time may have gone there.
 */
export function overtimeReason(timeoutMs: number, network: NetworkTally): string | undefined {
  if (network.unanswered === 0 && network.resent === 0 && network.rate_limited === 0) return undefined;
  const stalls = [
    network.rate_limited > 0 ? `${network.rate_limited} answered 429` : '',
    network.resent > 0 ? `${network.resent} sent again` : '',
    network.unanswered > 0 ? `${network.unanswered} unanswered` : '',
  ].filter(Boolean);
  return `the check did not finish within its time-out of ${Math.round(timeoutMs / 1000)} s after the network stalled it (${stalls.join(', ')}, ${Math.round(network.waited_ms / 1000)} s waited)`;
}

/** The command that runs one check again, with the run's seed (its target settings as they were). */
export function rerunCommand(checkId: string, seed: number): string {
  return `svc-harness certify --checks ${checkId} --seed ${seed}`;
}

function describeCost(network: NetworkTally): string {
  const sent = network.requests + network.control_requests;
  const parts = [
    `${network.unanswered} request${network.unanswered === 1 ? '' : 's'} of ${sent} unanswered after retries`,
  ];
  if (network.rate_limited > 0) parts.push(`${network.rate_limited} answered 429`);
  return parts.join(', ');
}

export function check(id: string, body: (t: CheckContext) => Promise<void>, options: CheckOptions = {}): void {
  SERVICE_CHECKS.declare(id, { run: body, options }, check);
  if (recordOnly) return;
  const spec = getCheck(id);
  // The body keeps the bound it had under vitest's time-out alone; vitest's now leaves the clean-up its allowance.
  const ownTimeoutMs = (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) + CLEANUP_ALLOWANCE_MS;
  const timeoutMs = ownTimeoutMs + CLEANUP_ALLOWANCE_MS;
  test(
    `${spec.id} ${spec.title}`,
    async (ctx) => {
      const t = new CheckContext(spec, await harness());
      let skipReason: string | undefined;
      let errorReason: string | undefined;
      let failed = false;
      let judged: Exchange | undefined;
      const traffic = emptyTraffic();
      const network = traffic.tally;
      const running = countedIn(traffic, async () => {
        try {
          if (spec.tier === 'full' && t.run.tier !== 'full')
            t.skip('runs only under CERTIFY_TIER=full (real-time waits)');
          await withinOwnTimeout(body(t), ownTimeoutMs);
        } catch (error) {
          if (error instanceof CheckFailure) judged = error.judged;
          if (error instanceof ControlUnsupported) skipReason = `the control adapter cannot do it: ${error.message}`;
          else if (error instanceof CheckSkip) skipReason = error.message;
          else if (
            (errorReason =
              error instanceof CheckOvertime
                ? overtimeReason(ownTimeoutMs, network)
                : noVerdictReason(error, network)) === undefined
          ) {
            failed = true;
            throw error;
          }
        } finally {
          await t.dispose();
          const evidence =
            failed || errorReason
              ? { exchanges: judgedFirst(judged, traffic.exchanges), rerun: rerunCommand(spec.id, t.run.seed) }
              : undefined;
          ctx.task.meta.check = t.toMeta(skipReason, errorReason, network, evidence);
        }
      });
      runningChecks.add(running);
      try {
        await running;
      } finally {
        runningChecks.delete(running);
      }
      if (skipReason !== undefined) ctx.skip();
    },
    timeoutMs,
  );
}
