import { describe, expect, it } from 'vitest';
import { durationSeconds } from '../../load/lib/duration.js';
import { k6EnvOf, loadSettingsHelp, parseLoadSettings } from '../../src/config/load-settings.js';

describe('load settings', () => {
  it('refuses unknown LOAD_ settings and the ones it sets itself', () => {
    expect(parseLoadSettings({ LOAD_RATE: '5', PATH: '/bin' }).LOAD_RATE).toBe(5);
    expect(
      parseLoadSettings({ LOAD_PROMETHEUS_RW_URL: 'https://prom.example.test/api/v1/write' }).LOAD_PROMETHEUS_RW_URL,
    ).toBe('https://prom.example.test/api/v1/write');
    expect(() => parseLoadSettings({ LOAD_RAET: '5' })).toThrow(
      /unknown setting LOAD_RAET \(known: LOAD_RATE, LOAD_DURATION/,
    );
    expect(() => parseLoadSettings({ LOAD_OLD_TOKEN: 'x' })).toThrow(
      /LOAD_OLD_TOKEN is set by npm run load itself; remove it/,
    );
  });

  it('has the defaults the k6 scripts fall back to', () => {
    expect(parseLoadSettings({})).toEqual({
      LOAD_P95_MS: 500,
      LOAD_P99_MS: 1000,
      LOAD_MAX_ERROR_RATE: 0.01,
      LOAD_ABORT_ON_FAIL: true,
      LOAD_ENDPOINTS: 25,
      LOAD_FANOUT_P95_MS: 1000,
      LOAD_FANOUT_P99_MS: 2000,
      LOAD_RECEIVER_WORKERS: 1,
      LOAD_FANOUT_MAX_LOSS: 0,
      LOAD_REVOCATION_GRACE_S: 5,
      LOAD_INSTANCES: 1,
      LOAD_REPORT_DIR: 'reports/load',
      LOAD_ALLOW_PRODUCTION: false,
    });
  });

  it.each([
    [{ LOAD_RATE: 'fast' }, 'LOAD_RATE must be a whole number from 1 to 100000'],
    [{ LOAD_RATE: '2.5' }, 'LOAD_RATE must be a whole number'],
    [{ LOAD_DURATION: 'soon' }, 'LOAD_DURATION: not a duration: soon (use e.g. 20s, 1m30s)'],
    [{ LOAD_MAX_ERROR_RATE: '5%' }, 'LOAD_MAX_ERROR_RATE must be a number from 0 to 1'],
    [{ LOAD_ENDPOINTS: '30' }, 'LOAD_ENDPOINTS must be a whole number from 1 to 25'],
    [{ LOAD_ABORT_ON_FAIL: 'no' }, 'LOAD_ABORT_ON_FAIL must be true or false'],
    [{ LOAD_TOKEN: ' svc_test_x' }, 'LOAD_TOKEN has leading or trailing whitespace'],
    [{ LOAD_FANOUT_MAX_LOSS: '2' }, 'LOAD_FANOUT_MAX_LOSS must be a number from 0 to 1'],
    [{ LOAD_REVOCATION_GRACE_S: '61' }, 'LOAD_REVOCATION_GRACE_S must be a number from 0 to 60'],
    [{ LOAD_PROMETHEUS_RW_URL: 'prometheus:9090' }, 'LOAD_PROMETHEUS_RW_URL must be an http or https URL'],
    [{ LOAD_PROMETHEUS_RW_URL: 'not a url' }, 'LOAD_PROMETHEUS_RW_URL must be an http or https URL'],
  ])('refuses %j naming the setting', (sources, message) => {
    expect(() => parseLoadSettings(sources)).toThrow(message);
  });

  it('gives k6 the values as it reads them: durations as written, flags as true or false', () => {
    const env = k6EnvOf(
      parseLoadSettings({ LOAD_DURATION: '1m30s', LOAD_ABORT_ON_FAIL: '0', LOAD_MAX_ERROR_RATE: '0.05' }),
    );
    expect(env).toMatchObject({
      LOAD_DURATION: '1m30s',
      LOAD_ABORT_ON_FAIL: 'false',
      LOAD_MAX_ERROR_RATE: '0.05',
      LOAD_P95_MS: '500',
    });
    expect(env).not.toHaveProperty('LOAD_RATE');
  });

  it('describes every setting for --help, with its default', () => {
    const help = loadSettingsHelp();
    expect(help.find((s) => s.name === 'LOAD_MAX_VUS')).toEqual({
      name: 'LOAD_MAX_VUS',
      description:
        'VU cap of arrival-rate executors; default the rate × LOAD_P99_MS × 1.5 + 2, what holds the in-flight requests at the p99 budget',
    });
    expect(help.find((s) => s.name === 'LOAD_DURATION')?.default).toBeUndefined();
    expect(help.every((s) => s.description !== '')).toBe(true);
  });

  it('reads k6 durations', () => {
    expect(durationSeconds('1m30s')).toBe(90);
    expect(durationSeconds('500ms')).toBe(0.5);
    expect(durationSeconds('12')).toBe(12);
    expect(() => durationSeconds('soon')).toThrow(/not a duration/);
  });
});
