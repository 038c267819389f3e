/** JUnit XML: one testcase per check id, so CI systems keep a history per check. */
import { escapeXml } from './escape.js';
import type { RunReport } from './model.js';

export function renderJunit(report: RunReport): string {
  const byArea = new Map<string, RunReport['checks']>();
  for (const check of report.checks) byArea.set(check.area, [...(byArea.get(check.area) ?? []), check]);
  const suites = [...byArea].map(([area, checks]) => {
    const failures = checks.filter((check) => check.verdict === 'fail').length;
    const skipped = checks.filter((check) => check.verdict === 'skip').length;
    const time = checks.reduce((sum, check) => sum + check.duration_ms, 0) / 1000;
    const cases = checks.map((check) => {
      const name = escapeXml(`${check.id} ${check.title}`);
      const open = `    <testcase classname="${escapeXml(`certify.${area}`)}" name="${name}" time="${(check.duration_ms / 1000).toFixed(3)}">`;
      const detail = escapeXml(check.detail ?? '');
      const props = `      <properties><property name="level" value="${check.level}"/><property name="clause" value="${escapeXml(check.clause)}"/><property name="verdict" value="${check.verdict}"/></properties>`;
      let outcome = '';
      if (check.verdict === 'fail') outcome = `      <failure message="${detail}" type="${check.level}">${detail}</failure>`;
      else if (check.verdict === 'skip') outcome = `      <skipped message="${detail}"/>`;
      else if (detail) outcome = `      <system-out>${check.verdict === 'warn' ? 'WARN: ' : ''}${detail}</system-out>`;
      return [open, props, outcome, '    </testcase>'].filter(Boolean).join('\n');
    });
    return `  <testsuite name="${escapeXml(area)}" tests="${checks.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const { summary } = report;
  const total = report.checks.length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="certify" tests="${total}" failures="${summary.fail}" skipped="${summary.skip}">\n${suites.join('\n')}\n</testsuites>\n`;
}
