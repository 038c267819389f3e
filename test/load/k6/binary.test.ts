import { describe, expect, it } from 'vitest';
import { isV2, k6Env, parseK6Version } from '../../../src/load/k6/binary.js';

describe('k6 binary', () => {
  it('reads the version k6 prints', () => {
    expect(parseK6Version('k6 v2.2.0 (go1.26.8, linux/amd64)')).toBe('v2.2.0');
    expect(parseK6Version('k6-custom v2.2.0 (go1.26.8, linux/amd64)\n')).toBe('v2.2.0');
    expect(parseK6Version('command not found')).toBeUndefined();
    expect(isV2('v2.2.0')).toBe(true);
    expect(isV2('v1.8.1')).toBe(false);
    expect(isV2(undefined)).toBe(false);
  });

  it('always turns automatic extension resolution off', () => {
    expect(k6Env({ K6_AUTO_EXTENSION_RESOLUTION: 'true' }, {}).K6_AUTO_EXTENSION_RESOLUTION).toBe('false');
  });
});
