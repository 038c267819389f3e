import { describe, expect, it } from 'vitest';
import { LOAD_SETTINGS, loadSettingsOf, parseDurationSeconds, toLoadArgs } from '../../scripts/load.js';
import { parseCommandArgs } from '../../src/cli/command.js';
import { loadCommand } from '../../src/cli/commands/load.js';
import { k6Env, parseK6Version, isV2 } from '../../scripts/k6/binary.js';
import { RESERVED_TEST_NUMBER } from '../../src/api/service.js';
import { readFileSync } from 'node:fs';

const KNOWN = ['calls', 'calls-ramp', 'fanout', 'rotation'];
const parseArgs = (argv: string[], known: string[]) => toLoadArgs(parseCommandArgs(loadCommand, argv), known);

describe('svc-harness load arguments', () => {
  it('runs every scenario by default', () => {
    expect(parseArgs([], KNOWN).scenarios).toEqual(KNOWN);
  });

  it('takes scenarios and options', () => {
    const args = parseArgs(['calls', '--smoke', '--baseline', 'b.json', '--tolerance', '15', '--allow-production'], KNOWN);
    expect(args).toMatchObject({ scenarios: ['calls'], smoke: true, baseline: 'b.json', tolerance: 0.15, allowProduction: true });
  });

  it('refuses an unknown scenario or option', () => {
    expect(() => parseArgs(['callz'], KNOWN)).toThrow(/unknown scenario callz/);
    expect(() => parseArgs(['--fast'], KNOWN)).toThrow(/Unknown option '--fast'/);
    expect(() => parseArgs(['--baseline'], KNOWN)).toThrow(/--baseline <value>' argument missing/);
    expect(() => parseArgs(['--tolerance', 'lots'], KNOWN)).toThrow(/percentage/);
  });

  it('refuses unknown LOAD_ settings and the ones it sets itself', () => {
    expect(loadSettingsOf({ LOAD_RATE: '5', PATH: '/bin' })).toEqual({ LOAD_RATE: '5' });
    expect(() => loadSettingsOf({ LOAD_RAET: '5' })).toThrow(/unknown setting LOAD_RAET/);
    expect(() => loadSettingsOf({ LOAD_OLD_TOKEN: 'x' })).toThrow(/set by npm run load itself/);
    expect(LOAD_SETTINGS).toContain('LOAD_DURATION');
  });

  it('reads k6 durations', () => {
    expect(parseDurationSeconds('1m30s')).toBe(90);
    expect(parseDurationSeconds('500ms')).toBe(0.5);
    expect(parseDurationSeconds('12')).toBe(12);
    expect(() => parseDurationSeconds('soon')).toThrow(/not a duration/);
  });
});

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

describe('load scripts', () => {
  it('call the reserved test number, the same as the harness', () => {
    expect(readFileSync(new URL('../../load/lib/target.ts', import.meta.url), 'utf8')).toContain(`RESERVED_TEST_NUMBER = '${RESERVED_TEST_NUMBER}'`);
  });
});
