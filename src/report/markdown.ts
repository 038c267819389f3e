/** report.md: the verdict first, then failures, then every check in a table; all text through escapeMarkdownCell. */
import { escapeMarkdownCell } from './escape.js';
import { evidenceOf, exchangeSummary, judgedExchange } from './evidence.js';
import { coverageLine } from './coverage.js';
import { runVerdict, type RunReport } from './model.js';
import { provenanceLine } from './provenance.js';
import { partialLine } from './selection.js';
import { excusedFailure } from '../expected/mark.js';
import { expectedMarkdownLines, verdictLabel } from '../expected/writers.js';

export function controlText(control: NonNullable<RunReport['control']>): string {
  return control.kind === 'adapter'
    ? `adapter ${control.adapter ?? ''}`
    : control.kind === 'interface'
      ? 'control interface (HTTP)'
      : 'none (checks that need one are skipped)';
}

/** What the network cost a run, in one line. */
export function networkText(network: NonNullable<RunReport['network']>): string {
  return `${network.requests} API requests (and ${network.control_requests ?? 0} to the control interface), ${network.rate_limited} answered 429, ${(network.waited_ms / 1000).toFixed(1)} s waited for limits and back-off (summed over checks running at once), ${network.resent} resent, ${network.unanswered} unanswered`;
}

/** The run's verdict as titles state it: "PASSED (partial run)" when it did not select its whole tier. */
export function verdictTitle(report: RunReport): string {
  return `${runVerdict(report)}${report.partial ? ' (partial run)' : ''}`;
}

/** The lines every human report shows about how much of the tier was selected and what ran: partial run, provenance. */
export function aboutRunLines(report: RunReport): string[] {
  const partial = report.selection && partialLine(report.selection);
  return [
    ...(partial ? [`Partial run: ${partial.replace(/^partial run: /, '')}`] : []),
    ...(report.provenance ? [`Provenance: ${provenanceLine(report.provenance)}`] : []),
  ];
}

export function renderMarkdown(report: RunReport): string {
  const { summary } = report;
  const lines = [
    `# Certification report: ${verdictTitle(report)}`,
    '',
    `- Target: ${escapeMarkdownCell(report.target.base_url)}${report.target.embedded_reference ? ' (embedded reference implementation)' : ''}`,
    `- Tier: ${report.tier}; harness ${report.harness_version}`,
    ...(report.control ? [`- Control: ${controlText(report.control)}`] : []),
    `- Run: ${report.started_at} to ${report.finished_at}${report.seed !== undefined ? `, seed ${report.seed}` : ''}`,
    ...aboutRunLines(report).map((line) => `- ${escapeMarkdownCell(line)}`),
    `- Summary: ${summary.pass} pass, ${summary.fail} fail, ${summary.warn} warn, ${summary.skip} skip, ${summary.error ?? 0} error`,
    ...(report.network ? [`- Network: ${networkText(report.network)}`] : []),
    ...(report.coverage ? [`- Coverage: ${coverageLine(report.coverage)}`] : []),
    '',
  ];
  if (report.coverage && report.coverage.missing.length > 0) {
    lines.push('## Must checks that did not run', '');
    for (const group of report.coverage.missing)
      lines.push(`- ${escapeMarkdownCell(group.reason)}: ${group.checks.join(', ')}`);
    lines.push('');
  }
  lines.push(...expectedMarkdownLines(report));
  const problems = report.checks.filter(
    (check) =>
      (check.verdict === 'fail' || check.verdict === 'warn' || check.verdict === 'error') && !excusedFailure(check),
  );
  if (problems.length > 0) {
    lines.push('## Failures, warnings and errors', '');
    for (const check of problems) {
      const [title, detail, clause] = [check.title, check.detail ?? '', check.clause].map(escapeMarkdownCell);
      lines.push(`- **${check.id}** (${check.level}, ${check.verdict}): ${title}. ${detail}`, `  - Clause: ${clause}`);
      const rerun = check.measurements?.rerun;
      if (typeof rerun === 'string') lines.push(`  - Re-run it alone: \`${escapeMarkdownCell(rerun)}\``);
      const judged = judgedExchange(check);
      const last = evidenceOf(check).at(-1);
      if (judged)
        lines.push(
          `  - Judged exchange: \`${escapeMarkdownCell(exchangeSummary(judged))}\` (the answer the failing assertion judged; the recent exchanges in report.html and report.json)`,
        );
      else if (last)
        lines.push(
          `  - Last exchange: \`${escapeMarkdownCell(exchangeSummary(last))}\` (all of them in report.html and report.json)`,
        );
      const reproduce = (judged ?? last)?.reproduce;
      if (typeof reproduce === 'string') lines.push(`  - Reproduce with: \`${escapeMarkdownCell(reproduce)}\``);
    }
    lines.push('');
  }
  if (report.leftovers?.length) {
    lines.push(
      '## Clean-up incomplete',
      '',
      'The run could not remove these from the target; each is removed by the control call shown.',
      '',
    );
    for (const leftover of report.leftovers)
      lines.push(
        `- ${leftover.kind} ${escapeMarkdownCell(leftover.id)}: \`${escapeMarkdownCell(leftover.remove_with)}\``,
      );
    lines.push('');
  }
  lines.push(
    '## All checks',
    '',
    '| Verdict | Id | Level | Title | Clause | ms | Detail |',
    '|---|---|---|---|---|---:|---|',
  );
  for (const check of report.checks) {
    const cells = [
      verdictLabel(check),
      check.id,
      check.level,
      check.title,
      check.clause,
      String(Math.round(check.duration_ms)),
      check.detail ?? '',
    ];
    lines.push(`| ${cells.map(escapeMarkdownCell).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}
