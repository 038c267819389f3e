/** The end of a load run: summary.json, report.html and load-junit.xml in the report folder, and the verdicts on stderr. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { maskDeep } from '../../secrets/mask.js';
import type { Comparison } from './baseline.js';
import { log } from '../log.js';
import { judgedStat, type ScenarioDigest } from './digest.js';
import { formatFigure, formatObserved, renderHtml, type LoadReport } from './html.js';
import { renderLoadJunit } from './junit.js';
import { EXIT } from '../../errors.js';
import { HARNESS_VERSION } from '../../version.js';

/** The load run's JUnit, beside summary.json: one testcase per scenario threshold. */
export const LOAD_JUNIT = 'load-junit.xml';

export interface LoadOutcome {
  /** The run's id: the run_id tag of every sample, and label of every series in a metrics store. */
  runId: string;
  startedAt: Date;
  target: { base_url: string; embedded_reference: boolean };
  mode: LoadReport['mode'];
  k6: LoadReport['k6'];
  passed: boolean;
  digests: ScenarioDigest[];
  baseline?: { file: string; comparison: Comparison };
}

export function writeLoadReport(reportDir: string, outcome: LoadOutcome): void {
  const report: LoadReport = maskDeep({
    harness_version: HARNESS_VERSION,
    run_id: outcome.runId,
    started_at: outcome.startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    target: outcome.target,
    mode: outcome.mode,
    k6: outcome.k6,
    passed: outcome.passed,
    scenarios: outcome.digests,
    ...(outcome.baseline ? { baseline: outcome.baseline } : {}),
  });
  writeFileSync(join(reportDir, 'summary.json'), JSON.stringify(report, null, 2));
  writeFileSync(join(reportDir, 'report.html'), renderHtml(report));
  writeFileSync(join(reportDir, LOAD_JUNIT), renderLoadJunit(report));
}

/**
 * The exit code of a load verdict: 0 passed; 99 (k6's) when a threshold failed; 1 when no
 * threshold failed but the run did not pass (a scenario that could not complete, a figure
 * regressed past the baseline).
 */
export function loadExitCode(passed: boolean, digests: readonly ScenarioDigest[]): number {
  if (passed) return EXIT.passed;
  const thresholdFailed = digests.some((d) => d.thresholds.some((t) => !t.ok) || d.exitCode === EXIT.thresholdsFailed);
  return thresholdFailed ? EXIT.thresholdsFailed : EXIT.mustFailed;
}

export function logVerdicts(
  reportDir: string,
  digests: readonly ScenarioDigest[],
  comparison: Comparison | undefined,
): void {
  log('');
  for (const d of digests) {
    const why = d.skipped ?? d.error ?? (d.passed ? undefined : failureReasons(d).join('; '));
    log(`${d.passed ? 'passed ' : d.skipped ? 'skipped' : 'FAILED '} ${d.scenario}${why ? `: ${why}` : ''}`);
  }
  if (comparison) {
    for (const row of comparison.rows.filter((r) => r.regression)) {
      log(`REGRESSION ${row.scenario} ${row.figure}: ${row.baseline.toFixed(2)} -> ${row.current.toFixed(2)}`);
    }
    log(
      `baseline: ${comparison.regressions} regression(s) beyond ${(comparison.tolerance * 100).toFixed(0)} % in ${comparison.rows.length} figures`,
    );
  }
  log(`reports: ${join(reportDir, 'summary.json')}, ${join(reportDir, 'report.html')}, ${join(reportDir, LOAD_JUNIT)}`);
}

/**
 * Why a scenario that ran failed: each failed threshold with the figure it judged, when the
 * digest has it (a receiver-side threshold of fan-out is printed nowhere else), or k6's exit.
 */
export function failureReasons(digest: ScenarioDigest): string[] {
  const failed = digest.thresholds.filter((t) => !t.ok);
  if (failed.length === 0) return [`k6 exited ${digest.exitCode ?? 'without an exit code'}`];
  return failed.map((t) => {
    const stat = judgedStat(t.expression);
    const figure = stat === undefined ? undefined : digest.figures[`${t.metric} ${stat}`];
    if (figure) return `${t.metric} ${t.expression} (${stat} ${formatFigure(figure)})`;
    return `${t.metric} ${t.expression}${t.observed !== undefined ? ` (${stat} ${formatObserved(t.observed)})` : ''}`;
  });
}
