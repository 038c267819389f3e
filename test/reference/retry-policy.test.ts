import { describe, expect, it } from 'vitest';
import { NO_FAULTS, type FaultName } from '../../reference/faults.js';
import { RETRY_DELAYS_MS, nextRetryDelayMs } from '../../reference/webhooks/retry-policy.js';

const delays = (faults = NO_FAULTS, jitter = 0) =>
  [1, 2, 3, 4, 5, 6].map((failed) => nextRetryDelayMs(failed, faults, 1, jitter));

describe('retry policy', () => {
  it('follows the schedule and drops after the sixth retry', () => {
    expect(delays()).toEqual(RETRY_DELAYS_MS);
    expect(nextRetryDelayMs(7, NO_FAULTS, 1)).toBeNull();
    expect(nextRetryDelayMs(1, NO_FAULTS, 3_600)).toBeCloseTo(16.667, 2);
  });

  it('with a jitter, moves odd retries late and even ones early by exactly that fraction', () => {
    const jittered = delays(NO_FAULTS, 0.04);
    jittered.forEach((delay, i) => expect(delay! / RETRY_DELAYS_MS[i]!).toBeCloseTo(i % 2 === 0 ? 1.04 : 0.96, 10));
  });

  it.each([
    ['retry-1m-late-20pct', 0, 1.2],
    ['retry-30m-late-20pct', 2, 1.2],
    ['retry-2h-late-20pct', 3, 1.2],
  ] as const)('%s moves exactly one delay by 20%%', (fault, index, factor) => {
    const off = delays(new Set<FaultName>([fault]));
    off.forEach((delay, i) => expect(delay).toBeCloseTo(RETRY_DELAYS_MS[i]! * (i === index ? factor : 1), 6));
  });
});
