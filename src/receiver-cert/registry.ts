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
import { catalogEntry, type ReceiverArea } from '../catalog/checks.js';
import { RegistrationError } from '../errors.js';
import type { CheckFn } from './context.js';

export interface DeclaredCheck {
  area: ReceiverArea;
  body: CheckFn;
}

/** Check id → its area and body, in the order declared. */
const declared = new Map<string, DeclaredCheck>();
let declaringArea: ReceiverArea | undefined;

/** Declares the checks of one receiver area: `body` calls `check` for each. */
export function receiverSuite(area: ReceiverArea, body: () => void): void {
  declaringArea = area;
  try {
    body();
  } finally {
    declaringArea = undefined;
  }
}

export function check(id: string, body: CheckFn): void {
  const spec = catalogEntry(id);
  if (spec?.subject !== 'receiver') throw new RegistrationError(`unknown receiver check id ${id}: add it to src/catalog/checks.ts first`);
  if (declaringArea === undefined) throw new RegistrationError(`check ${id} is declared outside receiverSuite()`);
  if (spec.area !== declaringArea) throw new RegistrationError(`check ${id} belongs to ${spec.area} in the catalog, but the checks of ${declaringArea} declare it`);
  if (declared.has(id)) throw new RegistrationError(`check ${id} is declared twice`);
  declared.set(id, { area: declaringArea, body });
}

/** Every check declared so far in this process. */
export function declaredChecks(): ReadonlyMap<string, DeclaredCheck> {
  return declared;
}
