import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, test } from 'vitest';
import { SettingsError } from '../../src/errors.js';
import {
  loadReferenceSettings,
  parseReferenceSettings,
  referenceSettingsHelp,
} from '../../src/config/reference-settings.js';
import { mask } from '../../src/secrets/mask.js';

// REFERENCE_* variables → the typed options the reference takes; one malformed value, one
// error naming the variable with an example.

const dir = mkdtempSync(join(tmpdir(), 'reference-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pem = (name: string): string => {
  const path = join(dir, name);
  writeFileSync(path, 'not checked here: the reference reads it');
  return path;
};
const options = (sources: Record<string, string>) => parseReferenceSettings(sources).options;

describe('reference settings', () => {
  test('nothing set asks for nothing', () => {
    expect(parseReferenceSettings({ PATH: '/usr/bin' })).toEqual({
      options: {},
      tokenFile: 'reports/reference-control-token',
    });
  });

  test('every variable in its documented form', () => {
    const [cert, key, ca] = [pem('server.pem'), pem('server-key.pem'), pem('ca.pem')];
    const settings = parseReferenceSettings({
      REFERENCE_PORT: '8443',
      REFERENCE_PROPAGATION_MS: '500',
      REFERENCE_ENVIRONMENT: 'production',
      REFERENCE_CONTROL_TOKEN: 'ctl_settings_test_token',
      REFERENCE_PUBLIC_BASE_URL: 'https://public.example.test/',
      REFERENCE_PERSONALITY: 'alternate',
      REFERENCE_OUTBOUND_HOST: '127.0.0.2',
      REFERENCE_LATENCY_MS: '60,5',
      REFERENCE_RATE_LIMIT: '10/workspace, 50/client, retry-after=date',
      REFERENCE_RESET_FRACTION: '0.01',
      REFERENCE_SEED: '42',
      REFERENCE_MAX_TIME_SCALE: '600',
      REFERENCE_TLS_CERT: cert,
      REFERENCE_TLS_KEY: key,
      REFERENCE_TLS_CLIENT_CA: ca,
      REFERENCE_TOKEN_FILE: '/tmp/token',
    });
    expect(settings).toEqual({
      options: {
        port: 8443,
        propagationMs: 500,
        environment: 'production',
        controlToken: 'ctl_settings_test_token',
        publicBaseUrl: 'https://public.example.test',
        personality: 'alternate',
        outboundHost: '127.0.0.2',
        network: {
          latencyMs: 60,
          jitterMs: 5,
          rateLimit: { perWorkspace: 10, perClient: 50, retryAfter: 'date' },
          resetFraction: 0.01,
          seed: 42,
        },
        maxTimeScale: 600,
        tls: { certPath: cert, keyPath: key, clientCaPath: ca },
      },
      tokenFile: '/tmp/token',
    });
  });

  test('a latency alone has no jitter; one rate alone is enough', () => {
    expect(options({ REFERENCE_LATENCY_MS: '60', REFERENCE_RATE_LIMIT: '50/client' })).toEqual({
      network: { latencyMs: 60, jitterMs: 0, rateLimit: { perClient: 50 } },
    });
  });

  test.each([
    ['REFERENCE_LATENCY_MS', '60±5', /REFERENCE_LATENCY_MS.*e\.g\. 60 or 60,5/],
    ['REFERENCE_LATENCY_MS', '-1', /REFERENCE_LATENCY_MS.*60,5/],
    ['REFERENCE_LATENCY_MS', '5,60', /REFERENCE_LATENCY_MS.*jitter no larger/],
    ['REFERENCE_RATE_LIMIT', '10', /REFERENCE_RATE_LIMIT.*e\.g\. 10\/workspace,50\/client/],
    ['REFERENCE_RATE_LIMIT', '10/workspace,20/workspace', /REFERENCE_RATE_LIMIT.*each once/],
    ['REFERENCE_RATE_LIMIT', '0/client', /REFERENCE_RATE_LIMIT/],
    ['REFERENCE_RATE_LIMIT', '10/client,retry-after=minutes', /REFERENCE_RATE_LIMIT.*seconds, date or none/],
    ['REFERENCE_RATE_LIMIT', '10/client,retry-after=toString', /REFERENCE_RATE_LIMIT.*seconds, date or none/],
    ['REFERENCE_RATE_LIMIT', 'retry-after=date', /REFERENCE_RATE_LIMIT.*at least one rate/],
    ['REFERENCE_RESET_FRACTION', '1', /REFERENCE_RESET_FRACTION.*e\.g\. 0\.01/],
    ['REFERENCE_RESET_FRACTION', '1%', /REFERENCE_RESET_FRACTION.*e\.g\. 0\.01/],
    ['REFERENCE_SEED', '1.5', /REFERENCE_SEED.*e\.g\. 42/],
    ['REFERENCE_MAX_TIME_SCALE', '0.5', /REFERENCE_MAX_TIME_SCALE.*e\.g\. 600/],
    ['REFERENCE_MAX_TIME_SCALE', 'fast', /REFERENCE_MAX_TIME_SCALE.*e\.g\. 600/],
    ['REFERENCE_PORT', '70000', /^REFERENCE_PORT must be a port number from 0 to 65535$/],
    ['REFERENCE_PROPAGATION_MS', 'soon', /^REFERENCE_PROPAGATION_MS must be a whole number/],
    ['REFERENCE_ENVIRONMENT', 'prod', /^REFERENCE_ENVIRONMENT must be staging or production, got "prod"$/],
    [
      'REFERENCE_PERSONALITY',
      'lenient',
      /^REFERENCE_PERSONALITY must be reference or alternate or jsonwebtoken, got "lenient"$/,
    ],
    ['REFERENCE_OUTBOUND_HOST', 'http://127.0.0.2/', /^REFERENCE_OUTBOUND_HOST must be a host name or address/],
    ['REFERENCE_CONTROL_TOKEN', ' ctl_padded', /^REFERENCE_CONTROL_TOKEN has leading or trailing whitespace$/],
    [
      'REFERENCE_PUBLIC_BASE_URL',
      'public.example.test',
      /^REFERENCE_PUBLIC_BASE_URL must be an absolute http:\/\/ or https:\/\/ URL/,
    ],
  ])('%s=%s is refused with the variable and an example', (name, value, message) => {
    expect(() => parseReferenceSettings({ [name]: value })).toThrow(message);
    expect(() => parseReferenceSettings({ [name]: value })).toThrow(SettingsError);
  });

  test('TLS needs both the certificate and the key; a client CA needs both', () => {
    expect(() => parseReferenceSettings({ REFERENCE_TLS_CERT: 'c.pem' })).toThrow(
      /REFERENCE_TLS_KEY must be set with REFERENCE_TLS_CERT.*e\.g\./,
    );
    expect(() => parseReferenceSettings({ REFERENCE_TLS_KEY: 'k.pem' })).toThrow(
      /REFERENCE_TLS_CERT must be set with REFERENCE_TLS_KEY/,
    );
    expect(() => parseReferenceSettings({ REFERENCE_TLS_CLIENT_CA: 'ca.pem' })).toThrow(
      /REFERENCE_TLS_CLIENT_CA needs REFERENCE_TLS_CERT and REFERENCE_TLS_KEY/,
    );
  });

  test('a TLS path that names no file is refused before the reference starts', () => {
    expect(() =>
      parseReferenceSettings({ REFERENCE_TLS_CERT: join(dir, 'absent.pem'), REFERENCE_TLS_KEY: pem('key.pem') }),
    ).toThrow(/^REFERENCE_TLS_CERT names a file that does not exist$/);
  });

  test('a set-but-empty REFERENCE_ setting is refused, naming every one: an undefined CI secret must not start a plainer reference', () => {
    expect(() => parseReferenceSettings({ REFERENCE_TLS_CERT: '' })).toThrow(/^REFERENCE_TLS_CERT is set but empty/);
    expect(() => parseReferenceSettings({ REFERENCE_LATENCY_MS: '', REFERENCE_PERSONALITY: '' })).toThrow(
      /^REFERENCE_LATENCY_MS, REFERENCE_PERSONALITY are set but empty/,
    );
    expect(() => parseReferenceSettings({ REFERENCE_LATENCY_MS: '' })).toThrow(SettingsError);
  });

  test('an unknown REFERENCE_ name is a typo, refused with the known ones', () => {
    expect(() => parseReferenceSettings({ REFERENCE_LATENCY: '60' })).toThrow(
      /^unknown setting REFERENCE_LATENCY \(known: REFERENCE_PORT, /,
    );
  });

  test('names outside REFERENCE_ are not its own, empty or not', () => {
    expect(options({ HTTPS_PROXY: '', SVC_BASE_URL: '', ASSERT_REFERENCE_URL: 'x' })).toEqual({});
  });

  test('masks the control token from the moment settings are read, even when they are wrong', () => {
    const token = 'ctl_reference_settings_secret';
    expect(() => parseReferenceSettings({ REFERENCE_CONTROL_TOKEN: token, REFERENCE_PORT: 'x' })).toThrow();
    expect(mask(`x ${token} y`)).not.toContain(token);
  });

  test('reads .env under the environment (the environment wins)', () => {
    const cwd = mkdtempSync(join(dir, 'env-'));
    writeFileSync(join(cwd, '.env'), 'REFERENCE_PERSONALITY=alternate\nREFERENCE_MAX_TIME_SCALE=600\n');
    expect(loadReferenceSettings({ REFERENCE_MAX_TIME_SCALE: '60' }, cwd).options).toEqual({
      personality: 'alternate',
      maxTimeScale: 60,
    });
  });

  it('describes every setting for --help, with the default the reference applies', () => {
    const help = referenceSettingsHelp();
    expect(help.every((s) => s.name.startsWith('REFERENCE_') && s.description !== '')).toBe(true);
    expect(help.find((s) => s.name === 'REFERENCE_MAX_TIME_SCALE')).toEqual({
      name: 'REFERENCE_MAX_TIME_SCALE',
      description: 'the largest time scale a workspace may have',
      default: '3600',
    });
    expect(help.find((s) => s.name === 'REFERENCE_PORT')?.default).toBe('0');
    expect(help.find((s) => s.name === 'REFERENCE_TOKEN_FILE')?.default).toBe('reports/reference-control-token');
    expect(help.find((s) => s.name === 'REFERENCE_LATENCY_MS')?.default).toBeUndefined();
  });
});
