/** What the harness's own clock is, said in one line. */
import { describe, expect, test } from 'vitest';
import { describeHarnessClock, harnessClock } from '../../src/clock/source.js';

describe('harnessClock', () => {
  test('names what it reads and says unknown where nothing tells', () => {
    const clock = harnessClock();
    expect(clock.reads).toBe('Date.now (system wall clock)');
    expect(clock.kernel_clocksource.length).toBeGreaterThan(0);
    expect(clock.kernel_clocksource.length).toBeLessThanOrEqual(40);
    expect(['yes', 'unknown']).toContain(clock.ntp_synchronized);
  });

  test('describes a clock in one line', () => {
    expect(
      describeHarnessClock({
        reads: 'Date.now (system wall clock)',
        kernel_clocksource: 'tsc',
        ntp_synchronized: 'unknown',
      }),
    ).toBe('harness clock: Date.now (system wall clock), kernel clocksource tsc, NTP synchronised: unknown');
  });
});
