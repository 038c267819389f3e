import { describe, expect, it } from 'vitest';
import { reportSchemaProblems } from '../../src/report/validate.js';
import { fixtureReport } from './fixture.js';

describe('schemas/report.schema.json', () => {
  it('accepts a report with every kind of check', () => {
    expect(reportSchemaProblems(fixtureReport())).toEqual([]);
  });

  it('accepts the contract example with fields it does not name', () => {
    const report = { ...fixtureReport(), extra: { any: 1 }, checks: [{ ...fixtureReport().checks[0]!, note: 'kept' }] };
    expect(reportSchemaProblems(report)).toEqual([]);
  });

  it.each([
    ['a verdict outside the four', (r: Record<string, any>) => (r.checks[0].verdict = 'passed'), /verdict/],
    ['a lower-case id', (r: Record<string, any>) => (r.checks[0].id = 'auth-revoke'), /\/checks\/0\/id/],
    ['no summary', (r: Record<string, any>) => delete r.summary, /summary/],
    ['a start time that is not ISO 8601', (r: Record<string, any>) => (r.started_at = 'yesterday'), /started_at/],
    ['a negative count', (r: Record<string, any>) => (r.summary.fail = -1), /summary\/fail/],
  ])('refuses %s', (_name, breakIt, where) => {
    const report = structuredClone(fixtureReport()) as unknown as Record<string, any>;
    breakIt(report);
    const problems = reportSchemaProblems(report);
    expect(problems.join('\n')).toMatch(where);
  });
});
