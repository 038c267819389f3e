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
import { refuseNewResources } from '../control/client.js';
import { stopMarkerPath } from '../runner/deadline.js';
import { getCheck, type Area } from '../catalog/checks.js';
import { CheckContext } from './context.js';
import { closeHarness, harness } from './harness.js';
import { CheckSkip } from './outcome.js';
import { runSuiteEndCleanups } from './suite-end.js';
import { closeSharedReceiver } from './webhooks.js';

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
    let ledgerPath: string | undefined;
    try {
      ledgerPath = inject('certify')?.ledgerPath;
    } catch {
      ledgerPath = undefined;
    }
    if (ledgerPath && existsSync(stopMarkerPath(ledgerPath))) {
      refuseNewResources();
      clearInterval(marker);
    }
  }, 100);
  marker.unref();
}

const DEFAULT_TIMEOUT_MS = 60_000;
const CLEANUP_ALLOWANCE_MS = 15_000;

export function certifySuite(area: Area, body: () => void): void {
  describe.concurrent(area, () => {
    afterAll(async () => {
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
    if (skipReason !== undefined) ctx.skip();
  }, timeoutMs);
}
