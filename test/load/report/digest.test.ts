import { describe, expect, it } from 'vitest';
import { digestSummary, failedDigest, runPassed, skippedDigest } from '../../../src/load/report/digest.js';
import { callsSummary, digest } from '../k6-summary.js';

describe('load digest', () => {
  it('takes per-endpoint figures and leaves whole-run built-ins out', () => {
    const d = digest();
    expect(d.figures['http_req_duration{endpoint:calls.place} p(95)']).toEqual({
      value: 100,
      unit: 'ms',
      better: 'lower',
    });
    expect(d.figures['http_reqs{endpoint:calls.place} rate']).toEqual({ value: 50, unit: '/s', better: 'higher' });
    expect(d.figures['http_req_duration p(95)']).toBeUndefined();
  });

  it("keeps k6's threshold verdicts as they are, with the figure each judged", () => {
    const d = digestSummary(callsSummary({ ok: false, p95: 612.5 }), 99);
    expect(d.thresholds).toContainEqual({
      metric: 'http_req_duration{endpoint:calls.place}',
      expression: 'p(95)<500',
      ok: false,
      observed: 612.5,
    });
    expect(d.thresholds).toContainEqual({
      metric: 'http_reqs{endpoint:calls.place}',
      expression: 'rate>=45',
      ok: true,
      observed: 50,
    });
    expect(d.passed).toBe(false);
  });

  it('leaves the judged figure out when the summary lacks it', () => {
    const summary = callsSummary();
    summary.metrics['http_req_duration{endpoint:calls.place}']!.thresholds!['p(99.9)<900'] = { ok: true };
    expect(digestSummary(summary, 0).thresholds).toContainEqual({
      metric: 'http_req_duration{endpoint:calls.place}',
      expression: 'p(99.9)<900',
      ok: true,
    });
  });

  it('a run with exit 0 but a failed threshold does not pass', () => {
    expect(digestSummary(callsSummary({ ok: false }), 0).passed).toBe(false);
  });

  it('skips do not fail a run, errors do, and a run of only skips does not pass', () => {
    expect(runPassed([digest(), skippedDigest('rotation', 'no control interface')])).toBe(true);
    expect(runPassed([digest(), failedDigest('fanout', 'preparation failed')])).toBe(false);
    expect(runPassed([skippedDigest('rotation', 'no control interface')])).toBe(false);
  });
});
