import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadReceiverSettings, parseReceiverSettings } from '../../src/config/receiver-settings.js';
import { mask } from '../../src/secrets/mask.js';

const SECRET = 'whsec_settings_test_secret';
const base = { TARGET_RECEIVER_URL: 'https://hooks.example.test/webhooks', TARGET_RECEIVER_SECRET: SECRET };
const dir = mkdtempSync(join(tmpdir(), 'rcv-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('receiver certification settings', () => {
  it('has documented defaults', () => {
    expect(parseReceiverSettings(base)).toEqual({
      url: base.TARGET_RECEIVER_URL,
      secret: SECRET,
      countUrl: undefined,
      timeoutMs: 10_000,
      rate: 50,
      maxRequests: 1_000,
      maxRunMs: 600_000,
      timingSamples: 40,
      insecureTls: false,
      reportDir: 'reports/receiver-latest',
      checks: undefined,
      expectedFailures: undefined,
      strict: false,
      seed: expect.any(Number),
    });
  });

  it('takes the seed from FAST_CHECK_SEED, as certify does, and refuses one that is not a whole number below 2^31', () => {
    expect(parseReceiverSettings({ ...base, FAST_CHECK_SEED: '4242' }).seed).toBe(4242);
    expect(() => parseReceiverSettings({ ...base, FAST_CHECK_SEED: '-1' })).toThrow(
      /FAST_CHECK_SEED must be a whole number/,
    );
    expect(() => parseReceiverSettings({ ...base, FAST_CHECK_SEED: String(2 ** 31) })).toThrow(/FAST_CHECK_SEED/);
  });

  it('trusts self-signed certificates on loopback only, unless told', () => {
    expect(parseReceiverSettings({ ...base, TARGET_RECEIVER_URL: 'https://127.0.0.1:8443/h' }).insecureTls).toBe(true);
    expect(parseReceiverSettings({ ...base, TARGET_RECEIVER_INSECURE_TLS: 'true' }).insecureTls).toBe(true);
  });

  it.each([
    [{ TARGET_RECEIVER_URL: undefined }, 'TARGET_RECEIVER_URL is required'],
    [{ TARGET_RECEIVER_URL: 'hooks.example.test' }, 'TARGET_RECEIVER_URL must be an absolute'],
    [{ TARGET_RECEIVER_SECRET: undefined }, 'TARGET_RECEIVER_SECRET or TARGET_RECEIVER_SECRET_FILE is required'],
    [{ TARGET_RECEIVER_SECRET: 'abc' }, 'TARGET_RECEIVER_SECRET must be at least 6'],
    [
      { TARGET_RECEIVER_SECRET_FILE: '/nonexistent/secret' },
      'TARGET_RECEIVER_SECRET_FILE names a file that does not exist',
    ],
    [{ TARGET_RECEIVER_TIMEOUT_MS: '31000' }, 'TARGET_RECEIVER_TIMEOUT_MS must be a whole number from 100 to 30000'],
    [{ TARGET_RECEIVER_RATE: '500' }, 'TARGET_RECEIVER_RATE must be a whole number from 1 to 50'],
    [{ TARGET_RECEIVER_INSECURE_TLS: 'yes' }, 'TARGET_RECEIVER_INSECURE_TLS must be true or false'],
    [{ TARGET_RECEIVER_TIMEOUT: '100' }, 'unknown setting TARGET_RECEIVER_TIMEOUT'],
  ])('rejects %j naming the setting', (change, message) => {
    const sources = Object.fromEntries(
      Object.entries({ ...base, ...change }).filter(([, v]) => v !== undefined),
    ) as Record<string, string>;
    expect(() => parseReceiverSettings(sources)).toThrow(message);
  });

  it('reads the secret from a file without its line break, and refuses both sources at once', () => {
    const file = join(dir, 'secret');
    writeFileSync(file, 'whsec_from_a_file\n');
    expect(
      parseReceiverSettings({ TARGET_RECEIVER_URL: base.TARGET_RECEIVER_URL, TARGET_RECEIVER_SECRET_FILE: file })
        .secret,
    ).toBe('whsec_from_a_file');
    expect(mask('leaked whsec_from_a_file')).not.toContain('whsec_from_a_file');
    expect(() => parseReceiverSettings({ ...base, TARGET_RECEIVER_SECRET_FILE: file })).toThrow('not both');
  });

  it('masks the secret from the moment settings are read, even when they are wrong', () => {
    const secret = 'plainsecret_not_whsec_shaped';
    expect(() => parseReceiverSettings({ TARGET_RECEIVER_SECRET: secret })).toThrow();
    expect(mask(`x ${secret} y`)).not.toContain(secret);
  });

  it('reads .env under the environment (the environment wins)', () => {
    const cwd = mkdtempSync(join(dir, 'env-'));
    writeFileSync(
      join(cwd, '.env'),
      `TARGET_RECEIVER_URL=https://from-dotenv.example.test/h\nTARGET_RECEIVER_SECRET=${SECRET}\nTARGET_RECEIVER_RATE=10\n`,
    );
    const settings = loadReceiverSettings({ TARGET_RECEIVER_RATE: '20' }, cwd);
    expect(settings).toMatchObject({ url: 'https://from-dotenv.example.test/h', rate: 20 });
  });
});
