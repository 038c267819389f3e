import { describe, expect, it } from 'vitest';
import { ClockOffset, skewBounds } from '../../src/clock/date-offset.js';
import { ranks, signatureWithPrefix, spearman, summarizeTiming } from '../../src/receiver-cert/timing.js';

const RIGHT = 'a551d12f05e5419266de84d8146e243b61565bf6f7016ea9eb5209b144fec3e4';

describe('timing statistics', () => {
  it('ranks ties with their average rank', () => {
    expect(ranks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });

  it('spearman is 1 for any increasing relation and 0 without one', () => {
    expect(spearman([1, 2, 3, 4], [1, 8, 27, 64])).toBeCloseTo(1);
    expect(spearman([1, 2, 3, 4], [5, 5, 5, 5])).toBe(0);
  });

  it('a signature with a prefix shares exactly that many leading characters, same length and alphabet', () => {
    for (const prefix of [0, 16, 32, 48, 63]) {
      const sig = signatureWithPrefix(RIGHT, prefix);
      expect(sig).toMatch(/^[0-9a-f]{64}$/);
      expect(sig.slice(0, prefix)).toBe(RIGHT.slice(0, prefix));
      expect(sig[prefix]).not.toBe(RIGHT[prefix]);
    }
  });

  it('flags a time that grows with the matching prefix, and not flat noise', () => {
    const leak = [0, 16, 32, 48, 63].flatMap((prefix) =>
      Array.from({ length: 10 }, (_, i) => ({ prefix, ms: 1 + prefix * 0.05 + (i % 3) * 0.1 })),
    );
    const flat = [0, 16, 32, 48, 63].flatMap((prefix) =>
      Array.from({ length: 10 }, (_, i) => ({ prefix, ms: 1 + ((i * 7 + prefix) % 5) * 0.1 })),
    );
    expect(summarizeTiming(leak)).toMatchObject({ leakSuspected: true, spreadMs: 3.15 });
    expect(summarizeTiming(leak).slopeUsPerChar).toBeCloseTo(50, 0);
    expect(summarizeTiming(flat).leakSuspected).toBe(false);
  });
});

describe('clock offset from Date headers', () => {
  it('narrows the offset to the intersection of the answers', () => {
    const clock = new ClockOffset();
    // Receiver 2.3 s ahead; answers take 10 ms.
    for (const sentAtMs of [1_000_000, 1_000_250, 1_000_500, 1_000_750, 1_001_100]) {
      clock.add(new Date(Math.floor((sentAtMs + 5 + 2_300) / 1000) * 1000).toUTCString(), sentAtMs, sentAtMs + 10);
    }
    const est = clock.estimate();
    expect(est.basis).toBe('date-headers');
    expect(est.lo).toBeLessThanOrEqual(2.3);
    expect(est.hi).toBeGreaterThanOrEqual(2.3);
    expect(est.hi - est.lo).toBeLessThan(0.3);
  });

  it('narrows one sample to a few ms with probes timed on the receiver second boundaries', () => {
    const offsetS = 0.37;
    const rttMs = 2;
    const dateAt = (localMs: number) => new Date(Math.floor((localMs + offsetS * 1000) / 1000) * 1000).toUTCString();
    const clock = new ClockOffset();
    let now = 5_000_123;
    clock.add(dateAt(now + rttMs / 2), now, now + rttMs);
    for (let round = 0; round < 8; round++) {
      now = clock.nextProbeAtMs(now + rttMs, rttMs);
      clock.add(dateAt(now + rttMs / 2), now, now + rttMs);
    }
    const est = clock.estimate();
    expect(est.lo).toBeLessThanOrEqual(offsetS);
    expect(est.hi).toBeGreaterThanOrEqual(offsetS);
    expect(est.hi - est.lo).toBeLessThan(0.02);
  });

  it('assumes ±2 s without any Date header, and says so', () => {
    expect(new ClockOffset().estimate()).toMatchObject({ lo: -2, hi: 2, basis: 'assumed' });
  });

  it('falls back to the median when the headers disagree', () => {
    const clock = new ClockOffset();
    clock.add(new Date(1_000_000).toUTCString(), 1_000_000, 1_000_010);
    clock.add(new Date(1_060_000).toUTCString(), 1_000_020, 1_000_030);
    expect(clock.estimate().basis).toBe('inconsistent-date-headers');
  });

  it('bounds the skew a receiver saw by the offset and the time in flight', () => {
    const est = { lo: -0.1, hi: 0.1, offset: 0, samples: 3, basis: 'date-headers' as const };
    const { behind, ahead } = skewBounds(1_000 - 301, 1_000_000, 1_000_050, est);
    expect(behind[0]).toBeCloseTo(300.9);
    expect(behind[1]).toBeCloseTo(301.15);
    expect(ahead[1]).toBeCloseTo(-300.9);
  });
});
