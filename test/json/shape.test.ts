import { describe, expect, it } from 'vitest';
import { isObject } from '../../src/json/shape.js';

describe('isObject', () => {
  it('holds for a JSON object only', () => {
    expect(isObject({})).toBe(true);
    expect(isObject({ a: 1 })).toBe(true);
    for (const value of [null, undefined, [], [1], 'x', 1, true]) expect(isObject(value)).toBe(false);
  });
});
