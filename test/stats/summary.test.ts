import { describe, expect, it } from 'vitest';
import { median, quantile, quantileOfSorted, round1 } from '../../src/stats/summary.js';

describe('order statistics', () => {
  it('interpolates between the sorted values around q × (n − 1), as k6 does', () => {
    expect(quantileOfSorted([10, 20, 30, 40], 0.5)).toBe(25);
    expect(quantileOfSorted([10, 20, 30, 40], 0.9)).toBeCloseTo(37, 10);
    expect(quantileOfSorted([10, 20, 30, 40], 0)).toBe(10);
    expect(quantileOfSorted([10, 20, 30, 40], 1)).toBe(40);
  });

  it('sorts values given in any order, without changing them', () => {
    const values = [40, 10, 30, 20];
    expect(quantile(values, 0.25)).toBe(17.5);
    expect(values).toEqual([40, 10, 30, 20]);
  });

  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('has no value for no values', () => {
    expect(median([])).toBeNaN();
    expect(quantileOfSorted([], 0.99)).toBeNaN();
  });

  it('rounds to one decimal place', () => {
    expect(round1(12.345)).toBe(12.3);
    expect(round1(-0.06)).toBe(-0.1);
  });
});
