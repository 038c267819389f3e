/** A run whose clean-up left resources: its verdict, and how every report lists them. */
import { describe, expect, it } from 'vitest';
import { removalPath } from '../../src/control/client.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { runVerdict, type RunReport } from '../../src/report/model.js';
import { reportSchemaProblems } from '../../src/report/validate.js';
import { hasXmllint, junitSchemaProblems } from '../support/xmllint.js';
import { fixtureReport } from './fixture.js';

const LEFTOVERS: NonNullable<RunReport['leftovers']> = [
  { kind: 'endpoint', id: 'we_1', workspace_id: 'ws_a', remove_with: 'DELETE /workspaces/ws_a/webhook-endpoints/we_1' },
  { kind: 'token', id: 'tok_y', workspace_id: 'ws_a', remove_with: 'DELETE /workspaces/ws_a/tokens/tok_y' },
  { kind: 'workspace', id: 'ws_a', workspace_id: 'ws_a', remove_with: 'DELETE /workspaces/ws_a' },
];

/** The fixture without its failed `must` checks, so only the leftovers stand between it and a pass. */
function passingWithLeftovers(): RunReport {
  const base = fixtureReport();
  const checks = base.checks.filter((check) => !(check.level === 'must' && check.verdict === 'fail'));
  return { ...base, checks, summary: { ...base.summary, fail: 0 }, leftovers: LEFTOVERS };
}

describe('leftovers of an incomplete clean-up', () => {
  it('name the control call that removes each', () => {
    expect(removalPath({ kind: 'workspace', workspaceId: 'ws_a' })).toBe('/workspaces/ws_a');
    expect(removalPath({ kind: 'token', workspaceId: 'ws_a', tokenId: 'tok_y' })).toBe('/workspaces/ws_a/tokens/tok_y');
    expect(removalPath({ kind: 'endpoint', workspaceId: 'ws_a', endpointId: 'we_1' })).toBe(
      '/workspaces/ws_a/webhook-endpoints/we_1',
    );
  });

  it('make the verdict CLEAN-UP-INCOMPLETE only when nothing weighs more', () => {
    const report = passingWithLeftovers();
    expect(runVerdict(report)).toBe('CLEAN-UP-INCOMPLETE');
    expect(runVerdict({ ...report, leftovers: [] })).toBe('PASSED');
    expect(runVerdict({ ...fixtureReport(), leftovers: LEFTOVERS })).toBe('FAILED');
    expect(runVerdict({ ...report, interrupted: true })).toBe('INTERRUPTED');
  });

  it('conform to the published report schema', () => {
    expect(reportSchemaProblems(passingWithLeftovers())).toEqual([]);
    expect(
      reportSchemaProblems({ ...passingWithLeftovers(), leftovers: [{ kind: 'workspace', id: 'ws_a' }] }),
    ).not.toEqual([]);
  });

  it.each([
    ['report.md', renderMarkdown],
    ['report.html', (report: RunReport) => renderHtml(report)],
    ['junit.xml', renderJunit],
  ] as const)('are listed in %s with their calls, under the verdict', (_name, render) => {
    const text = render(passingWithLeftovers());
    for (const leftover of LEFTOVERS) expect(text).toContain(leftover.remove_with);
    expect(text).toMatch(/clean-up incomplete/i);
    expect(render(fixtureReport())).not.toMatch(/clean-up incomplete/i);
  });

  it.skipIf(!hasXmllint)('leave junit.xml valid against the JUnit schema, with the clean-up as an error', () => {
    const xml = renderJunit(passingWithLeftovers());
    expect(junitSchemaProblems(xml)).toEqual([]);
    expect(xml).toMatch(/<testsuites [^>]*errors="1"/);
  });
});
