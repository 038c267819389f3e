/** The end of a load run: summary.json and report.html in the report folder, and the verdicts on stderr. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { maskDeep } from '../secrets/mask.js';
import type { Comparison } from './baseline.js';
import { log } from './context.js';
import type { ScenarioDigest } from './digest.js';
import { renderHtml, type LoadReport } from './html.js';
import { HARNESS_VERSION } from '../version.js';


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
  for (const d of digests) log(`${d.passed ? 'passed ' : d.skipped ? 'skipped' : 'FAILED '} ${d.scenario}${d.skipped ?? d.error ? `: ${d.skipped ?? d.error}` : ''}`);
  if (comparison) {
    for (const row of comparison.rows.filter((r) => r.regression)) {
      log(`REGRESSION ${row.scenario} ${row.figure}: ${row.baseline.toFixed(2)} -> ${row.current.toFixed(2)}`);
    }
    log(`baseline: ${comparison.regressions} regression(s) beyond ${(comparison.tolerance * 100).toFixed(0)} % in ${comparison.rows.length} figures`);
  }
  log(`reports: ${join(reportDir, 'summary.json')}, ${join(reportDir, 'report.html')}`);
}
