/**
 * Which checks a run was asked to run, against its tier's whole catalog. A run that did not
 * select every check of its tier (`--checks`, `--rerun-failed`) is *partial*: its reports say
 * so, and coverage counts the checks it left out as not run, so that one check can never read
 * as a full certification (../shared/contracts/runner.md, "Settings").
 */
import { z } from 'zod';
import type { CheckSpec, Tier } from '../catalog/checks.js';
import type { CheckResult } from './model.js';

export const SELECTION = z
  .object({
    tier: z.enum(['fast', 'full']),
    checks: z
      .string()
      .optional()
      .describe('CERTIFY_CHECKS (or --checks) as given; absent when every check was selected'),
    rerun_failed: z
      .string()
      .optional()
      .describe('the report.json whose failed, warned and erred checks a --rerun-failed run re-ran'),
    selected: z.number().int().nonnegative().describe('checks of the tier the run selected'),
    of_tier: z.number().int().nonnegative().describe("checks in the tier's catalog"),
  })
  .describe('what the run was asked to run; with fewer selected than of_tier the run is partial');

export type Selection = z.infer<typeof SELECTION>;

/** Whether a check belongs to a run of `tier`: a full run owes every check, a fast run the fast ones. */
export const inTier =
  (tier: Tier) =>
  (check: Pick<CheckSpec, 'tier'>): boolean =>
    tier === 'full' || check.tier === 'fast';

export function selectionOf(options: {
  tier: Tier;
  catalog: readonly CheckSpec[];
  selected: readonly CheckSpec[];
  checks?: string;
  rerunFailed?: string;
}): Selection {
  const owed = inTier(options.tier);
  return {
    tier: options.tier,
    ...(options.checks?.trim() ? { checks: options.checks.trim() } : {}),
    ...(options.rerunFailed ? { rerun_failed: options.rerunFailed } : {}),
    selected: options.selected.filter(owed).length,
    of_tier: options.catalog.filter(owed).length,
  };
}

export const isPartial = (selection: Selection): boolean => selection.selected < selection.of_tier;

/** How the selection was made, as the user wrote it. */
function byWhat(selection: Selection): string {
  if (selection.rerun_failed) return `--rerun-failed ${selection.rerun_failed}`;
  return selection.checks ? `--checks ${selection.checks}` : 'every check';
}

/** "partial run: 3 of 61 checks of tier fast (--checks AUTH-*)"; undefined for a run of the whole tier. */
export function partialLine(selection: Selection): string | undefined {
  if (!isPartial(selection)) return undefined;
  return `partial run: ${selection.selected} of ${selection.of_tier} checks of tier ${selection.tier} selected (${byWhat(selection)}); coverage counts against the whole tier`;
}

/**
 * The tier's checks the selection left out, as skips with the reason: counted by coverage
 * (never as run), never written among the report's checks, which hold what the run ran.
 */
export function unselected(
  catalog: readonly CheckSpec[],
  selected: readonly CheckSpec[],
  selection: Selection,
): CheckResult[] {
  const chosen = new Set(selected.map((check) => check.id));
  const owed = inTier(selection.tier);
  return catalog
    .filter((check) => owed(check) && !chosen.has(check.id))
    .map((check) => ({
      id: check.id,
      title: check.title,
      clause: check.clause,
      level: check.level,
      verdict: 'skip' as const,
      duration_ms: 0,
      detail: `not selected in this partial run (${byWhat(selection)})`,
      area: check.area,
    }));
}
