/** Which checks a run covers: all, or those CERTIFY_CHECKS (TARGET_RECEIVER_CHECKS) names (ids, or prefixes ending in `*`). */
import { CHECKS, type Area, type CheckSpec } from '../catalog/checks.js';
import { RunAbort } from '../errors.js';

export function selectChecks(filter: string | undefined): CheckSpec[] {
  return selectFrom(CHECKS, filter, 'CERTIFY_CHECKS');
}

/** The checks of `catalog` that `filter` names (ids, or prefixes ending in `*`); a pattern naming none stops the run. */
export function selectFrom<C extends { id: string }>(
  catalog: readonly C[],
  filter: string | undefined,
  setting: string,
): C[] {
  if (!filter?.trim()) return [...catalog];
  const patterns = filter
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const matches = (pattern: string, check: C) =>
    pattern.endsWith('*') ? check.id.startsWith(pattern.slice(0, -1)) : check.id === pattern;
  const selected = catalog.filter((check) => patterns.some((pattern) => matches(pattern, check)));
  const unmatched = patterns.filter((pattern) => !catalog.some((check) => matches(pattern, check)));
  if (unmatched.length > 0) throw new RunAbort(`${setting} names no check for: ${unmatched.join(', ')}`);
  return selected;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A vitest name pattern matching exactly the selected checks ("<ID> <title>"). */
export function namePatternFor(checks: readonly CheckSpec[]): string {
  return `(?:^|\\s)(?:${checks.map((check) => escapeRegExp(check.id)).join('|')}) `;
}

/**
 * The suites whose longest checks take longest start first, so that the concurrency limit
 * never holds one back behind short ones (measured on the reference; the rest follow in
 * catalog order).
 */
const LONGEST_FIRST: readonly Area[] = [
  'webhook-retry',
  'state-model',
  'session',
  'revocation',
  'webhook-delivery',
  'tokens',
  'workspace',
];

/** Where an area's checks start among the others: 0 first (the longest), ties in catalog order. */
export function startRank(area: Area): number {
  return LONGEST_FIRST.includes(area) ? LONGEST_FIRST.indexOf(area) : LONGEST_FIRST.length;
}

export function startOrder(areas: readonly Area[]): Area[] {
  return [...areas].sort((a, b) => startRank(a) - startRank(b));
}
