/**
 * Where each check's body is, for docs/traceability.md: the `path:line` its declaration
 * recorded in the one check registry (src/check/registry.ts), read by importing the files
 * that declare checks (the suites, with declarations recorded only, and
 * src/receiver-cert/checks/) when the document is generated, so the row follows the code
 * wherever it moves.
 */
import { CHECKS } from '../catalog/checks.js';
import { RegistrationError } from '../errors.js';
import { recordDeclarationsOnly } from '../suite/check.js';
import { declaredChecks } from '../receiver-cert/registry.js';

/** A declared check and where its body is. */
export interface DeclaredLocation {
  id: string;
  location: string;
}

/**
 * Check id → `path:line` of the `check(` that declares it. A declaration whose id is not among
 * `ids` is passed over; an id no declaration names is an error that names it.
 */
export function checkBodyLines(declarations: Iterable<DeclaredLocation>, ids: readonly string[]): Map<string, string> {
  const wanted = new Set(ids);
  const found = new Map<string, string>();
  for (const { id, location } of declarations) if (wanted.has(id)) found.set(id, location);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw new RegistrationError(
      `no check('ID', …) declares ${missing.join(', ')} in the suites or src/receiver-cert/checks`,
    );
  return found;
}

/** Every check the suites and the receiver checks declare, with its location: imports them once. */
export async function declaredCheckLocations(): Promise<DeclaredLocation[]> {
  const service = recordDeclarationsOnly();
  for (const area of new Set(CHECKS.map((spec) => spec.area))) await import(`../../suites/${area}.suite.ts`);
  await import('../receiver-cert/checks/index.js');
  return [...service.values(), ...declaredChecks().values()];
}
