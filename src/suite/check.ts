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
import { afterAll, describe, test } from 'vitest';
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
