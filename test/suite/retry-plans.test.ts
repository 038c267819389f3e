/**
 * The retry observers' plans (src/suite/webhook-observation/retry-observation.ts): which delays of the
 * spec's schedule are timed on their own, at which scale, and which cannot be and why.
 * The observers themselves need a service and a receiver: the fault runs prove them.
 */
import { describe, expect, test } from 'vitest';
import {
  delayPlan,
  LONGEST_ALONE_MS,
  measurableAlone,
  planShortDelays,
} from '../../src/suite/webhook-observation/retry-observation.js';
import { SCALED_SPAN_BOUND_MS } from '../../src/suite/timing/budget.js';
import { scaled, SPEC_AUTO_DISABLE_MS, SPEC_RETRY_DELAYS_MS } from '../../src/suite/timing/schedule.js';

const sumTo = (retry: number) => SPEC_RETRY_DELAYS_MS.slice(0, retry).reduce((a, b) => a + b, 0);

describe('measuring one retry on its own', () => {
  test('lasts the failures before it and the retry, at its scale', () => {
    expect(delayPlan(3, 60)).toEqual({ retry: 3, scale: 60, realMs: scaled(sumTo(3), 60) });
  });

  test('is possible while the failures before it last less than the 24 h that disable the endpoint', () => {
    const retries = SPEC_RETRY_DELAYS_MS.map((_, index) => index + 1);
    expect(retries.map(measurableAlone)).toEqual(retries.map((retry) => sumTo(retry) < SPEC_AUTO_DISABLE_MS));
    expect(measurableAlone(1)).toBe(true);
    expect(measurableAlone(SPEC_RETRY_DELAYS_MS.length)).toBe(false);
    expect(LONGEST_ALONE_MS).toBe(Math.max(...retries.filter(measurableAlone).map(sumTo)));
  });
});

describe('planShortDelays', () => {
  for (const maxScale of [1, 60, 3_600, 1_000_000]) {
    test(`plans each retry at most once, within the bound on scaled time (largest scale ${maxScale})`, () => {
      const { planned, unplanned } = planShortDelays(maxScale);
      const retries = [...planned, ...unplanned].map((plan) => plan.retry);
      expect(new Set(retries).size).toBe(retries.length);
      for (const plan of planned) {
        expect(plan.scale).toBeGreaterThanOrEqual(1);
        expect(plan.scale).toBeLessThanOrEqual(maxScale);
        expect(plan.realMs).toBeLessThanOrEqual(SCALED_SPAN_BOUND_MS);
        expect(measurableAlone(plan.retry)).toBe(true);
      }
      for (const plan of unplanned) expect(plan.why).toMatch(/auto-disable|bound on scaled time/);
    });
  }

  test('a target that cannot scale time leaves the long retries unplanned, saying why', () => {
    const { unplanned } = planShortDelays(1);
    expect(unplanned.map((plan) => plan.retry)).toContain(SPEC_RETRY_DELAYS_MS.length);
    expect(unplanned.find((plan) => plan.retry === SPEC_RETRY_DELAYS_MS.length)?.why).toMatch(/auto-disable/);
  });
});
