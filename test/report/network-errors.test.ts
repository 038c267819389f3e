/** A run where the network kept answers away: the `error` verdict, the run's verdict and every writer. */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { runVerdict, summarize, type CheckResult, type RunReport } from '../../src/report/model.js';
import { reportSchemaProblems } from '../../src/report/validate.js';
import { hasXmllint, junitSchemaProblems } from '../support/xmllint.js';
import { fixtureReport } from './fixture.js';

const ERRED: CheckResult = {
  id: 'TENANT-AGENTS',
  title: 'Agents listed are the workspace own',
  clause: 'What the service does, 2',
  level: 'must',
  verdict: 'error',
  duration_ms: 4_200,
  area: 'isolation',
  detail: 'no verdict: GET /v1/voice/agents: other side closed (sent 4 times); the network kept the answer away',
  measurements: { network: { requests: 4, rate_limited: 0, waited_ms: 1_750, resent: 3, unanswered: 1 } },
};
const NETWORK = { requests: 2_400, rate_limited: 37, waited_ms: 9_100, resent: 41, unanswered: 1 };

/** The fixture without its failures, plus one must check in error. */
function erredRun(): RunReport {
  const base = fixtureReport();
  const checks = [...base.checks.filter((check) => check.verdict !== 'fail'), ERRED];
  return { ...base, checks, summary: summarize(checks), network: NETWORK };
}

describe('a must check in error', () => {
  it('makes the run ERROR (exit 2) when no must failed, and FAILED when one did', () => {
    expect(runVerdict(erredRun())).toBe('ERROR');
    const failedToo = { ...fixtureReport(), checks: [...fixtureReport().checks, ERRED] };
    expect(runVerdict(failedToo)).toBe('FAILED');
  });

  it('changes nothing at should level: the run passes', () => {
    const checks = erredRun().checks.map((check) =>
      check.id === ERRED.id ? { ...check, level: 'should' as const } : check,
    );
    expect(runVerdict({ ...erredRun(), checks })).toBe('PASSED');
  });

  it('is counted in the summary and conforms to the published schema, with the network section', () => {
    expect(erredRun().summary).toMatchObject({ error: 1, fail: 0 });
    expect(reportSchemaProblems(erredRun())).toEqual([]);
    expect(reportSchemaProblems({ ...erredRun(), network: { requests: -1 } })).not.toEqual([]);
  });

  it('is a JUnit <error>, never a <failure>', () => {
    const xml = renderJunit(erredRun());
    expect(xml).toMatch(
      /<testcase [^>]*name="TENANT-AGENTS[^"]*"[^>]*>\s*<error message="no verdict: GET \/v1\/voice\/agents[^"]*" type="no-answer">/,
    );
    expect(xml).toMatch(/<testsuites [^>]*failures="0" errors="1"/);
  });

  it.skipIf(!hasXmllint)('leaves junit.xml valid against the JUnit schema', () => {
    expect(junitSchemaProblems(renderJunit(erredRun()))).toEqual([]);
  });

  it.each([
    ['report.md', renderMarkdown],
    ['report.html', (report: RunReport) => renderHtml(report)],
  ] as const)('is shown in %s with its reason, and the network cost of the run', (_name, render) => {
    const text = render(erredRun());
    expect(text).toContain('ERROR');
    expect(text).toContain('other side closed');
    expect(text).toMatch(/37 answered 429/);
  });
});
