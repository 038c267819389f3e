import { describe, expect, it } from 'vitest';
import {
  diffReports,
  formatDelta,
  isTimingPath,
  leaves,
  renderDiffHtml,
  renderDiffMarkdown,
} from '../../src/report/diff.js';
import { summarize, type CheckResult, type RunReport } from '../../src/report/model.js';
import { fixtureReport, LEAKY_TOKEN } from './fixture.js';

/** A copy of the fixture with `change` applied to the check `id`. */
function changed(id: string, change: Partial<CheckResult>): RunReport {
  const report = structuredClone(fixtureReport());
  report.checks = report.checks.map((check) => (check.id === id ? { ...check, ...change } : check));
  report.summary = summarize(report.checks);
  return report;
}

describe('diffReports', () => {
  it('a report against itself: no verdict or observation differs, timings side by side', () => {
    const diff = diffReports(fixtureReport(), fixtureReport());
    expect(diff.verdicts).toEqual([]);
    expect(diff.observations).toEqual([]);
    expect(diff.common).toBe(fixtureReport().checks.length);
    expect(diff.timings).toContainEqual({ id: 'REVOKE-PROPAGATION', path: 'propagation_ms', a: 2_028, b: 2_028 });
    expect(diff.timings).toContainEqual({
      id: 'HOOK-RETRY-FULL-SCHEDULE',
      path: 'observed_gaps_ms[5]',
      a: 24023.8,
      b: 24023.8,
    });
  });

  it('lists exactly the checks whose verdict changed, with both details', () => {
    const b = changed('TOKEN-LIMIT-TWO', { verdict: 'fail', detail: 'a third token was accepted' });
    const diff = diffReports(fixtureReport(), b, ['clean', 'faulty']);
    expect(diff.verdicts).toEqual([
      {
        id: 'TOKEN-LIMIT-TWO',
        title: 'A third active token is refused',
        level: 'must',
        a: 'pass',
        b: 'fail',
        bDetail: 'a third token was accepted',
      },
    ]);
    expect(diff.b.outcome).toBe('FAILED');
    expect(diff.b.label).toBe('faulty');
  });

  it('a check in one report only is a verdict change to or from absent', () => {
    const b = structuredClone(fixtureReport());
    b.checks = b.checks.filter((check) => check.id !== 'HOOK-TIMEOUT-30S');
    const diff = diffReports(fixtureReport(), b);
    expect(diff.verdicts).toEqual([expect.objectContaining({ id: 'HOOK-TIMEOUT-30S', a: 'skip' })]);
    expect(diff.verdicts[0]!.b).toBeUndefined();
  });

  it('lists observe values that differ, path by path', () => {
    const b = changed('SCOPE-MISSING-STATUS', { measurements: { status: 404, code: 'missing_scope' } });
    const diff = diffReports(fixtureReport(), b);
    expect(diff.verdicts).toEqual([]);
    expect(diff.observations).toEqual([
      { id: 'SCOPE-MISSING-STATUS', title: 'HTTP status used for missing_scope', path: 'status', a: '403', b: '404' },
    ]);
  });

  it('never counts measurements of must checks, nor timing figures, as observation changes', () => {
    const b = changed('HOOK-RETRY-FULL-SCHEDULE', {
      measurements: {
        ...fixtureReport().checks[1]!.measurements,
        attempts: 6,
        observed_gaps_ms: [30, 93.6, 522.2, 2003.7, 12003.6, 24023.8],
      },
    });
    const diff = diffReports(fixtureReport(), b);
    expect(diff.observations).toEqual([]);
    expect(diff.timings).toContainEqual({
      id: 'HOOK-RETRY-FULL-SCHEDULE',
      path: 'observed_gaps_ms[0]',
      a: 21.9,
      b: 30,
    });
  });

  it('masks details that echo a secret', () => {
    const b = changed('AUTH-UNKNOWN-TOKEN', { verdict: 'pass' });
    const diff = diffReports(fixtureReport(), b);
    expect(JSON.stringify(diff)).not.toContain(LEAKY_TOKEN);
    expect(renderDiffMarkdown(diff)).not.toContain(LEAKY_TOKEN);
    expect(renderDiffHtml(diff)).not.toContain(LEAKY_TOKEN);
  });
});

describe('diff helpers', () => {
  it('flattens measurements into leaves; arrays of objects stay whole', () => {
    const out = leaves({ a: 1, b: { c: [1, 2] }, polls: [{ atMs: 1 }], e: {} });
    expect([...out.entries()]).toEqual([
      ['a', 1],
      ['b.c[0]', 1],
      ['b.c[1]', 2],
      ['polls', [{ atMs: 1 }]],
      ['e', {}],
    ]);
  });
  it('knows a timing figure by a segment ending in _ms or Ms', () => {
    expect(isTimingPath('propagation_ms')).toBe(true);
    expect(isTimingPath('arrivals_ms.observedMs[2]')).toBe(true);
    expect(isTimingPath('window_ms.low')).toBe(true);
    expect(isTimingPath('status')).toBe(false);
    expect(isTimingPath('attempts')).toBe(false);
  });
  it('shows the change and its ratio', () => {
    expect(formatDelta(100, 150)).toBe('+50 (×1.50)');
    expect(formatDelta(100, 90)).toBe('-10 (×0.900)');
    expect(formatDelta(0, 5)).toBe('+5');
    expect(formatDelta(undefined, 5)).toBe('');
  });
});

describe('diff rendering', () => {
  const diff = diffReports(
    fixtureReport(),
    changed('TOKEN-LIMIT-TWO', { verdict: 'fail', detail: 'a | third token' }),
    ['clean', 'faulty'],
  );

  it('Markdown: the runs side by side, then each section with its count', () => {
    const md = renderDiffMarkdown(diff);
    expect(md).toContain('| outcome | FAILED | FAILED |'); // the fixture already fails a must check
    expect(md).toContain('## Verdicts that differ (1)');
    expect(md).toContain('| TOKEN-LIMIT-TWO | must | PASS | FAIL | a \\| third token |');
    expect(md).toContain('## Observations that differ (0)');
    expect(md).toContain('| REVOKE-PROPAGATION | propagation_ms | 2028 | 2028 | 0 (×1.00) |');
  });
  it('HTML: one self-contained page with the same tables', () => {
    const html = renderDiffHtml(diff);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<tr data-id="TOKEN-LIMIT-TWO">');
    expect(html).toContain('<table id="timings">');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
  });
});
