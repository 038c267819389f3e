/** A peer's clock offset from its Date headers: one-second resolution, narrowed over answers. */
import { describe, expect, test } from 'vitest';
import { ASSUMED_OFFSET_BOUND_S, ClockOffset, skewBounds, wholeSecondsAhead } from '../../src/clock/date-offset.js';

const header = (ms: number) => new Date(ms).toUTCString();

describe('ClockOffset', () => {
  test('without a Date header the clocks are assumed to agree within the stated bound', () => {
    const clock = new ClockOffset();
    clock.add(undefined, 0, 10);
    clock.add('not a date', 0, 10);
    expect(clock.estimate()).toEqual({
      lo: -ASSUMED_OFFSET_BOUND_S,
      hi: ASSUMED_OFFSET_BOUND_S,
      offset: 0,
      samples: 0,
      basis: 'assumed',
    });
  });

  test('one answer bounds the offset within a second and its round trip; more answers narrow it', () => {
    const offsetMs = 40_300; // the peer's clock ahead of ours
    const clock = new ClockOffset();
    const base = 1_700_000_000_000;
    clock.add(header(base + offsetMs), base, base + 50);
    const one = clock.estimate();
    expect(one.basis).toBe('date-headers');
    expect(one.lo).toBeLessThanOrEqual(offsetMs / 1000);
    expect(one.hi).toBeGreaterThanOrEqual(offsetMs / 1000);
    expect(one.hi - one.lo).toBeLessThanOrEqual(1.05);
    clock.add(header(base + 500 + offsetMs), base + 500, base + 550);
    const two = clock.estimate();
    expect(two.hi - two.lo).toBeLessThan(one.hi - one.lo);
    expect(two.lo).toBeLessThanOrEqual(offsetMs / 1000);
    expect(two.hi).toBeGreaterThanOrEqual(offsetMs / 1000);
  });

  test('answers whose intervals never meet (several clocks behind one URL) are called inconsistent', () => {
    const clock = new ClockOffset();
    clock.add(header(10_000), 0, 10);
    clock.add(header(100_000), 100, 110);
    expect(clock.estimate().basis).toBe('inconsistent-date-headers');
  });

  test('the next probe is timed to reach the peer as its clock turns a second', () => {
    const clock = new ClockOffset();
    clock.add(header(1_700_000_000_000), 1_700_000_000_000, 1_700_000_000_000);
    const at = clock.nextProbeAtMs(1_700_000_000_200, 40);
    expect(at).toBeGreaterThanOrEqual(1_700_000_000_200 - 1000);
    const arrivalPeerS = (at + 20) / 1000 + clock.estimate().offset;
    expect(Math.abs(arrivalPeerS - Math.round(arrivalPeerS))).toBeLessThan(0.05);
  });
});

describe('wholeSecondsAhead and skewBounds', () => {
  test('whole seconds a peer is ahead by one header, 0 without one', () => {
    const now = 1_700_000_000_500; // mid-second: the header's second puts the midpoint on the whole offset
    expect(wholeSecondsAhead(header(now + 30_000), now, 0)).toBe(30);
    expect(wholeSecondsAhead(header(now - 30_000), now, 0)).toBe(-30);
    expect(wholeSecondsAhead(undefined, now)).toBe(0);
  });

  test('bounds a timestamp against the peer clock while it answered', () => {
    const bounds = skewBounds(100, 100_000, 101_000, { lo: -1, hi: 1, offset: 0, samples: 1, basis: 'date-headers' });
    expect(bounds).toEqual({ behind: [-1, 2], ahead: [-2, 1] });
  });
});
