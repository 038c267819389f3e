import { describe, expect, it } from 'vitest';
import { figuresFor } from '../../src/report/charts/index.js';
import { propagationSeries, renderPropagation } from '../../src/report/charts/propagation.js';
import { judgeGap, renderRetryTimeline, retrySeries, specDelayLabel } from '../../src/report/charts/retry-timeline.js';
import { formatMs, linearTicks, logScale, logTicks, preciseMs } from '../../src/report/charts/svg.js';
import { fixtureChecks } from './fixture.js';

const byId = (id: string) => fixtureChecks().find((check) => check.id === id)!;
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('svg helpers', () => {
  it('log scale maps decades to equal widths', () => {
    const x = logScale([10, 1000], [0, 200]);
    expect(x(10)).toBe(0);
    expect(x(100)).toBeCloseTo(100);
    expect(x(1000)).toBeCloseTo(200);
    expect(x(0)).toBe(0); // clamped, never NaN
  });
  it('log scale refuses a domain that is not positive', () => {
    expect(() => logScale([0, 10], [0, 1])).toThrow(/log scale/);
  });
  it('log ticks are 1, 2, 5 per decade', () => {
    expect(logTicks(10, 1000)).toEqual([10, 20, 50, 100, 200, 500, 1000]);
  });
  it('linear ticks use a round step', () => {
    expect(linearTicks(7_000)).toEqual([0, 2000, 4000, 6000]);
    expect(linearTicks(0)).toEqual([0]);
  });
  it('formats milliseconds for people', () => {
    expect(formatMs(21.94)).toBe('22 ms');
    expect(formatMs(5.46)).toBe('5.5 ms');
    expect(formatMs(2_180)).toBe('2.18 s');
    expect(formatMs(60_000)).toBe('1 min');
    expect(preciseMs(1000.5)).toBe('1.0005 s');
    expect(preciseMs(93.6)).toBe('93.6 ms');
  });
});

describe('revocation propagation strip', () => {
  const series = propagationSeries(byId('REVOKE-PROPAGATION').measurements)!;

  it('reads polls, the first 401 and the last 200 from the measurements', () => {
    expect(series.polls).toHaveLength(56);
    expect(series.firstRejectionMs).toBe(2_028);
    expect(series.lastAcceptedMs).toBe(2_020);
    expect(series.limitMs).toBe(60_000);
  });
  it('works the figures out from the polls when the check did not record them', () => {
    const { polls } = byId('REVOKE-PROPAGATION').measurements as { polls: unknown[] };
    const derived = propagationSeries({ polls })!;
    expect(derived.firstRejectionMs).toBe(2_028);
    expect(derived.lastAcceptedMs).toBe(2_020);
  });
  it('is absent without polls', () => {
    expect(propagationSeries({ propagation_ms: 10 })).toBeUndefined();
    expect(propagationSeries({ polls: [{ nothing: true }] })).toBeUndefined();
    expect(propagationSeries(undefined)).toBeUndefined();
  });
  it('draws one marker per poll, by shape: circles for 200, crosses for 401', () => {
    const figure = renderPropagation('REVOKE-PROPAGATION', series);
    const accepted = series.polls.filter((p) => p.status === 200).length;
    const rejected = series.polls.filter((p) => p.status === 401).length;
    // +2: the row-label keys of the two lanes.
    expect(count(figure.svg, '<circle class="mk accepted"')).toBe(accepted + 2);
    expect(count(figure.svg, '<path class="mk rejected"')).toBe(rejected + 2);
    expect(figure.svg).toContain('class="limit"');
    expect(figure.svg).toContain('first 401 at 2.03 s');
    expect(figure.svg).toContain('last 200 at 2.02 s');
    expect(figure.svg).toContain('60 s limit');
  });
  it('labels the chart for assistive technology and says the same in a table', () => {
    const figure = renderPropagation('REVOKE-PROPAGATION', series);
    expect(figure.svg).toMatch(
      /^<svg [^>]*role="img" aria-labelledby="chart-REVOKE-PROPAGATION-t chart-REVOKE-PROPAGATION-d"/,
    );
    expect(figure.svg).toContain('<desc id="chart-REVOKE-PROPAGATION-d">56 polls on kept-alive and fresh connections');
    expect(figure.table).toContain('<td>kept-alive</td><td>28</td><td>9</td><td>19</td>');
    expect(count(figure.table, '<tr>')).toBe(1 + 2 + 1 + 56); // two header rows, two kinds, every poll
  });
  it('breaks the axis when every poll ended long before the limit, not otherwise', () => {
    expect(renderPropagation('X', series).svg).toContain('axis-break');
    const slow = { ...series, polls: [...series.polls, { atMs: 75_000, connection: 'fresh', status: 401 }] };
    expect(renderPropagation('X', slow).svg).not.toContain('axis-break');
  });
  it('marks answers that are neither 200 nor 401 with a third shape', () => {
    const odd = { ...series, polls: [...series.polls, { atMs: 3_000, connection: 'fresh', status: 500 }] };
    expect(renderPropagation('X', odd).svg).toContain('mk other');
  });
});

describe('retry timeline', () => {
  it('takes each band from the gaps the check recorded', () => {
    const series = retrySeries(byId('HOOK-RETRY-FULL-SCHEDULE').measurements)!;
    expect(series.timeScale).toBe(3600);
    expect(series.gaps[0]).toEqual({ retry: 1, expectedMs: 16.7, observedMs: 21.9, earlyMs: 12.8, lateMs: 14.8 });
    expect(series.gaps[5]).toMatchObject({ expectedMs: 24000, earlyMs: 1212, lateMs: 1214 });
  });
  it('draws no band for a report that recorded only expected and observed gaps', () => {
    const series = retrySeries({ expected_gaps_ms: [1000], observed_gaps_ms: [1300] })!;
    expect(series.gaps).toEqual([{ retry: 1, expectedMs: 1000, observedMs: 1300 }]);
    expect(judgeGap(series.gaps[0]!)).toBe('unjudged');
  });
  it('uses recorded gaps as they are when a check records them', () => {
    const series = retrySeries({
      gaps: [{ retry: 1, expectedMs: 1000, observedMs: 1500, toleranceMs: 150, lateToleranceMs: 400 }],
    })!;
    expect(series.gaps).toEqual([{ retry: 1, expectedMs: 1000, observedMs: 1500, earlyMs: 150, lateMs: 400 }]);
    expect(judgeGap(series.gaps[0]!)).toBe('late');
  });
  it('judges each gap: within, early, late, missing', () => {
    const base = { retry: 1, expectedMs: 1000, earlyMs: 100, lateMs: 400 };
    expect(judgeGap({ ...base, observedMs: 1300 })).toBe('within');
    expect(judgeGap({ ...base, observedMs: 850 })).toBe('early');
    expect(judgeGap({ ...base, observedMs: 1500 })).toBe('late');
    expect(judgeGap(base)).toBe('missing');
    expect(judgeGap({ retry: 1, expectedMs: 1000, observedMs: 5 })).toBe('unjudged');
  });
  it('draws a retry the check counted without timing it as such: never LATE, never outside', () => {
    // Retry 2 (5m) at scale 3600 is 83 ms: counted, not timed; it came 221 ms after its attempt.
    const series = retrySeries({
      time_scale: 3600,
      gaps: [{ retry: 2, expectedMs: 83.3, observedMs: 221.3, timed: false }],
    })!;
    expect(judgeGap(series.gaps[0]!)).toBe('counted');
    const figure = renderRetryTimeline('HOOK-RETRY-FULL-SCHEDULE', series);
    expect(figure.svg).toContain('221.3 ms (counted, not timed)');
    expect(figure.svg).not.toContain('LATE');
    expect(figure.caption).toContain('every timed retry came within its tolerance; retry 2 counted, not timed');
  });
  it('names the spec delay at the time scale', () => {
    expect(specDelayLabel(16.7, 3600)).toBe('1m');
    expect(specDelayLabel(2000, 3600)).toBe('2h');
    expect(specDelayLabel(5000, 60)).toBe('5m');
    expect(specDelayLabel(5000, undefined)).toBeUndefined();
  });
  it('is absent without expected gaps', () => {
    expect(retrySeries({ time_scale: 60 })).toBeUndefined();
    expect(retrySeries({ expected_gaps_ms: [0, 10] })).toBeUndefined();
  });
  it('draws bands, expected diamonds and observed circles, all in band', () => {
    const figure = renderRetryTimeline(
      'HOOK-RETRY-FULL-SCHEDULE',
      retrySeries(byId('HOOK-RETRY-FULL-SCHEDULE').measurements)!,
    );
    expect(count(figure.svg, '<rect class="band"')).toBe(6 + 1); // + legend
    expect(count(figure.svg, 'class="mk expected"')).toBe(6 + 1);
    expect(count(figure.svg, '<circle class="mk observed within"')).toBe(6 + 1); // + legend
    expect(figure.svg).toContain('retry 6 (24h)');
    expect(figure.svg).toContain('log scale, time scale 3600');
    expect(figure.caption).toContain('every timed retry came within its tolerance');
  });
  it('marks a late retry with a cross and a missing one in words', () => {
    const figure = renderRetryTimeline(
      'HOOK-RETRY-EARLY-SCHEDULE',
      retrySeries(byId('HOOK-RETRY-EARLY-SCHEDULE').measurements)!,
    );
    expect(figure.svg).toContain('<path class="mk observed late"');
    expect(figure.svg).toContain('7 s (LATE)');
    expect(figure.svg).toContain('never came');
    expect(figure.table).toContain('<td>3 (30m)</td><td>30 s</td>');
    expect(figure.caption).toContain('retry 2 LATE, retry 3 never came');
  });
});

describe('figures per check', () => {
  it('chooses charts by the shape of the measurements', () => {
    expect(figuresFor(byId('REVOKE-PROPAGATION')).map((f) => f.id)).toEqual(['chart-REVOKE-PROPAGATION']);
    expect(figuresFor(byId('HOOK-RETRY-EARLY-SCHEDULE')).map((f) => f.id)).toEqual(['chart-HOOK-RETRY-EARLY-SCHEDULE']);
    expect(figuresFor(byId('SCOPE-MISSING-STATUS'))).toEqual([]);
  });
});
