/**
 * Declaring conformance checks in vitest suites.
 *
 *   certifySuite('auth-errors', () => {
 *     check('AUTH-MISSING-HEADER', async (t) => { ... });
 *   });
 *
 * Each check is a vitest test named "<ID> <title>" from the catalog; checks of a suite run
 * concurrently (each makes its own workspace), so a suite takes as long as its slowest
 * check, not the sum.
 */
import { existsSync } from 'node:fs';
import { afterAll, describe, inject, test } from 'vitest';
import { refuseNewResources, refusesNewResources } from '../control/client.js';
import { stopMarkerPath, within } from '../runner/deadline.js';
import { getCheck, type Area } from '../catalog/checks.js';
import { CheckContext } from './context.js';
import { closeHarness, harness } from './harness.js';
import { CheckSkip } from '../errors.js';
import './outcome.js';
import { runSuiteEndCleanups } from './suite-end.js';
import { closeSharedReceiver } from './webhooks.js';

const DEFAULT_TIMEOUT_MS = 60_000;
const CLEANUP_ALLOWANCE_MS = 15_000;

export interface CheckOptions {
  /** Upper bound for the whole check, cleanup included. */
  timeoutMs?: number;
}

// The runner owns interrupts (src/runner/certify.ts). A Ctrl-C reaches this worker too (one
// process group); dying on it would lose the run's report and clean-up, so the worker
// ignores SIGINT and ends when the runner closes it. Once the run is stopping (a signal,
// or the runner's stop marker), it creates nothing more on the target: whatever it
// created is then in the ledger, for the runner to remove.
if (process.send !== undefined) {
  process.on('SIGINT', refuseNewResources);
  const marker = setInterval(() => {
    if (runIsStopping()) clearInterval(marker);
  }, 100);
  marker.unref();
}

/** Whether the run is stopping (a signal here, or the runner's stop marker); if so, refuses new resources. */
function runIsStopping(): boolean {
  if (refusesNewResources()) return true;
  let ledgerPath: string | undefined;
  try {
    ledgerPath = inject('certify')?.ledgerPath;
  } catch {
    ledgerPath = undefined;
  }
  if (!ledgerPath || !existsSync(stopMarkerPath(ledgerPath))) return false;
  refuseNewResources();
  return true;
}

// The bodies of the checks still running in this worker. When the runner stops the run
// (vitest's cancelCurrentRun), vitest 4 settles each running test at once, as skipped, and
// goes on to the suite's afterAll while the check's body is still running. Closing the
// clients there would cut off that body's requests: a workspace being created would never
// reach the ledger, and the check's own clean-up would fail. So once the run is stopping, the
// suite's clean-up first waits for those bodies (as vitest 3 did); the runner's grace and
// its closing of the worker bound that wait.
const runningChecks = new Set<Promise<unknown>>();

async function settleRunningChecks(): Promise<void> {
  if (runningChecks.size === 0 || !runIsStopping()) return;
  await within(Promise.allSettled([...runningChecks]), CLEANUP_ALLOWANCE_MS, undefined);
}

export function certifySuite(area: Area, body: () => void): void {
  describe.concurrent(area, () => {
    afterAll(async () => {
      await settleRunningChecks();
      await runSuiteEndCleanups();
      await closeSharedReceiver();
      await closeHarness();
    });
    body();
  });
}

export function check(id: string, body: (t: CheckContext) => Promise<void>, options: CheckOptions = {}): void {
  const spec = getCheck(id);
  const timeoutMs = (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) + CLEANUP_ALLOWANCE_MS;
  test(`${spec.id} ${spec.title}`, async (ctx) => {
    const t = new CheckContext(spec, harness());
    let skipReason: string | undefined;
    const running = (async () => {
      try {
        if (spec.tier === 'full' && t.run.tier !== 'full') t.skip('runs only under CERTIFY_TIER=full (real-time waits)');
        await body(t);
      } catch (error) {
        if (!(error instanceof CheckSkip)) throw error;
        skipReason = error.message;
      } finally {
        await t.dispose();
        ctx.task.meta.check = t.toMeta(skipReason);
      }
    })();
    runningChecks.add(running);
    try {
      await running;
    } finally {
      runningChecks.delete(running);
    }
    if (skipReason !== undefined) ctx.skip();
  }, timeoutMs);
}
