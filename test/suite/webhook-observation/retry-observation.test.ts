import { describe, expect, it } from 'vitest';
import {
  delayPlan,
  IN_FLIGHT_GRACE_MS,
  inFlightAtDisable,
  LONGEST_ALONE_MS,
  measurableAlone,
  planShortDelays,
  type DisableTransition,
} from '../../../src/suite/webhook-observation/retry-observation.js';
import { scaledDelays } from '../../../src/suite/timing/schedule.js';

const DISABLED_AT_MS = 100_000;
/** The spec's delays at time scale 3600: 1 minute is 16.7 ms, 5 minutes 83.3 ms, and so on. */
const DELAYS_MS = scaledDelays(3_600);

function transition(overrides: Partial<DisableTransition> = {}): DisableTransition {
  return {
    disabledAtMs: DISABLED_AT_MS,
    stallMs: () => 0,
    firedBefore: new Set(['evt_before']),
    // evt_failing failed twice, the second time ending 500 ms before the endpoint read disabled.
    lastFailedBefore: new Map([['evt_failing', { failedAttempts: 2, lastEndMs: DISABLED_AT_MS - 500 }]]),
    delaysMs: DELAYS_MS,
    ...overrides,
  };
}

const arrival = (eventId: string, attempt: number, afterMs: number) => ({
  attempt,
  receivedAtMono: DISABLED_AT_MS + afterMs,
  verdicts: { eventId },
});

describe('attempts in flight when an endpoint was disabled', () => {
  it('counts anything within the grace, and the grace grows by this process’s own stall', () => {
    expect(inFlightAtDisable(arrival('evt_new', 1, IN_FLIGHT_GRACE_MS), transition())).toBe(true);
    expect(inFlightAtDisable(arrival('evt_new', 1, IN_FLIGHT_GRACE_MS + 1), transition())).toBe(false);
    expect(inFlightAtDisable(arrival('evt_new', 1, IN_FLIGHT_GRACE_MS + 300), transition({ stallMs: () => 300 }))).toBe(
      true,
    );
  });

  it('counts a retry the schedule made due before the transition, however late it comes', () => {
    // Attempt 3 is due 83.3 ms after the end of attempt 2: long before the transition.
    expect(inFlightAtDisable(arrival('evt_failing', 3, 1_600), transition())).toBe(true);
  });

  it('does not count a retry due after the transition, nor one that skips an attempt', () => {
    const failedJustBefore = new Map([['evt_failing', { failedAttempts: 2, lastEndMs: DISABLED_AT_MS - 10 }]]);
    expect(
      inFlightAtDisable(arrival('evt_failing', 3, 1_600), transition({ lastFailedBefore: failedJustBefore })),
    ).toBe(false);
    expect(inFlightAtDisable(arrival('evt_failing', 4, 1_600), transition())).toBe(false);
  });

  it('allows the schedule’s jitter early: a retry due a little after the transition may have started before it', () => {
    // Due 83.3 ms after an end 80 ms before the transition: 3.3 ms after it, inside 5% of 83.3 ms.
    const failed = new Map([['evt_failing', { failedAttempts: 2, lastEndMs: DISABLED_AT_MS - 80 }]]);
    expect(inFlightAtDisable(arrival('evt_failing', 3, 1_600), transition({ lastFailedBefore: failed }))).toBe(true);
  });

  it('counts the first attempt of an event fired before the transition, not of one fired after', () => {
    expect(inFlightAtDisable(arrival('evt_before', 1, 1_600), transition())).toBe(true);
    expect(inFlightAtDisable(arrival('evt_after', 1, 1_600), transition())).toBe(false);
  });
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('retries measured on their own (HOOK-RETRY-EARLY-SCHEDULE)', () => {
  it('measures a retry alone only while the failures before it last less than the 24 h auto-disable', () => {
    // 1m + 5m + 30m + 2h + 12h is 14.6 h of failures; the 24 h retry would need 38.6 h.
    expect([1, 2, 3, 4, 5, 6].map(measurableAlone)).toEqual([true, true, true, true, true, false]);
    expect(LONGEST_ALONE_MS).toBe(MINUTE + 5 * MINUTE + 30 * MINUTE + 2 * HOUR + 12 * HOUR);
  });

  it('lasts the delays up to and including its own, at its scale', () => {
    expect(delayPlan(3, 3_600)).toEqual({ retry: 3, scale: 3_600, realMs: (36 * MINUTE) / 3_600 });
    expect(delayPlan(1, 1).realMs).toBe(MINUTE);
  });

  it('at scale 3600 times alone the four retries the full schedule makes shorter than 5 s', () => {
    // The full schedule fits the bound there, and times the 12 h and 24 h retries itself.
    const { planned, unplanned } = planShortDelays(3_600);
    expect(unplanned).toEqual([]);
    // Each at the scale where it lasts 5 s: 1 min at 12, 5 min at 60, 30 min at 360, 2 h at 1440.
    expect(planned.map(({ retry, scale }) => [retry, scale])).toEqual([
      [1, 12],
      [2, 60],
      [3, 360],
      [4, 1_440],
    ]);
    expect(planned.map((plan) => plan.realMs)).toEqual([5_000, 6_000, 6_000, 6_500]);
  });

  it('on a target capped at scale 100 leaves the 12 h retry over the bound and the 24 h one to the auto-disable', () => {
    const { planned, unplanned } = planShortDelays(100);
    expect(planned.map(({ retry, scale }) => [retry, scale])).toEqual([
      [1, 12],
      [2, 60],
      [3, 100],
      [4, 100],
    ]);
    expect(unplanned.map(({ retry, why }) => [retry, why])).toEqual([
      [5, 'over the 300 s bound on scaled time'],
      [6, 'the failures before it would auto-disable the endpoint first'],
    ]);
  });

  it('on a target with no time scale measures only the 1 min retry', () => {
    const { planned, unplanned } = planShortDelays(1);
    expect(planned).toEqual([{ retry: 1, scale: 1, realMs: MINUTE }]);
    expect(unplanned.map((plan) => plan.retry)).toEqual([2, 3, 4, 5, 6]);
  });
});
