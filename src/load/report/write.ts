/** The end of a load run: summary.json and report.html in the report folder, and the verdicts on stderr. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { maskDeep } from '../../secrets/mask.js';
import type { Comparison } from './baseline.js';
import { log } from '../log.js';
import type { ScenarioDigest } from './digest.js';
import { formatFigure, renderHtml, type LoadReport } from './html.js';
import { HARNESS_VERSION } from '../../version.js';


export interface LoadOutcome {
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
}

export function logVerdicts(reportDir: string, digests: readonly ScenarioDigest[], comparison: Comparison | undefined): void {
  log('');
  for (const d of digests) {
    const why = d.skipped ?? d.error ?? (d.passed ? undefined : failureReasons(d).join('; '));
    log(`${d.passed ? 'passed ' : d.skipped ? 'skipped' : 'FAILED '} ${d.scenario}${why ? `: ${why}` : ''}`);
  }
  if (comparison) {
    for (const row of comparison.rows.filter((r) => r.regression)) {
      log(`REGRESSION ${row.scenario} ${row.figure}: ${row.baseline.toFixed(2)} -> ${row.current.toFixed(2)}`);
    }
    log(`baseline: ${comparison.regressions} regression(s) beyond ${(comparison.tolerance * 100).toFixed(0)} % in ${comparison.rows.length} figures`);
  }
  log(`reports: ${join(reportDir, 'summary.json')}, ${join(reportDir, 'report.html')}`);
}

/**
 * Why a scenario that ran failed: each failed threshold with the figure it judged, when the
 * digest has it (a receiver-side threshold of fan-out is printed nowhere else), or k6's exit.
 */
export function failureReasons(digest: ScenarioDigest): string[] {
  const failed = digest.thresholds.filter((t) => !t.ok);
  if (failed.length === 0) return [`k6 exited ${digest.exitCode ?? 'without an exit code'}`];
  return failed.map((t) => {
    const stat = /^[a-z]+(\(\d+(\.\d+)?\))?/.exec(t.expression)?.[0];
    const figure = stat === undefined ? undefined : digest.figures[`${t.metric} ${stat}`];
    return `${t.metric} ${t.expression}${figure ? ` (${stat} ${formatFigure(figure)})` : ''}`;
  });
}
