/**
 * JUnit XML: one testcase per check id, so CI systems keep a history per check; one
 * testsuite per area. It conforms to the JUnit schema Jenkins validates with
 * (fixtures/schemas/junit-10.xsd, checked with xmllint in the tests): a testcase holds no
 * <properties> there, so a check's level, verdict and clause go into its <system-out>,
 * and <testsuites> carries no `skipped`. All text goes through escapeXml, which also
 * removes what XML 1.0 forbids.
 *
 * Leftovers of an incomplete clean-up are one more testcase, `clean-up`, with an <error>
 * (a problem of the run, not a check's verdict) listing each with the call that removes
 * it, so a CI system shows the run as not clean, as its exit code 3 does.
 */
import { escapeXml } from './escape.js';
import type { RunReport } from './model.js';

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

export function renderJunit(report: RunReport): string {
  const byArea = new Map<string, RunReport['checks']>();
  for (const check of report.checks) byArea.set(check.area, [...(byArea.get(check.area) ?? []), check]);
  const suites = [...byArea].map(([area, checks], index) => {
    const failures = checks.filter((check) => check.verdict === 'fail').length;
    const skipped = checks.filter((check) => check.verdict === 'skip').length;
    const erred = checks.filter((check) => check.verdict === 'error').length;
    const time = checks.reduce((sum, check) => sum + check.duration_ms, 0);
    const cases = checks.map((check) => {
      const open = `    <testcase classname="${escapeXml(`certify.${area}`)}" name="${escapeXml(`${check.id} ${check.title}`)}" time="${seconds(check.duration_ms)}">`;
      const detail = escapeXml(check.detail ?? '');
      const about = `level ${check.level}, verdict ${check.verdict}${check.verdict === 'warn' ? ' (WARN)' : ''}; clause: ${check.clause}`;
      const out = `      <system-out>${escapeXml(about)}${detail ? `\n${detail}` : ''}</system-out>`;
      let outcome = '';
      if (check.verdict === 'fail') outcome = `      <failure message="${detail}" type="${check.level}">${detail}</failure>`;
      else if (check.verdict === 'skip') outcome = `      <skipped message="${detail}"/>`;
      else if (check.verdict === 'error') outcome = `      <error message="${detail}" type="no-answer">${detail}</error>`;
      return [open, outcome, out, '    </testcase>'].filter(Boolean).join('\n');
    });
    const attributes = `name="${escapeXml(area)}" tests="${checks.length}" failures="${failures}" errors="${erred}" skipped="${skipped}" time="${seconds(time)}" timestamp="${escapeXml(report.started_at)}" id="${index}" package="certify"`;
    return `  <testsuite ${attributes}>\n${cases.join('\n')}\n  </testsuite>`;
  });
  const leftovers = report.leftovers ?? [];
  if (leftovers.length > 0) {
    const message = escapeXml(`clean-up incomplete: ${leftovers.length} resources left on the target`);
    const list = escapeXml(leftovers.map((leftover) => `${leftover.kind} ${leftover.id}: ${leftover.remove_with}`).join('\n'));
    suites.push(
      `  <testsuite name="clean-up" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="${escapeXml(report.finished_at)}" id="${suites.length}" package="certify">\n` +
        `    <testcase classname="certify.clean-up" name="clean-up" time="0.000">\n      <error message="${message}" type="clean-up-incomplete">${list}</error>\n    </testcase>\n  </testsuite>`,
    );
  }
  const { summary } = report;
  const total = report.checks.length + (leftovers.length > 0 ? 1 : 0);
  const errors = (leftovers.length > 0 ? 1 : 0) + report.checks.filter((check) => check.verdict === 'error').length;
  const time = Date.parse(report.finished_at) - Date.parse(report.started_at);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="certify" tests="${total}" failures="${summary.fail}" errors="${errors}" time="${seconds(Math.max(0, time || 0))}">\n${suites.join('\n')}\n</testsuites>\n`;
}
