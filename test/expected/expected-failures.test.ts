/**
 * Known failures, declared (src/expected/): the file is checked at the start (an unknown id,
 * a typo, a bad day: a settings error), and each listed check of a run is marked: a failure
 * as expected does not fail the run, one that passes is "fixed" (and fails the run under
 * --strict), an expired entry excuses nothing. Every writer shows the mark.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS, RECEIVER_CHECKS } from '../../src/catalog/checks.js';
import { SettingsError } from '../../src/errors.js';
import { parseExpectedFailures, type ExpectedFailure } from '../../src/expected/file.js';
import { expectedFailureLines } from '../../src/expected/mark.js';
import { withExpectedFailures } from '../../src/expected/run.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { runVerdict, type RunReport } from '../../src/report/model.js';
import { reportSchemaProblems } from '../../src/report/validate.js';
import { fixtureReport } from '../report/fixture.js';
import { hasXmllint, junitSchemaProblems } from '../support/xmllint.js';

const SERVICE_IDS = new Set(CHECKS.map((check) => check.id));
const RECEIVER = { ids: new Set(RECEIVER_CHECKS.map((check) => check.id)), command: 'svc-harness certify receiver' };
const NOW = new Date('2026-11-27T12:00:00Z');

const parse = (text: string) => parseExpectedFailures(text, 'expected.yaml', SERVICE_IDS, RECEIVER);

/** The fixture fails two must checks (HOOK-RETRY-EARLY-SCHEDULE, AUTH-UNKNOWN-TOKEN) and passes TOKEN-LIMIT-TWO. */
function run(entries: ExpectedFailure[], strict = false): RunReport {
  return withExpectedFailures(fixtureReport(), { entries, run: { file: 'expected.yaml', strict } }, NOW);
}

const BOTH_FAILURES: ExpectedFailure[] = [
  { id: 'HOOK-RETRY-EARLY-SCHEDULE', reason: 'retries every minute until PLAT-812' },
  { id: 'AUTH-UNKNOWN-TOKEN', reason: 'the gateway answers unknown tokens, PLAT-900', expires: '2026-12-31' },
];

describe('the expected-failures file', () => {
  it('reads YAML and JSON alike', () => {
    const yaml = parse(
      'expected_failures:\n  - id: AUTH-UNKNOWN-TOKEN\n    reason: PLAT-900\n    expires: 2026-12-31\n',
    );
    const json = parse(
      JSON.stringify({ expected_failures: [{ id: 'AUTH-UNKNOWN-TOKEN', reason: 'PLAT-900', expires: '2026-12-31' }] }),
    );
    expect(yaml).toEqual([{ id: 'AUTH-UNKNOWN-TOKEN', reason: 'PLAT-900', expires: '2026-12-31' }]);
    expect(json).toEqual(yaml);
  });

  it('refuses an unknown check id, naming it', () => {
    expect(() => parse('expected_failures:\n  - { id: AUTH-NO-SUCH-CHECK, reason: typo }\n')).toThrow(SettingsError);
    expect(() => parse('expected_failures:\n  - { id: AUTH-NO-SUCH-CHECK, reason: typo }\n')).toThrow(
      /unknown check id AUTH-NO-SUCH-CHECK/,
    );
  });

  it("refuses the other command's check, saying whose it is", () => {
    expect(() => parse('expected_failures:\n  - { id: RCV-ACCEPT-RAW-BODIES, reason: x }\n')).toThrow(
      /svc-harness certify receiver/,
    );
  });

  it('refuses an entry without a reason, a day that is not one, a duplicate and an unknown field', () => {
    expect(() => parse('expected_failures:\n  - { id: AUTH-UNKNOWN-TOKEN }\n')).toThrow(
      /expected_failures\[0\]\.reason/,
    );
    expect(() => parse('expected_failures:\n  - { id: AUTH-UNKNOWN-TOKEN, reason: x, expires: 31/12/2026 }\n')).toThrow(
      /expires must be a day/,
    );
    expect(() => parse('expected_failures:\n  - { id: AUTH-UNKNOWN-TOKEN, reason: x, expires: 2026-02-30 }\n')).toThrow(
      SettingsError,
    );
    expect(() =>
      parse(
        'expected_failures:\n  - { id: AUTH-UNKNOWN-TOKEN, reason: x }\n  - { id: AUTH-UNKNOWN-TOKEN, reason: y }\n',
      ),
    ).toThrow(/listed twice/);
    expect(() => parse('expected_failures:\n  - { id: AUTH-UNKNOWN-TOKEN, reason: x, owner: me }\n')).toThrow(
      SettingsError,
    );
    expect(() => parse('- AUTH-UNKNOWN-TOKEN\n')).toThrow(SettingsError);
  });
});

describe('a run with expected failures', () => {
  it('without a file: the failures fail the run', () => {
    expect(runVerdict(fixtureReport())).toBe('FAILED');
  });

  it('an expected failure does not fail the run, and is marked as such in report.json', () => {
    const report = run(BOTH_FAILURES);
    expect(runVerdict(report)).toBe('PASSED');
    const marked = report.checks.find((check) => check.id === 'AUTH-UNKNOWN-TOKEN')!;
    expect(marked.verdict).toBe('fail');
    expect(marked.expected_failure).toEqual({
      reason: 'the gateway answers unknown tokens, PLAT-900',
      expires: '2026-12-31',
      status: 'still-failing',
    });
    expect(reportSchemaProblems(report)).toEqual([]);
  });

  it('one expected failure covers its check only: another failure still fails the run', () => {
    expect(runVerdict(run([BOTH_FAILURES[0]!]))).toBe('FAILED');
  });

  it('an expired entry counts as a plain failure', () => {
    const report = run([BOTH_FAILURES[0]!, { ...BOTH_FAILURES[1]!, expires: '2026-11-26' }]);
    expect(report.checks.find((check) => check.id === 'AUTH-UNKNOWN-TOKEN')!.expected_failure?.status).toBe('expired');
    expect(runVerdict(report)).toBe('FAILED');
    // The expiry day itself still excuses.
    expect(runVerdict(run([BOTH_FAILURES[0]!, { ...BOTH_FAILURES[1]!, expires: '2026-11-27' }]))).toBe('PASSED');
  });

  it('an expected failure that passes is "fixed": reported, and fails the run only under --strict', () => {
    const fixed: ExpectedFailure = { id: 'TOKEN-LIMIT-TWO', reason: 'was broken in 1.3' };
    const lenient = run([...BOTH_FAILURES, fixed]);
    expect(lenient.checks.find((check) => check.id === 'TOKEN-LIMIT-TWO')!.expected_failure?.status).toBe('fixed');
    expect(runVerdict(lenient)).toBe('PASSED');
    expect(expectedFailureLines(lenient).join('\n')).toMatch(/fixed: remove them from expected\.yaml: TOKEN-LIMIT-TWO/);
    expect(runVerdict(run([...BOTH_FAILURES, fixed], true))).toBe('FAILED');
  });
});

describe('each report shows the marks', () => {
  const report = run(
    [
      ...BOTH_FAILURES.slice(0, 1),
      { ...BOTH_FAILURES[1]!, expires: '2026-01-01' },
      { id: 'TOKEN-LIMIT-TWO', reason: 'was broken in 1.3' },
    ],
    true,
  );

  it('junit.xml: an expected failure is skipped with its reason, a strict fixed one and an expired one are failures', () => {
    const xml = renderJunit(report);
    expect(xml).toMatch(
      /<testcase classname="certify\.webhook-retry" name="HOOK-RETRY-EARLY-SCHEDULE [^"]*" time="[\d.]+">\n {6}<skipped type="expected-failure" message="expected failure: retries every minute until PLAT-812">/,
    );
    expect(xml).toMatch(
      /name="TOKEN-LIMIT-TWO [^"]*" time="[\d.]+">\n {6}<failure message="TOKEN-LIMIT-TWO listed as an expected failure but passes: fixed, remove it from the list[^"]*" type="expected-failure-fixed">remove TOKEN-LIMIT-TWO from expected\.yaml<\/failure>/,
    );
    expect(xml).toMatch(
      /name="AUTH-UNKNOWN-TOKEN [^"]*" time="[\d.]+">\n {6}<failure message="expected-failure entry expired after 2026-01-01/,
    );
  });

  it.skipIf(!hasXmllint)('junit.xml with expected failures still validates against the JUnit schema (xmllint)', () => {
    expect(junitSchemaProblems(renderJunit(report))).toEqual([]);
  });

  it('report.md: a section of the list, the verdict cell marked, excused failures out of the failures section', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('## Expected failures');
    expect(md).toContain('| FAIL (expected) | HOOK-RETRY-EARLY-SCHEDULE |');
    expect(md).toContain('| PASS (fixed: remove from list) | TOKEN-LIMIT-TWO |');
    const failures = md.slice(md.indexOf('## Failures'), md.indexOf('## All checks'));
    expect(failures).not.toContain('HOOK-RETRY-EARLY-SCHEDULE');
    expect(failures).toContain('AUTH-UNKNOWN-TOKEN');
  });

  it('report.html: the verdict cell and the reason', () => {
    const html = renderHtml(report);
    expect(html).toContain('FAIL (expected)</td>');
    expect(html).toContain(
      '<strong>Expected-failures file:</strong> expected failure: retries every minute until PLAT-812',
    );
  });

  it('the console: a line per status', () => {
    const lines = expectedFailureLines(report);
    expect(lines[0]).toBe('expected failures (expected.yaml):');
    expect(lines).toContain('  still failing, as expected (not failing the run): HOOK-RETRY-EARLY-SCHEDULE');
    expect(lines).toContain('  expired: counted as failures again: AUTH-UNKNOWN-TOKEN');
  });
});
