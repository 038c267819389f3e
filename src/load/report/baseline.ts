/**
 * Comparing a run with a baseline run: each figure both have, flagged as a regression when
 * it moved the wrong way by more than the tolerance (relative), and by more than a small
 * absolute floor, so that noise around zero (a fraction of a millisecond, a stray error)
 * does not count; counts (lost deliveries, bad signatures) have no floor. The baseline is
 * read from its file here, and a file that is not one is a ReportFileError.
 */
import { readFileSync } from 'node:fs';
import type { K6Summary } from '../../../load/lib/shared-types.js';
import { ReportFileError } from '../../errors.js';
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
  if (current.better === 'lower')
    return current.value > baseline.value * (1 + tolerance) && current.value - baseline.value > floor;
  return current.value < baseline.value * (1 - tolerance) && baseline.value - current.value > floor;
}

export function compareDigests(
  current: readonly ScenarioDigest[],
  baseline: readonly ScenarioDigest[],
  tolerance: number,
): Comparison {
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
export function baselineDigests(json: unknown, file = 'the baseline'): ScenarioDigest[] {
  if (json && typeof json === 'object') {
    const value = json as { scenarios?: unknown; metrics?: unknown; scenario?: unknown };
    if (Array.isArray(value.scenarios)) return value.scenarios as ScenarioDigest[];
    if (value.metrics && typeof value.metrics === 'object') return [digestSummary(value as K6Summary, 0)];
  }
  throw new ReportFileError(
    `${file} is not a load report (reports/load/summary.json) nor a k6 summary (<scenario>.summary.json)`,
  );
}

export interface Baseline {
  digests: ScenarioDigest[];
  /** The mode of the run it was ('smoke', 'default'), when the file says. */
  mode?: unknown;
}

/** Reads the baseline file `path` (--baseline); a missing file, or one that is not JSON or not a load report, is a ReportFileError. */
export function readBaseline(path: string): Baseline {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'no such file'
        : `not readable JSON (${(error as Error).message})`;
    throw new ReportFileError(`baseline ${path}: ${why}`);
  }
  const digests = baselineDigests(json, `baseline ${path}`);
  const mode = (json as { mode?: unknown }).mode;
  return { digests, ...(mode !== undefined ? { mode } : {}) };
}
