import { describe, expect, it } from 'vitest';
import { digestSummary, failedDigest } from '../../../src/load/report/digest.js';
import { failureReasons } from '../../../src/load/report/write.js';
import { callsSummary } from '../k6-summary.js';

describe('load verdict lines', () => {
  it('name each failed threshold with the figure it judged', () => {
    const failed = digestSummary(callsSummary({ p95: 2142.24, ok: false }), 99);
    expect(failureReasons(failed)).toEqual(['http_req_duration{endpoint:calls.place} p(95)<500 (p(95) 2142.2 ms)']);
  });

  it('name a failed threshold without a report figure by what the summary says it judged', () => {
    const summary = callsSummary();
    summary.metrics['checks{check:answer names a call_ id}'] = {
      type: 'rate',
      values: { rate: 0.5 },
      thresholds: { 'rate==1': { ok: false } },
    };
    expect(failureReasons(digestSummary(summary, 99))).toEqual([
      'checks{check:answer names a call_ id} rate==1 (rate 0.5)',
    ]);
  });

  it('name a failed threshold by its expression alone when the summary lacks the figure', () => {
    const summary = callsSummary();
    summary.metrics['checks{check:answer names a call_ id}'] = {
      type: 'rate',
      values: {},
      thresholds: { 'rate==1': { ok: false } },
    };
    expect(failureReasons(digestSummary(summary, 99))).toEqual(['checks{check:answer names a call_ id} rate==1']);
  });

  it("give k6's exit when every threshold held", () => {
    expect(failureReasons(digestSummary(callsSummary(), 107))).toEqual(['k6 exited 107']);
    expect(failureReasons(failedDigest('fanout', 'preparation failed'))).toEqual(['k6 exited without an exit code']);
  });
});
