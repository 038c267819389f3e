/**
 * Coverage of a run: how many checks of its tier ran with a verdict (not skip), by level,
 * and whether enough `must` checks ran for CERTIFY_MIN_COVERAGE. A run without a control
 * interface skips most checks and no failure is left to fail it; a CI gate that reads the
 * exit code must be able to demand that the checks actually ran.
 */
import type { Level } from '../catalog/checks.js';
import type { CheckResult, Coverage } from './model.js';

const LEVELS: readonly Level[] = ['must', 'should', 'observe'];

/** `inTier`: whether a check belongs to the run's tier (a full-tier check is not owed by a fast run). */
export function coverageOf(
  checks: readonly CheckResult[],
  inTier: (id: string) => boolean,
  minMustPercent: number,
): Coverage {
  const owed = checks.filter((check) => inTier(check.id));
  const ranAt = (level: Level) => {
    const atLevel = owed.filter((check) => check.level === level);
    return { ran: atLevel.filter((check) => check.verdict !== 'skip').length, of: atLevel.length };
  };
  const byLevel = { must: ranAt('must'), should: ranAt('should'), observe: ranAt('observe') };
  const mustPercent = byLevel.must.of === 0 ? 100 : Math.floor((byLevel.must.ran / byLevel.must.of) * 1000) / 10;
  const missing = new Map<string, string[]>();
  for (const check of owed) {
    if (check.level !== 'must' || check.verdict !== 'skip') continue;
    const reason = check.detail ?? 'skipped without a reason';
    missing.set(reason, [...(missing.get(reason) ?? []), check.id]);
  }
  return {
    by_level: byLevel,
    must_percent: mustPercent,
    min_must_percent: minMustPercent,
    met: mustPercent >= minMustPercent,
    missing: [...missing]
      .map(([reason, ids]) => ({ reason, checks: ids }))
      .sort((a, b) => b.checks.length - a.checks.length),
  };
}

/** "must 10/50 (20%), should 3/20, observe 1/5 ran" and, when set, the minimum and whether it was met. */
export function coverageLine(coverage: Coverage): string {
  const levels = LEVELS.map((level) => {
    const { ran, of } = coverage.by_level[level];
    return `${level} ${ran}/${of}${level === 'must' ? ` (${coverage.must_percent}%)` : ''}`;
  }).join(', ');
  const minimum =
    coverage.min_must_percent > 0
      ? `; CERTIFY_MIN_COVERAGE ${coverage.min_must_percent}%: ${coverage.met ? 'met' : 'NOT met'}`
      : '';
  return `${levels} of the tier ran${minimum}`;
}

/** One line for a run that fell short: how many must checks did not run, and why (the largest group first). */
export function shortfallLine(coverage: Coverage): string {
  const { ran, of } = coverage.by_level.must;
  const why = coverage.missing
    .map(
      (group) =>
        `${group.reason} (${group.checks.length}: ${group.checks.slice(0, 3).join(', ')}${group.checks.length > 3 ? ', …' : ''})`,
    )
    .join('; ');
  return `coverage ${coverage.must_percent}% (${ran} of ${of} must checks ran) is below CERTIFY_MIN_COVERAGE ${coverage.min_must_percent}%; missing: ${why}`;
}
