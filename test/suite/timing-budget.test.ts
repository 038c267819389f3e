import { describe, expect, it } from 'vitest';
import {
  boundedTimeoutMs,
  chooseScale,
  LONGEST_BOUNDED_TIMEOUT_MS,
  longestRealMs,
  SCALED_SPAN_BOUND_MS,
  smallestScaleWithin,
} from '../../src/suite/timing/budget.js';
import { SPEC_AUTO_DISABLE_MS, SPEC_RETRY_DELAYS_MS } from '../../src/suite/timing/schedule.js';
import {
  DISABLE_SPAN_MS,
  LONGEST_ALONE_MS,
  SCHEDULE_LONGEST_WAIT_MS,
  SCHEDULE_SPAN_MS,
} from '../../src/suite/webhook-observation/retry-observation.js';

const HOUR_MS = 3_600_000;

describe('the bound on scaled time', () => {
  it('the spans the retry and auto-disable checks watch, in spec time', () => {
    expect(SCHEDULE_SPAN_MS).toBe(40.6 * HOUR_MS);
    expect(DISABLE_SPAN_MS).toBe(28 * HOUR_MS);
    // 12h is the longest retry timed on its own: the 24h one would come after 24 h of failures.
    expect(LONGEST_ALONE_MS).toBe(14.6 * HOUR_MS);
  });

  it('at the reference scale 3600 every span runs at 3600, well within the bound', () => {
    for (const span of [SCHEDULE_SPAN_MS, DISABLE_SPAN_MS, SPEC_AUTO_DISABLE_MS]) {
      const choice = chooseScale(3_600, 3_600, span);
      expect(choice.scale).toBe(3_600);
      expect(choice.withinBound).toBe(true);
    }
    expect(chooseScale(3_600, 3_600, SCHEDULE_SPAN_MS).realMs).toBeCloseTo(40_600, 6);
  });

  it('a scale larger than the reference allows is not asked for: the check wants 3600 at most', () => {
    expect(chooseScale(3_600, 100_000, SCHEDULE_SPAN_MS).scale).toBe(3_600);
  });

  it('at 600 the whole schedule, the auto-disable and the health model batch all run, slower', () => {
    expect(chooseScale(3_600, 600, SCHEDULE_SPAN_MS)).toEqual({ scale: 600, realMs: 243_600, withinBound: true });
    expect(chooseScale(3_600, 600, DISABLE_SPAN_MS)).toEqual({ scale: 600, realMs: 168_000, withinBound: true });
    expect(chooseScale(3_600, 600, SPEC_AUTO_DISABLE_MS)).toEqual({ scale: 600, realMs: 144_000, withinBound: true });
  });

  it('the schedule runs down to the smallest scale that keeps it within the bound, and is skipped just below it', () => {
    const smallest = smallestScaleWithin(SCHEDULE_SPAN_MS);
    expect(smallest).toBe(488);
    expect(chooseScale(3_600, smallest, SCHEDULE_SPAN_MS).withinBound).toBe(true);
    expect(chooseScale(3_600, smallest - 1, SCHEDULE_SPAN_MS).withinBound).toBe(false);
    expect(chooseScale(3_600, smallest - 1, SCHEDULE_SPAN_MS).realMs).toBeGreaterThan(SCALED_SPAN_BOUND_MS);
  });

  it('a span exactly as long as the bound fits; a millisecond more does not', () => {
    expect(chooseScale(1, 1, SCALED_SPAN_BOUND_MS).withinBound).toBe(true);
    expect(chooseScale(1, 1, SCALED_SPAN_BOUND_MS + 1).withinBound).toBe(false);
  });

  it('a check that wants a low scale keeps it when the target allows more', () => {
    expect(chooseScale(12, 600, SPEC_RETRY_DELAYS_MS[0]!)).toEqual({ scale: 12, realMs: 5_000, withinBound: true });
  });

  it('the scale is never below 1, whatever the target declares', () => {
    expect(chooseScale(3_600, 0, SPEC_RETRY_DELAYS_MS[0]!).scale).toBe(1);
    expect(smallestScaleWithin(1_000)).toBe(1);
  });
});

describe('time-outs at the slowest scale the bound allows', () => {
  it('a span longer than the bound takes the bound at its slowest; a shorter one its own length, unscaled', () => {
    expect(longestRealMs(SCHEDULE_SPAN_MS)).toBe(SCALED_SPAN_BOUND_MS);
    expect(longestRealMs(SPEC_RETRY_DELAYS_MS[0]!)).toBe(60_000);
  });

  it('what a check watches beyond its span scales with it', () => {
    // A 12h delay re-measured after the schedule: at the slowest scale it adds 14.6/40.6 of the bound.
    expect(longestRealMs(SCHEDULE_SPAN_MS, SCHEDULE_SPAN_MS + LONGEST_ALONE_MS)).toBeCloseTo(
      (SCALED_SPAN_BOUND_MS * 55.2) / 40.6,
      6,
    );
  });

  it('covers the span at any scale the check can run at: at 600 the schedule takes less than its time-out', () => {
    const timeout = boundedTimeoutMs({ spanMs: SCHEDULE_SPAN_MS, stretch: 1.25, fixedMs: 60_000 });
    expect(timeout).toBe(60_000 + 1.25 * SCALED_SPAN_BOUND_MS);
    expect(chooseScale(3_600, 600, SCHEDULE_SPAN_MS).realMs * 1.25 + 60_000).toBeLessThan(timeout);
  });

  it('the schedule checks wait out a target that never flags the drop: every delay and the last once more', () => {
    expect(SCHEDULE_LONGEST_WAIT_MS).toBe(62.6 * HOUR_MS);
    // At the slowest scale the bound allows, a quarter longer, and a 12h delay re-measured after it: still under the cap.
    const full = boundedTimeoutMs({
      spanMs: SCHEDULE_SPAN_MS,
      watchedMs: SCHEDULE_LONGEST_WAIT_MS + LONGEST_ALONE_MS,
      stretch: 1.25,
      fixedMs: 60_000,
    });
    expect(full).toBeGreaterThan(
      (1.25 * (SCHEDULE_LONGEST_WAIT_MS + LONGEST_ALONE_MS)) / smallestScaleWithin(SCHEDULE_SPAN_MS),
    );
    expect(full).toBeLessThanOrEqual(LONGEST_BOUNDED_TIMEOUT_MS);
  });

  it('refuses a time-out the run deadline leaves no room for', () => {
    expect(() => boundedTimeoutMs({ spanMs: SCHEDULE_SPAN_MS, watchedMs: 10 * SCHEDULE_SPAN_MS, fixedMs: 0 })).toThrow(
      RangeError,
    );
    expect(() => boundedTimeoutMs({ spanMs: 1_000, fixedMs: LONGEST_BOUNDED_TIMEOUT_MS - 1_000 })).not.toThrow();
    expect(() => boundedTimeoutMs({ spanMs: 1_000, fixedMs: LONGEST_BOUNDED_TIMEOUT_MS - 999 })).toThrow(RangeError);
  });
});
