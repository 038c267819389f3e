/**
 * How each report shows a check of the expected-failures file (src/expected/mark.ts).
 *
 * JUnit: a failure the file excuses is `<skipped type="expected-failure" message="expected
 * failure: <reason>">`, its detail as the element's text. CI systems read a skipped case as
 * neither red nor green and list it by its message (GitHub check annotations, GitLab's test
 * report, Jenkins' "skipped" count), which is what an excused failure is; a `<failure>` would
 * turn the job red whatever its exit code, and a property alone is not shown by most of them.
 * pytest writes its xfail the same way (`<skipped type="pytest.xfail">`). An expected failure
 * that passes under --strict is a `<failure type="expected-failure-fixed">`; without --strict
 * it stays a passing case with a line in its system-out. An expired entry's failure is an
 * ordinary `<failure>` whose message says the entry expired.
 */
import { escapeMarkdownCell } from '../report/escape.js';
import type { JunitOutcome } from '../report/junit.js';
import { statusText, type ExpectedFailureMark } from './mark.js';

interface ListedCheck {
  id: string;
  verdict: string;
  level: string;
  detail?: string | undefined;
  expected_failure?: ExpectedFailureMark | undefined;
}

interface ListedReport {
  checks: readonly ListedCheck[];
  expected_failures?: { file: string; strict: boolean } | undefined;
}

/** The testcase's verdict for a listed check, and a line for its system-out; undefined for a check not listed. */
export function expectedJunitOutcome(
  check: ListedCheck,
  run: ListedReport['expected_failures'],
): { outcome: JunitOutcome | undefined; line: string } | undefined {
  const mark = check.expected_failure;
  if (mark === undefined || run === undefined) return undefined;
  const line = statusText(mark, run.strict);
  const detail = check.detail ?? '';
  if (mark.status === 'still-failing' && check.verdict === 'fail')
    return {
      outcome: { kind: 'skipped', type: 'expected-failure', message: line, ...(detail ? { body: detail } : {}) },
      line,
    };
  if (mark.status === 'fixed' && run.strict)
    return {
      outcome: {
        kind: 'failure',
        type: 'expected-failure-fixed',
        message: `${check.id} ${line}`,
        body: `remove ${check.id} from ${run.file}`,
      },
      line,
    };
  if (check.verdict === 'fail')
    return {
      outcome: {
        kind: 'failure',
        type: check.level,
        message: mark.status === 'expired' ? `${line}; ${detail}` : detail,
      },
      line,
    };
  if (check.verdict === 'skip') return { outcome: { kind: 'skipped', message: detail }, line };
  if (check.verdict === 'error') return { outcome: { kind: 'error', type: 'no-answer', message: detail }, line };
  return { outcome: undefined, line };
}

/** report.md's section about the list: one line per listed check of the run; empty without a file. */
export function expectedMarkdownLines(report: ListedReport): string[] {
  const run = report.expected_failures;
  if (run === undefined) return [];
  const listed = report.checks.filter((check) => check.expected_failure !== undefined);
  const lines = [
    '## Expected failures',
    '',
    `From \`${escapeMarkdownCell(run.file)}\`${run.strict ? ' (strict: one that passes fails the run)' : ''}.`,
    '',
  ];
  if (listed.length === 0) lines.push('None of the listed checks ran.');
  for (const check of listed)
    lines.push(
      `- **${check.id}** (${check.verdict}): ${escapeMarkdownCell(statusText(check.expected_failure!, run.strict))}`,
    );
  return [...lines, ''];
}

/** The verdict cell's text: "FAIL (expected)", "PASS (fixed: remove from list)", or the verdict. */
export function verdictLabel(check: ListedCheck): string {
  const verdict = check.verdict.toUpperCase();
  switch (check.expected_failure?.status) {
    case 'still-failing':
      return `${verdict} (expected)`;
    case 'fixed':
      return `${verdict} (fixed: remove from list)`;
    case 'expired':
      return `${verdict} (expected, expired)`;
    default:
      return verdict;
  }
}
