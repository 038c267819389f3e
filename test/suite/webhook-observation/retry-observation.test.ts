import { describe, expect, it } from 'vitest';
import {
  IN_FLIGHT_GRACE_MS,
  inFlightAtDisable,
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
