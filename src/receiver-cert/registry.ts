/**
 * Declaring receiver checks, the way the suites declare service checks (src/suite/check.ts):
 *
 *   receiverSuite('receiver-replay', () => {
 *     check('RCV-REPLAY-ACKNOWLEDGED', async (t) => { ... });
 *   });
 *
 * Each file of checks/ declares the checks of one receiver area of the catalog
 * (src/catalog/checks.ts), so a check id leads to its body in one place. Declarations are
 * checked as they happen: a check must be a receiver check of the suite's area in the catalog
 * and be declared once (RegistrationError otherwise). checks/index.ts imports every file; the
 * runner takes each body from there by id, and runs the checks in catalog order.
 */
import type { ReceiverArea } from '../catalog/checks.js';
import { Registry, type Declaration } from '../check/registry.js';
import type { CheckFn } from './context.js';

export type DeclaredCheck = Declaration<ReceiverArea, CheckFn>;

/** The receiver checks, declared through the one check registry (src/check/registry.ts). */
export const RECEIVER_CHECKS_REGISTRY = new Registry<ReceiverArea, CheckFn>({
  subject: 'receiver',
  declaresIt: (area) => `the checks of ${area} declare it`,
  suiteFunction: 'receiverSuite()',
});

/** Declares the checks of one receiver area: `body` calls `check` for each. */
export function receiverSuite(area: ReceiverArea, body: () => void): void {
  RECEIVER_CHECKS_REGISTRY.inArea(area, body);
}

export function check(id: string, body: CheckFn): void {
  RECEIVER_CHECKS_REGISTRY.declare(id, body, check);
}

/** Every check declared so far in this process. */
export function declaredChecks(): ReadonlyMap<string, DeclaredCheck> {
  return RECEIVER_CHECKS_REGISTRY.declarations();
}
