/**
 * The receiver certification's view of the one check catalog (src/catalog/checks.ts):
 * its checks (`RCV-*`), in run order.
 */
import { CatalogError } from '../errors.js';
import { RECEIVER_CHECKS, type ReceiverCheckSpec } from '../catalog/checks.js';

export { RECEIVER_CHECKS, type ReceiverArea, type ReceiverCheckSpec } from '../catalog/checks.js';

export const RECEIVER_CHECK_IDS = new Set(RECEIVER_CHECKS.map((check) => check.id));

export function receiverCheck(id: string): ReceiverCheckSpec {
  const spec = RECEIVER_CHECKS.find((check) => check.id === id);
  if (spec === undefined) throw new CatalogError(`no receiver check ${id} in the catalog`);
  return spec;
}
