/**
 * Every receiver check: each file declares the checks of one receiver area of the catalog
 * (src/catalog/checks.ts) through src/receiver-cert/registry.ts, as each suite file declares
 * the service checks of its area.
 */
import './acceptance.js';
import './signature.js';
import './timestamp.js';
import './replay.js';
import './timing.js';
import './status.js';
import { declaredChecks, type DeclaredCheck } from '../registry.js';

/** Check id → its area and body, once every file above has declared its checks. */
export const RECEIVER_CHECK_BODIES: ReadonlyMap<string, DeclaredCheck> = declaredChecks();
