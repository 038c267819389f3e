/**
 * The load report as one self-contained HTML page (no script, no external asset): per
 * scenario its verdict, k6's thresholds with their results, its figures; then the baseline
 * comparison when there is one. It renders the report it is given and judges nothing.
 */
import { escapeXml } from '../../report/escape.js';
import type { Comparison } from './baseline.js';
import type { Figure, ScenarioDigest } from './digest.js';

export interface LoadReport {
  harness_version: string;
  /** The run's id: the run_id tag of its samples and label of its series in a metrics store. */
  run_id: string;
  started_at: string;
  finished_at: string;
  target: { base_url: string; embedded_reference: boolean };
  mode: 'smoke' | 'default';
  k6: { version: string; path_source: string };
  passed: boolean;
  scenarios: ScenarioDigest[];
  baseline?: { file: string; comparison: Comparison };
}

export function formatFigure(figure: Pick<Figure, 'value' | 'unit'>): string {
  const { value, unit } = figure;
  if (unit === 'ratio') return `${(value * 100).toFixed(2)} %`;
  if (unit === 'ms') return `${value.toFixed(1)} ms`;
  if (unit === '/s') return `${value.toFixed(1)} /s`;
  return String(Math.round(value));
}

/** A judged figure without a unit: whole numbers as they are, others to six significant digits. */
export function formatObserved(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

function verdict(digest: ScenarioDigest): string {
  if (digest.skipped) return '<span class="skip">skipped</span>';
  if (digest.error) return '<span class="fail">could not run</span>';
  return digest.passed
    ? '<span class="pass">passed</span>'
    : `<span class="fail">failed</span> (k6 exit ${digest.exitCode ?? 'none'})`;
}

function scenarioSection(digest: ScenarioDigest): string {
  const head = `<h2>${escapeXml(digest.scenario)}: ${verdict(digest)}</h2>`;
  const reason = digest.skipped ?? digest.error;
  if (reason) return `<section>${head}<p>${escapeXml(reason)}</p></section>`;
  const thresholds = digest.thresholds
    .map(
      (t) =>
        `<tr><td>${escapeXml(t.metric)}</td><td><code>${escapeXml(t.expression)}</code></td><td class="num">${t.observed === undefined ? '' : escapeXml(formatObserved(t.observed))}</td><td>${t.ok ? '<span class="pass">ok</span>' : '<span class="fail">failed</span>'}</td></tr>`,
    )
    .join('');
  const figures = Object.entries(digest.figures)
    .map(
      ([name, figure]) =>
        `<tr><td>${escapeXml(name)}</td><td class="num">${escapeXml(formatFigure(figure))}</td><td>${figure.better} is better</td></tr>`,
    )
    .join('');
  const dashboard = digest.dashboard ? ` · <a href="${escapeXml(digest.dashboard)}">k6 web dashboard report</a>` : '';
  const segments = digest.segments
    ? ` · one verdict from the samples of ${digest.segments} k6 processes (execution segments)`
    : '';
  return `<section>${head}<p>duration ${(digest.durationMs / 1000).toFixed(1)} s${segments}${dashboard}</p>
<h3>Thresholds</h3><table><tr><th>metric</th><th>threshold</th><th>judged</th><th>result</th></tr>${thresholds}</table>
<h3>Figures</h3><table><tr><th>figure</th><th>value</th><th></th></tr>${figures}</table></section>`;
}

function comparisonSection(baseline: NonNullable<LoadReport['baseline']>): string {
  const { comparison } = baseline;
  const rows = comparison.rows
    .map((row) => {
      const change = row.change === null ? 'n/a' : `${row.change >= 0 ? '+' : ''}${(row.change * 100).toFixed(1)} %`;
      return `<tr class="${row.regression ? 'regression' : ''}"><td>${escapeXml(row.scenario)}</td><td>${escapeXml(row.figure)}</td><td class="num">${escapeXml(formatFigure({ value: row.baseline, unit: row.unit }))}</td><td class="num">${escapeXml(formatFigure({ value: row.current, unit: row.unit }))}</td><td class="num">${change}</td><td>${row.regression ? '<span class="fail">regression</span>' : 'ok'}</td></tr>`;
    })
    .join('');
  return `<section><h2>Against the baseline: ${comparison.regressions} regression(s)</h2>
<p>baseline <code>${escapeXml(baseline.file)}</code>, tolerance ${(comparison.tolerance * 100).toFixed(0)} %</p>
<table><tr><th>scenario</th><th>figure</th><th>baseline</th><th>now</th><th>change</th><th></th></tr>${rows}</table></section>`;
}

export function renderHtml(report: LoadReport): string {
  const style = `body{font-family:system-ui,sans-serif;margin:2rem;max-width:72rem}table{border-collapse:collapse;margin:.5rem 0 1rem}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:#137333;font-weight:600}.fail{color:#b3261e;font-weight:600}.skip{color:#8a6d00;font-weight:600}tr.regression{background:#fde7e7}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Load report</title><style>${style}</style></head><body>
<h1>Load report: ${report.passed ? '<span class="pass">passed</span>' : '<span class="fail">failed</span>'}</h1>
<p>target ${escapeXml(report.target.base_url)}${report.target.embedded_reference ? ' (embedded reference)' : ''}; mode ${report.mode};
k6 ${escapeXml(report.k6.version)}; run ${escapeXml(report.run_id)}; ${escapeXml(report.started_at)} to ${escapeXml(report.finished_at)}; harness ${escapeXml(report.harness_version)}</p>
${report.scenarios.map(scenarioSection).join('\n')}
${report.baseline ? comparisonSection(report.baseline) : ''}
</body></html>
`;
}
