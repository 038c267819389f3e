import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  loadSettings,
  networkOf,
  parseSettings,
  ROTATION_DEPLOY_DEFAULT_MS,
  SettingsError,
} from '../../src/config/settings.js';

const made: string[] = [];
const emptyDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'settings-'));
  made.push(dir);
  return dir;
};

describe('settings', () => {
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('defaults to the embedded reference, fast tier and reports/latest', () => {
    const settings = parseSettings({});
    expect(settings.SVC_BASE_URL).toBeUndefined();
    expect(settings.CERTIFY_TIER).toBe('fast');
    expect(settings.CERTIFY_REPORT_DIR).toBe('reports/latest');
    expect(settings.RECEIVER_PORT).toBe(0);
    expect(settings.IDP_PORT).toBe(0);
    expect(settings.IDP_HOST).toBeUndefined();
  });

  it('reads the network settings: a rate, a concurrency, CA and client certificate files', () => {
    const dir = emptyDir();
    const pem = join(dir, 'fake.pem');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nfake\n-----END CERTIFICATE-----\n');
    const settings = parseSettings({
      CERTIFY_RATE_LIMIT: '12.5',
      CERTIFY_CONCURRENCY: '4',
      SVC_CA_CERT: pem,
      SVC_CLIENT_CERT: pem,
      SVC_CLIENT_KEY: pem,
    });
    expect(settings).toMatchObject({ CERTIFY_RATE_LIMIT: 12.5, CERTIFY_CONCURRENCY: 4, SVC_CA_CERT: pem });
    expect(networkOf(settings)).toEqual({ caCertPath: pem, clientCertPath: pem, clientKeyPath: pem });
    expect(parseSettings({}).CERTIFY_CONCURRENCY).toBe(32);
    expect(parseSettings({}).CERTIFY_RATE_LIMIT).toBeUndefined();
  });

  it.each([
    [{ CERTIFY_RATE_LIMIT: '0' }, /CERTIFY_RATE_LIMIT must be a number from 0.1/],
    [{ CERTIFY_RATE_LIMIT: 'fast' }, /CERTIFY_RATE_LIMIT must be a number/],
    [{ CERTIFY_CONCURRENCY: '0' }, /CERTIFY_CONCURRENCY must be a whole number from 1 to 256/],
    [{ SVC_CA_CERT: '/no/such/ca.pem' }, /SVC_CA_CERT names a file that does not exist/],
  ])('refuses a bad network setting %j, naming it', (sources, message) => {
    expect(() => parseSettings(sources)).toThrow(message);
  });

  it('reads the rotation deploy phase in milliseconds, with a default that fits the fast tier', () => {
    expect(parseSettings({ CERTIFY_ROTATION_DEPLOY_MS: '120000' }).CERTIFY_ROTATION_DEPLOY_MS).toBe(120_000);
    expect(parseSettings({}).CERTIFY_ROTATION_DEPLOY_MS).toBe(ROTATION_DEPLOY_DEFAULT_MS);
    expect(() => parseSettings({ CERTIFY_ROTATION_DEPLOY_MS: '500' })).toThrow(
      /CERTIFY_ROTATION_DEPLOY_MS must be from 1000 to 600000 ms/,
    );
    expect(() => parseSettings({ CERTIFY_ROTATION_DEPLOY_MS: '20s' })).toThrow(
      /CERTIFY_ROTATION_DEPLOY_MS must be a whole number of milliseconds/,
    );
  });

  it('wants the client certificate and its key together', () => {
    const dir = emptyDir();
    const pem = join(dir, 'fake.pem');
    writeFileSync(pem, 'fake');
    expect(() => parseSettings({ SVC_CLIENT_CERT: pem })).toThrow(
      /SVC_CLIENT_CERT and SVC_CLIENT_KEY must be given together/,
    );
  });

  it.each(['SVC_BASE_URL', 'CERTIFY_TIER', 'RECEIVER_HOST', 'IDP_PUBLIC_URL'])(
    'refuses %s set but empty, naming it: an undefined CI secret must not certify the bundled reference',
    (name) => {
      expect(() => parseSettings({ [name]: '' })).toThrow(new RegExp(`^${name} is set but empty`));
    },
  );

  it('names every empty setting at once, and ignores empty names outside its prefixes', () => {
    expect(() => parseSettings({ SVC_BASE_URL: '', SVC_TOKEN: '' })).toThrow(
      /SVC_BASE_URL, SVC_TOKEN are set but empty/,
    );
    expect(() => parseSettings({ HTTPS_PROXY: '', REFERENCE_PERSONALITY: '' })).not.toThrow();
  });

  it('refuses an unknown SVC_ name so a typo does not pass silently', () => {
    expect(() => parseSettings({ SVC_BASE_ULR: 'http://x.test' })).toThrow(/unknown setting SVC_BASE_ULR/);
  });

  it('ignores names outside its prefixes', () => {
    expect(() => parseSettings({ PATH: '/usr/bin', HOME: '/root' })).not.toThrow();
  });

  it.each([
    [{ SVC_BASE_URL: 'staging.example.test' }, /SVC_BASE_URL must be an absolute/],
    [{ RECEIVER_PORT: '70000' }, /RECEIVER_PORT must be a port number/],
    [{ RECEIVER_PORT: 'eighty' }, /RECEIVER_PORT must be a port number/],
    [{ CERTIFY_TIER: 'slow' }, /CERTIFY_TIER must be fast or full/],
    [{ IDP_PORT: '65536' }, /IDP_PORT must be a port number/],
    [{ IDP_PUBLIC_URL: 'idp.example.test' }, /IDP_PUBLIC_URL must be an absolute/],
    [{ IDP_TLS_CERT: 'package.json' }, /IDP_TLS_CERT and IDP_TLS_KEY must be given together/],
    [{ IDP_HOTS: '127.0.0.2' }, /unknown setting IDP_HOTS/],
    [
      { RECEIVER_TLS_CERT: '/nonexistent/cert.pem', RECEIVER_TLS_KEY: '/nonexistent/key.pem' },
      /RECEIVER_TLS_CERT names a file that does not exist/,
    ],
    [{ SVC_BASE_URL: 'https://s.test', SVC_CONTROL_URL: 'https://s.test/control' }, /SVC_CONTROL_TOKEN is required/],
    [{ SVC_CONTROL_URL: 'https://s.test/control', SVC_CONTROL_TOKEN: 'fake-control' }, /SVC_BASE_URL is required/],
    [{ SVC_BASE_URL: 'https://s.test', SVC_TOKEN: '   ' }, /SVC_TOKEN is empty/],
    [{ SVC_BASE_URL: 'https://s.test', SVC_TOKEN: 'svc_test_fake ' }, /SVC_TOKEN has leading or trailing whitespace/],
  ])('refuses %j naming the setting', (sources, message) => {
    expect(() => parseSettings(sources as Record<string, string>)).toThrow(SettingsError);
    expect(() => parseSettings(sources as Record<string, string>)).toThrow(message);
  });

  it('strips a trailing slash from URLs', () => {
    expect(parseSettings({ SVC_BASE_URL: 'https://s.test/' }).SVC_BASE_URL).toBe('https://s.test');
  });

  it('reads .env and lets the environment win', () => {
    const dir = emptyDir();
    writeFileSync(join(dir, '.env'), 'CERTIFY_TIER=full\nCERTIFY_REPORT_DIR=from-file\n');
    const settings = loadSettings({ CERTIFY_REPORT_DIR: 'from-env' }, dir);
    expect(settings.CERTIFY_TIER).toBe('full');
    expect(settings.CERTIFY_REPORT_DIR).toBe('from-env');
  });
});
