import { describe, expect, it } from 'vitest';
import { baselineDigests, compareDigests, isRegression } from '../../scripts/k6/baseline.js';
import { digestSummary, runPassed, skippedDigest, failedDigest, type K6Summary } from '../../scripts/k6/digest.js';

/** One k6 summary of the calls scenario, as handleSummary receives it; tests change one figure. */
function callsSummary(change: { p95?: number; rate?: number; failed?: number; ok?: boolean } = {}): K6Summary {
  return {
    scenario: 'calls',
    state: { testRunDurationMs: 20_000 },
    metrics: {
      'http_req_duration{endpoint:calls.place}': {
        type: 'trend',
        values: { 'p(95)': change.p95 ?? 100, 'p(99)': 200, med: 40, max: 400, avg: 50, min: 1, 'p(90)': 90, count: 1000 },
        thresholds: { 'p(95)<500': { ok: change.ok ?? true }, 'p(99)<1000': { ok: true } },
      },
      'http_reqs{endpoint:calls.place}': { type: 'counter', values: { count: 1000, rate: change.rate ?? 50 }, thresholds: { 'rate>=45': { ok: true } } },
      'http_req_failed{endpoint:calls.place}': { type: 'rate', values: { rate: change.failed ?? 0, passes: 0, fails: 1000 } },
      http_req_duration: { type: 'trend', values: { 'p(95)': 999 } },
      dropped_iterations: { type: 'counter', values: { count: 0, rate: 0 } },
    },
  };
}

const digest = (change?: Parameters<typeof callsSummary>[0]) => digestSummary(callsSummary(change), 0);

describe('load digest', () => {
  it('takes per-endpoint figures and leaves whole-run built-ins out', () => {
    const d = digest();
    expect(d.figures['http_req_duration{endpoint:calls.place} p(95)']).toEqual({ value: 100, unit: 'ms', better: 'lower' });
    expect(d.figures['http_reqs{endpoint:calls.place} rate']).toEqual({ value: 50, unit: '/s', better: 'higher' });
    expect(d.figures['http_req_duration p(95)']).toBeUndefined();
  });

  it("keeps k6's threshold verdicts as they are", () => {
    const d = digestSummary(callsSummary({ ok: false }), 99);
    expect(d.thresholds).toContainEqual({ metric: 'http_req_duration{endpoint:calls.place}', expression: 'p(95)<500', ok: false });
    expect(d.passed).toBe(false);
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

describe('baseline comparison', () => {
  it('an unchanged run has no regression', () => {
    const result = compareDigests([digest()], [digest()], 0.1);
    expect(result.regressions).toBe(0);
    expect(result.rows.length).toBeGreaterThan(0);
    expect(result.rows.some((r) => r.figure.includes("expected_response"))).toBe(false);
  });

  it('latency 20 % slower than the baseline is a regression at 10 % tolerance', () => {
    const result = compareDigests([digest({ p95: 120 })], [digest()], 0.1);
    const row = result.rows.find((r) => r.figure === 'http_req_duration{endpoint:calls.place} p(95)')!;
    expect(row.regression).toBe(true);
    expect(row.change).toBeCloseTo(0.2);
    expect(result.regressions).toBe(1);
  });

  it('latency 5 % slower is within a 10 % tolerance', () => {
    expect(compareDigests([digest({ p95: 105 })], [digest()], 0.1).regressions).toBe(0);
  });

  it('a faster run is no regression', () => {
    expect(compareDigests([digest({ p95: 50 })], [digest()], 0.1).regressions).toBe(0);
  });

  it('a lower achieved rate is a regression (higher is better)', () => {
    const result = compareDigests([digest({ rate: 40 })], [digest()], 0.1);
    expect(result.rows.find((r) => r.figure === 'http_reqs{endpoint:calls.place} rate')!.regression).toBe(true);
  });

  it('moves under the absolute floor do not count, even from zero', () => {
    expect(isRegression({ value: 0.2, unit: 'ms', better: 'lower' }, { value: 0.9, unit: 'ms', better: 'lower' }, 0.1)).toBe(false);
    expect(isRegression({ value: 0, unit: 'ratio', better: 'lower' }, { value: 0.0005, unit: 'ratio', better: 'lower' }, 0.1)).toBe(false);
    expect(isRegression({ value: 0, unit: 'ratio', better: 'lower' }, { value: 0.02, unit: 'ratio', better: 'lower' }, 0.1)).toBe(true);
  });

  it('one lost delivery where the baseline lost none is a regression', () => {
    expect(isRegression({ value: 0, unit: 'count', better: 'lower' }, { value: 1, unit: 'count', better: 'lower' }, 0.1)).toBe(true);
  });

  it('the change is null against a zero baseline', () => {
    const result = compareDigests([digest({ failed: 0.05 })], [digest()], 0.1);
    const row = result.rows.find((r) => r.figure === 'http_req_failed{endpoint:calls.place} rate')!;
    expect(row.change).toBeNull();
    expect(row.regression).toBe(true);
  });

  it('scenarios and figures missing from the baseline are not compared', () => {
    const other = { ...digest(), scenario: 'fanout' };
    expect(compareDigests([other], [digest()], 0.1).rows).toEqual([]);
  });

  it('refuses a negative tolerance', () => {
    expect(() => compareDigests([digest()], [digest()], -0.1)).toThrow(RangeError);
  });

  it('reads a combined report or a single k6 summary as a baseline', () => {
    expect(baselineDigests({ scenarios: [digest()] })[0]!.scenario).toBe('calls');
    expect(baselineDigests(callsSummary())[0]!.figures['http_reqs{endpoint:calls.place} rate']!.value).toBe(50);
    expect(() => baselineDigests({ nothing: true })).toThrow(/not a load report/);
  });
});
