import { describe, expect, it } from 'vitest';
import { parseDurationSeconds } from '../../src/load/k6-run.js';

describe('k6 run', () => {
  it('reads k6 durations', () => {
    expect(parseDurationSeconds('1m30s')).toBe(90);
    expect(parseDurationSeconds('500ms')).toBe(0.5);
    expect(parseDurationSeconds('12')).toBe(12);
    expect(() => parseDurationSeconds('soon')).toThrow(/not a duration/);
  });
});
