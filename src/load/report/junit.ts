/**
 * load-junit.xml: the load verdict for a CI system, through the one JUnit writer
 * (src/report/junit.ts). One testsuite per scenario, one testcase per threshold of it
 * (classname the scenario, name the threshold's expression on its metric), so that a CI
 * system keeps a history per threshold; a failed one is a <failure> naming the figure it
 * judged against its bound. A scenario that could not run is an <error>, one that does not
 * apply to the target is <skipped>, and each figure compared with a baseline is a testcase
 * too, failed when it regressed. It renders the report it is given and judges nothing.
 */
import { renderJunitDocument, type JunitCase, type JunitSuite } from '../../report/junit.js';
import { EXIT } from '../../errors.js';
import type { ComparisonRow } from './baseline.js';
import { judgedStat, type ScenarioDigest, type ThresholdResult } from './digest.js';
import { formatFigure, formatObserved, type LoadReport } from './html.js';

/** What a failed threshold judged: the figure, then the bound it missed. */
export function thresholdFailure(digest: ScenarioDigest, threshold: ThresholdResult): string {
  const stat = judgedStat(threshold.expression) ?? threshold.expression;
  const figure = digest.figures[`${threshold.metric} ${stat}`];
  const observed = figure
    ? formatFigure(figure)
    : threshold.observed !== undefined
      ? formatObserved(threshold.observed)
      : undefined;
  if (observed === undefined)
    return `${stat} of ${threshold.metric} is not in the summary; the threshold ${threshold.expression} failed`;
  return `${stat} of ${threshold.metric} was ${observed}; the threshold is ${threshold.expression}`;
}

function thresholdCase(digest: ScenarioDigest, threshold: ThresholdResult): JunitCase {
  const stat = judgedStat(threshold.expression);
  const seen =
    threshold.observed === undefined || stat === undefined ? [] : [`${stat} ${formatObserved(threshold.observed)}`];
  return {
    classname: digest.scenario,
    name: `${threshold.metric} ${threshold.expression}`,
    timeMs: 0,
    ...(threshold.ok
      ? {}
      : { outcome: { kind: 'failure' as const, message: thresholdFailure(digest, threshold), type: 'threshold' } }),
    systemOut: [...seen, threshold.ok ? 'held' : 'failed'],
  };
}

function baselineCase(row: ComparisonRow, tolerance: number): JunitCase {
  const now = formatFigure({ value: row.current, unit: row.unit });
  const then = formatFigure({ value: row.baseline, unit: row.unit });
  const change = row.change === null ? '' : ` (${row.change >= 0 ? '+' : ''}${(row.change * 100).toFixed(1)} %)`;
  const text = `${row.figure}: ${now} against ${then} in the baseline${change}; ${row.better} is better, tolerance ${(tolerance * 100).toFixed(0)} %`;
  return {
    classname: row.scenario,
    name: `baseline ${row.figure}`,
    timeMs: 0,
    ...(row.regression ? { outcome: { kind: 'failure' as const, message: text, type: 'regression' } } : {}),
    systemOut: [text],
  };
}

function scenarioSuite(report: LoadReport, digest: ScenarioDigest): JunitSuite {
  const cases: JunitCase[] = [];
  if (digest.skipped !== undefined)
    cases.push({
      classname: digest.scenario,
      name: 'scenario',
      timeMs: 0,
      outcome: { kind: 'skipped', message: digest.skipped },
    });
  else if (digest.error !== undefined)
    cases.push({
      classname: digest.scenario,
      name: 'run',
      timeMs: digest.durationMs,
      outcome: { kind: 'error', message: digest.error, type: 'could-not-run' },
    });
  else if (digest.exitCode !== null && digest.exitCode !== EXIT.passed && digest.exitCode !== EXIT.thresholdsFailed) {
    cases.push({
      classname: digest.scenario,
      name: 'run',
      timeMs: digest.durationMs,
      outcome: { kind: 'error', message: `k6 exited ${digest.exitCode}`, type: 'k6-exit' },
    });
  }
  for (const threshold of digest.thresholds) cases.push(thresholdCase(digest, threshold));
  const comparison = report.baseline?.comparison;
  for (const row of comparison?.rows.filter((r) => r.scenario === digest.scenario) ?? [])
    cases.push(baselineCase(row, comparison!.tolerance));
  return {
    name: digest.scenario,
    timestamp: report.started_at,
    package: 'load',
    timeMs: digest.durationMs,
    properties: {
      run_id: report.run_id,
      mode: report.mode,
      ...(digest.segments ? { segments: String(digest.segments) } : {}),
    },
    cases,
  };
}

export function renderLoadJunit(report: LoadReport): string {
  return renderJunitDocument({
    name: 'load',
    timeMs: Date.parse(report.finished_at) - Date.parse(report.started_at),
    suites: report.scenarios.map((digest) => scenarioSuite(report, digest)),
  });
}
