/** The reference's identifiers (reference/ids.ts): their alphabet, length and spread across pool refills. */
import { describe, expect, it } from 'vitest';
import { newHexId, newId, randomBase62 } from '../../reference/ids.js';

describe('reference ids', () => {
  it("gives exactly the length asked for, across the pool's refills and beyond its size", () => {
    for (const length of [0, 1, 20, 40, 8191, 8192, 20_000]) {
      const text = randomBase62(length);
      expect(text).toHaveLength(length);
      expect(text).toMatch(/^[A-Za-z0-9]*$/);
    }
  });

  it('mints distinct ids of a prefix and 20 base62 characters, and hex ids of 32 hex digits', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('call_'));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^call_[A-Za-z0-9]{20}$/);
    const hex = Array.from({ length: 2_000 }, () => newHexId('call_'));
    expect(new Set(hex).size).toBe(hex.length);
    for (const id of hex) expect(id).toMatch(/^call_[0-9a-f]{32}$/);
  });

  it('uses all 62 characters about equally (no modulo bias)', () => {
    const text = randomBase62(62 * 2_000);
    const counts = new Map<string, number>();
    for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Each count is Binomial(124000, 1/62): mean 2000, sd about 44; ±300 is beyond 6 sd.
    // A byte % 62 without rejection would give the first 8 characters about 2420 and the rest 1940.
    for (const count of counts.values()) expect(Math.abs(count - 2_000)).toBeLessThan(300);
  });
});
