import { describe, expect, test } from 'vitest';
import { coverageLine, coverageOf, shortfallLine } from '../../src/report/coverage.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { RUN_REPORT, runVerdict, summarize, type CheckResult, type RunReport } from '../../src/report/model.js';

const NO_CONTROL = 'needs a control interface: set SVC_CONTROL_URL and SVC_CONTROL_TOKEN';

const check = (
  id: string,
  level: CheckResult['level'],
  verdict: CheckResult['verdict'],
  detail?: string,
): CheckResult => ({
  id,
  title: id,
  clause: 'c',
  level,
  verdict,
  duration_ms: 1,
  area: 'a',
  ...(detail ? { detail } : {}),
});

const checks = [
  check('M-RAN', 'must', 'pass'),
  check('M-FAILED', 'must', 'fail'),
  check('M-NO-CONTROL-1', 'must', 'skip', NO_CONTROL),
  check('M-NO-CONTROL-2', 'must', 'skip', NO_CONTROL),
  check('M-OTHER', 'must', 'skip', 'the adapter cannot fire events'),
  check('M-FULL-TIER', 'must', 'skip', 'runs only under CERTIFY_TIER=full (real-time waits)'),
  check('S-RAN', 'should', 'warn'),
  check('O-SKIPPED', 'observe', 'skip', NO_CONTROL),
];
const fastTier = (id: string) => id !== 'M-FULL-TIER';

describe('coverage', () => {
  test('counts checks of the tier that ran with a verdict, by level; a fail ran, a skip did not', () => {
    const coverage = coverageOf(checks, fastTier, 0);
    expect(coverage.by_level).toEqual({
      must: { ran: 2, of: 5 },
      should: { ran: 1, of: 1 },
      observe: { ran: 0, of: 1 },
    });
    expect(coverage.must_percent).toBe(40);
    expect(coverageLine(coverage)).toBe('must 2/5 (40%), should 1/1, observe 0/1 of the tier ran');
  });

  test('groups the must checks that did not run by reason, largest group first; the other tier is not owed', () => {
    expect(coverageOf(checks, fastTier, 0).missing).toEqual([
      { reason: NO_CONTROL, checks: ['M-NO-CONTROL-1', 'M-NO-CONTROL-2'] },
      { reason: 'the adapter cannot fire events', checks: ['M-OTHER'] },
    ]);
  });

  test('the minimum is met at or above it, and not below', () => {
    expect(coverageOf(checks, fastTier, 40).met).toBe(true);
    expect(coverageOf(checks, fastTier, 41).met).toBe(false);
    expect(coverageOf([], fastTier, 100)).toMatchObject({ must_percent: 100, met: true });
  });

  test('a shortfall fails the run and says what was missing', () => {
    const passing = checks.filter((entry) => entry.verdict !== 'fail');
    const report: RunReport = {
      harness_version: '0',
      target: { base_url: 'https://s.test', embedded_reference: false },
      started_at: '2026-01-01T00:00:00Z',
      finished_at: '2026-01-01T00:00:01Z',
      summary: summarize(passing),
      checks: passing,
      tier: 'fast',
      coverage: coverageOf(passing, fastTier, 100),
    };
    expect(RUN_REPORT.safeParse(report).success).toBe(true);
    expect(runVerdict(report)).toBe('FAILED');
    expect(runVerdict({ ...report, coverage: coverageOf(passing, fastTier, 0) })).toBe('PASSED');
    expect(shortfallLine(report.coverage!)).toBe(
      `coverage 25% (1 of 4 must checks ran) is below CERTIFY_MIN_COVERAGE 100%; missing: ${NO_CONTROL} (2: M-NO-CONTROL-1, M-NO-CONTROL-2); the adapter cannot fire events (1: M-OTHER)`,
    );
    const markdown = renderMarkdown(report);
    expect(markdown).toMatch(/^# Certification report: FAILED/);
    expect(markdown).toContain(
      '- Coverage: must 1/4 (25%), should 1/1, observe 0/1 of the tier ran; CERTIFY_MIN_COVERAGE 100%: NOT met',
    );
    expect(markdown).toContain(`- ${NO_CONTROL}: M-NO-CONTROL-1, M-NO-CONTROL-2`);
  });
});
