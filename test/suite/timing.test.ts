import { describe, expect, it } from 'vitest';
import {
  SPEC_RETRY_DELAYS_MS,
  arrivalSeries,
  describeTolerance,
  judgeWindow,
  lateBeyondTolerance,
  matchSchedule,
  retriesDueIn,
  scaledDelays,
  toleranceMs,
  type AttemptTiming,
} from '../../src/suite/timing/schedule.js';
import { gapTolerance, scheduleTolerance, TIMED_DELAY_MS, watchEventLoopDelay } from '../../src/suite/timing/error.js';
import { planShortDelays } from '../../src/suite/webhook-observation/retry-observation.js';

const TOLERANCE = { fraction: 0.1, errorMs: 100 };

/** Attempts that each end `answerMs` after arriving, spaced by `gaps` from the previous end. */
function attempts(gaps: readonly number[], answerMs = 2): AttemptTiming[] {
  const out: AttemptTiming[] = [{ startMs: 1_000, endMs: 1_000 + answerMs }];
  for (const gap of gaps) {
    const startMs = out[out.length - 1]!.endMs + gap;
    out.push({ startMs, endMs: startMs + answerMs });
  }
  return out;
}

describe('retry schedule matching', () => {
  const delays = scaledDelays(3_600);

  it('scales the spec schedule: 1m is 16.7 ms and 24h is 24 s at 3600', () => {
    expect(delays[0]).toBeCloseTo(16.667, 2);
    expect(delays[5]).toBe(24_000);
    expect(SPEC_RETRY_DELAYS_MS).toHaveLength(6);
  });

  it('the tolerance is the fraction of the delay plus the error', () => {
    expect(toleranceMs(16.7, TOLERANCE)).toBeCloseTo(101.67, 2);
    expect(toleranceMs(24_000, TOLERANCE)).toBe(2_500);
    expect(describeTolerance(TOLERANCE)).toBe('±(10% + 100 ms)');
  });

  it('an exact schedule matches with no missing or extra attempts', () => {
    const match = matchSchedule(attempts(delays), delays, TOLERANCE);
    expect(match.gaps).toHaveLength(6);
    expect(match.firstMismatch).toBeUndefined();
    expect(match.missing).toBe(0);
    expect(match.extra).toBe(0);
  });

  it('gaps are measured from the end of the failed attempt, not its arrival', () => {
    const slowAnswers = attempts([1_000], 500);
    const match = matchSchedule(slowAnswers, [1_000], { fraction: 0, errorMs: 10 });
    expect(match.gaps[0]!.observedMs).toBe(1_000);
    expect(match.firstMismatch).toBeUndefined();
  });

  it('an exponential schedule fails at its third retry', () => {
    const exponential = [1, 2, 4, 8, 16, 32].map((m) => (m * 60_000) / 3_600);
    const match = matchSchedule(attempts(exponential), delays, TOLERANCE);
    expect(match.firstMismatch?.retry).toBe(3);
  });

  it('counts missing and extra attempts', () => {
    expect(matchSchedule(attempts(delays.slice(0, 4)), delays, TOLERANCE).missing).toBe(2);
    expect(matchSchedule(attempts([...delays, 24_000]), delays, TOLERANCE).extra).toBe(1);
  });

  it('a gap just inside the tolerance passes and just outside fails', () => {
    const tolerance = { fraction: 0.1, errorMs: 50 };
    expect(matchSchedule(attempts([1_150]), [1_000], tolerance).firstMismatch).toBeUndefined();
    expect(matchSchedule(attempts([1_151]), [1_000], tolerance).firstMismatch?.retry).toBe(1);
    expect(matchSchedule(attempts([849]), [1_000], tolerance).firstMismatch?.deviationMs).toBe(-151);
  });

  it('only a gap late beyond its tolerance is worth timing again; an early or fitting one is not', () => {
    const tolerance = { fraction: 0.05, errorMs: 10, lateMs: 20 };
    const [late, fitting, early] = [1_081, 1_080, 939].map(
      (gap) => matchSchedule(attempts([gap]), [1_000], tolerance).gaps[0]!,
    );
    expect([late!.ok, fitting!.ok, early!.ok]).toEqual([false, true, false]);
    expect([late, fitting, early].map((gap) => lateBeyondTolerance(gap!))).toEqual([true, false, false]);
  });

  it('lateness gets the round trips on top; earliness does not', () => {
    const tolerance = { fraction: 0.05, errorMs: 12, lateMs: 4 };
    expect(matchSchedule(attempts([500 + 25 + 16]), [500], tolerance).firstMismatch).toBeUndefined();
    expect(matchSchedule(attempts([500 - 25 - 13]), [500], tolerance).firstMismatch?.retry).toBe(1);
    expect(describeTolerance(tolerance)).toBe('±(5% + 12 ms), +4 ms more late');
  });

  // The bar: at the measured error of a loaded run, one delay 20% off fails and a
  // ±4% jitter passes, for every delay judged precisely (all of them at scale 60, the 30m
  // delay and longer at 3600).
  it.each([
    ['scale 60', scaledDelays(60).slice(0, 2)],
    ['scale 3600, 30m and longer', scaledDelays(3_600).slice(2)],
  ])('%s: a delay 20%% off fails, a ±4%% jitter passes', (_name, judged) => {
    const tolerance = scheduleTolerance({ eventLoopP99Ms: 12, roundTripMs: 2 });
    const jittered = judged.map((delay, i) => delay * (i % 2 === 0 ? 1.04 : 0.96));
    expect(matchSchedule(attempts(jittered), judged, tolerance).firstMismatch).toBeUndefined();
    for (let i = 0; i < judged.length; i++) {
      for (const factor of [1.2, 0.8]) {
        const off = judged.map((delay, j) => (j === i ? delay * factor : delay));
        expect(matchSchedule(attempts(off), judged, tolerance).firstMismatch?.retry, `delay ${i + 1} × ${factor}`).toBe(
          i + 1,
        );
      }
    }
  });

  it('builds the tolerance from the measured error: twice the event-loop p99 (10 ms at least) plus one round trip, two more late', () => {
    expect(scheduleTolerance({ eventLoopP99Ms: 1, roundTripMs: 0.4 })).toEqual({
      fraction: 0.05,
      errorMs: 11,
      lateMs: 1,
    });
    expect(scheduleTolerance({ eventLoopP99Ms: 30, roundTripMs: 20 })).toEqual({
      fraction: 0.05,
      errorMs: 80,
      lateMs: 40,
    });
  });

  it('a gap during which the event loop stalled gets twice the stall as its error; the other gaps keep the p99', () => {
    // Attempts at 0, 16.7 ms (+ 25 ms) and 100 ms: the first gap is late by 25 ms.
    const timings = [
      { startMs: 1_000, endMs: 1_000 },
      { startMs: 1_041.7, endMs: 1_041.7 },
      { startMs: 1_125, endMs: 1_125 },
    ];
    const stallBetween = (fromMs: number, toMs: number) => (fromMs <= 1_030 && toMs >= 1_010 ? 20 : 0);
    const error = { eventLoopP99Ms: 2, roundTripMs: 0.5 };
    expect(matchSchedule(timings, [16.7, 83.3], scheduleTolerance(error)).firstMismatch?.retry).toBe(1);
    const match = matchSchedule(timings, [16.7, 83.3], gapTolerance({ ...error, stallBetween }));
    expect(match.firstMismatch).toBeUndefined();
    expect(match.gaps.map((gap) => gap.toleranceMs)).toEqual([0.05 * 16.7 + 41, 0.05 * 83.3 + 11]);
  });

  it('the watch finds a stall of the event loop within the span it overlaps, and none outside it', () => {
    const watch = watchEventLoopDelay();
    return new Promise<void>((resolve) => {
      setTimeout(() => {
        const from = performance.now();
        while (performance.now() - from < 40) {
          // Block the event loop for 40 ms.
        }
        setTimeout(() => {
          watch.stop();
          expect(watch.stallBetween(from, from + 40)).toBeGreaterThanOrEqual(30);
          expect(watch.stallBetween(from + 200, from + 300)).toBeLessThan(30);
          resolve();
        }, 50);
      }, 20);
    });
  });

  it('the arrival series gives observed and nominal offsets from the first arrival', () => {
    const series = arrivalSeries(attempts([100, 200], 0), [100, 200]);
    expect(series.observedMs).toEqual([0, 100, 300]);
    expect(series.nominalMs).toEqual([0, 100, 300]);
  });
});

describe('transition windows', () => {
  const window = { lowMs: 23_500, highMs: 25_500 };

  it('a transition seen by a poll before the window opens is early', () => {
    expect(judgeWindow({ afterMs: 10_000, byMs: 10_100 }, window)).toBe('early');
  });

  it('a transition after a poll that was already past the window is late', () => {
    expect(judgeWindow({ afterMs: 25_600, byMs: 25_700 }, window)).toBe('late');
  });

  it('a transition that may lie in the window is accepted', () => {
    expect(judgeWindow({ afterMs: 23_900, byMs: 24_010 }, window)).toBe('ok');
    expect(judgeWindow({ afterMs: 23_400, byMs: 23_550 }, window)).toBe('ok');
  });
});

describe('retries due in a window', () => {
  const delays = [10, 50, 300];

  it('counts the next retry and the ones after it that fall in the window', () => {
    // One failure at 0: retries due at 10, 60, 360.
    expect(retriesDueIn([{ failedAttempts: 1, lastEndMs: 0 }], delays, 0, 100)).toBe(2);
    expect(retriesDueIn([{ failedAttempts: 1, lastEndMs: 0 }], delays, 100, 400)).toBe(1);
  });

  it('an exhausted delivery has nothing due', () => {
    expect(retriesDueIn([{ failedAttempts: 4, lastEndMs: 0 }], delays, 0, 10_000)).toBe(0);
  });

  it('sums over events', () => {
    const events = [
      { failedAttempts: 1, lastEndMs: 0 },
      { failedAttempts: 2, lastEndMs: 0 },
    ];
    expect(retriesDueIn(events, delays, 0, 60)).toBe(3);
  });
});

describe('planning the short retry delays, each timed on its own', () => {
  it('times 1m, 5m, 30m and 2h at the scales where each lasts 5 s, leaving 12h and 24h to the full schedule at 3600', () => {
    const { planned, unplanned } = planShortDelays(3_600);
    expect(planned.map((plan) => [plan.retry, plan.scale])).toEqual([
      [1, 12],
      [2, 60],
      [3, 360],
      [4, 1_440],
    ]);
    expect(planned.every((plan) => scaledDelays(plan.scale)[plan.retry - 1] === TIMED_DELAY_MS)).toBe(true);
    expect(Math.max(...planned.map((plan) => plan.realMs))).toBeLessThan(7_000);
    expect(unplanned).toEqual([]);
  });

  it('at 600 the full schedule runs and times 2h, 12h and 24h; 1m, 5m and 30m are timed on their own', () => {
    const { planned, unplanned } = planShortDelays(600);
    expect(planned.map((plan) => [plan.retry, plan.scale])).toEqual([
      [1, 12],
      [2, 60],
      [3, 360],
    ]);
    expect(unplanned).toEqual([]);
  });

  it('below the scale the full schedule needs, times each delay on its own within the bound, never the 24h', () => {
    const { planned, unplanned } = planShortDelays(487);
    expect(planned.map((plan) => [plan.retry, plan.scale])).toEqual([
      [1, 12],
      [2, 60],
      [3, 360],
      [4, 487],
      [5, 487],
    ]);
    // 24h on its own would come after 24 h of failures: the endpoint auto-disables first.
    expect(unplanned.map((plan) => [plan.retry, plan.why])).toEqual([
      [6, 'the failures before it would auto-disable the endpoint first'],
    ]);
    expect(planShortDelays(488).planned.map((plan) => plan.retry)).toEqual([1, 2, 3]);
  });

  it('leaves out what would last over the bound at a low largest scale', () => {
    const { planned, unplanned } = planShortDelays(100);
    // 2h needs 94 s with the delays before it; 12h 526 s, over the bound.
    expect(planned.map((plan) => [plan.retry, plan.scale])).toEqual([
      [1, 12],
      [2, 60],
      [3, 100],
      [4, 100],
    ]);
    expect(unplanned.map((plan) => plan.retry)).toEqual([5, 6]);
    expect(unplanned[0]!.why).toMatch(/over the 300 s bound/);
    expect(planShortDelays(1).planned.map((plan) => plan.retry)).toEqual([1]);
  });
});
