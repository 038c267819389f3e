/**
 * Comparing a run with a baseline run: each figure both have, flagged as a regression when
 * it moved the wrong way by more than the tolerance (relative), and by more than a small
 * absolute floor, so that noise around zero (0 → 0.4 ms, 0 → 0.05 % errors) does not count;
 * counts (lost deliveries, bad signatures) have no floor.
 */
import type { K6Summary } from '../../load/lib/shared-types.js';
import { digestSummary, type Figure, type ScenarioDigest, type Unit } from './digest.js';

export interface ComparisonRow {
  scenario: string;
  figure: string;
  unit: Unit;
  better: 'lower' | 'higher';
  baseline: number;
  current: number;
  /** (current − baseline) / baseline; null when the baseline is 0. */
  change: number | null;
  regression: boolean;
}

export interface Comparison {
  /** Relative tolerance, e.g. 0.1 for 10 %. */
  tolerance: number;
  rows: ComparisonRow[];
  regressions: number;
}

/** Moves smaller than this never count, whatever the relative change. */
export const ABSOLUTE_FLOOR: Record<Unit, number> = { ms: 1, '/s': 0.5, ratio: 0.001, count: 0 };

export function isRegression(baseline: Figure, current: Figure, tolerance: number): boolean {
  const floor = ABSOLUTE_FLOOR[current.unit];
  if (current.better === 'lower') return current.value > baseline.value * (1 + tolerance) && current.value - baseline.value > floor;
  return current.value < baseline.value * (1 - tolerance) && baseline.value - current.value > floor;
}

export function compareDigests(current: readonly ScenarioDigest[], baseline: readonly ScenarioDigest[], tolerance: number): Comparison {
  if (!(tolerance >= 0)) throw new RangeError('tolerance must be a non-negative fraction, e.g. 0.1');
  const byScenario = new Map(baseline.map((digest) => [digest.scenario, digest]));
  const rows: ComparisonRow[] = [];
  for (const digest of current) {
    const before = byScenario.get(digest.scenario);
    if (!before) continue;
    for (const [name, figure] of Object.entries(digest.figures)) {
      const old = before.figures[name];
      if (!old) continue;
      rows.push({
        scenario: digest.scenario,
        figure: name,
        unit: figure.unit,
        better: figure.better,
        baseline: old.value,
        current: figure.value,
        change: old.value === 0 ? null : (figure.value - old.value) / old.value,
        regression: isRegression(old, figure, tolerance),
      });
    }
  }
  return { tolerance, rows, regressions: rows.filter((row) => row.regression).length };
}

/**
 * The digests of a baseline file: the combined report of `npm run load`
 * (reports/load/summary.json) or one scenario's k6 summary (reports/load/<scenario>.summary.json).
 */
export function baselineDigests(json: unknown): ScenarioDigest[] {
  if (json && typeof json === 'object') {
    const value = json as { scenarios?: unknown; metrics?: unknown; scenario?: unknown };
    if (Array.isArray(value.scenarios)) return value.scenarios as ScenarioDigest[];
    if (value.metrics && typeof value.metrics === 'object') return [digestSummary(value as K6Summary, 0)];
  }
  throw new Error('not a load report (reports/load/summary.json) nor a k6 summary (<scenario>.summary.json)');
}
