import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportFileError } from '../../../src/errors.js';
import { baselineDigests, compareDigests, isRegression, readBaseline } from '../../../src/load/report/baseline.js';
import { callsSummary, digest } from '../k6-summary.js';

describe('baseline comparison', () => {
  it('an unchanged run has no regression', () => {
    const result = compareDigests([digest()], [digest()], 0.1);
    expect(result.regressions).toBe(0);
    expect(result.rows.length).toBeGreaterThan(0);
    expect(result.rows.some((r) => r.figure.includes('expected_response'))).toBe(false);
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
    expect(
      isRegression({ value: 0.2, unit: 'ms', better: 'lower' }, { value: 0.9, unit: 'ms', better: 'lower' }, 0.1),
    ).toBe(false);
    expect(
      isRegression(
        { value: 0, unit: 'ratio', better: 'lower' },
        { value: 0.0005, unit: 'ratio', better: 'lower' },
        0.1,
      ),
    ).toBe(false);
    expect(
      isRegression({ value: 0, unit: 'ratio', better: 'lower' }, { value: 0.02, unit: 'ratio', better: 'lower' }, 0.1),
    ).toBe(true);
  });

  it('one lost delivery where the baseline lost none is a regression', () => {
    expect(
      isRegression({ value: 0, unit: 'count', better: 'lower' }, { value: 1, unit: 'count', better: 'lower' }, 0.1),
    ).toBe(true);
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
    expect(() => baselineDigests({ nothing: true })).toThrow(ReportFileError);
    expect(() => baselineDigests({ nothing: true })).toThrow(/not a load report/);
  });

  describe('the --baseline file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'load-baseline-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, text: string): string => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };

    it('gives its digests and the mode of the run it was', () => {
      const baseline = readBaseline(file('summary.json', JSON.stringify({ mode: 'smoke', scenarios: [digest()] })));
      expect(baseline.mode).toBe('smoke');
      expect(baseline.digests.map((d) => d.scenario)).toEqual(['calls']);
    });

    it.each([
      ['missing', join(dir, 'absent.json'), /absent\.json: no such file/],
      ['not JSON', file('half.json', '{"scenarios": ['), /half\.json: not readable JSON/],
      ['not a load report', file('other.json', '{"checks": []}'), /other\.json is not a load report/],
    ])('%s is a ReportFileError naming the file', (_, path, message) => {
      expect(() => readBaseline(path)).toThrow(ReportFileError);
      expect(() => readBaseline(path)).toThrow(message);
    });
  });
});
