/**
 * Every setting with a wrong value stops the run at start: exit 2, one line on stderr that
 * names the setting, within seconds, before anything touches a target.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { limiter } from '../support/limit.js';
import { runCertifyChild } from './child.js';

const dir = mkdtempSync(join(tmpdir(), 'hostile-settings-'));
const garbage = join(dir, 'garbage.pem');
writeFileSync(garbage, 'not a certificate\n');
const directory = join(dir, 'a-directory.pem');
mkdirSync(directory);
const limit = limiter(4);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TARGET = { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_TOKEN: 'svc_test_settingsrun0000000' };

const CASES: Array<[string, Record<string, string>, string]> = [
  ['a URL without a scheme', { SVC_BASE_URL: 'staging.example.test', SVC_TOKEN: 'svc_test_x00000' }, 'SVC_BASE_URL'],
  [
    'a control URL of another scheme',
    { ...TARGET, SVC_CONTROL_URL: 'ftp://127.0.0.1/_control', SVC_CONTROL_TOKEN: 'ctl_x' },
    'SVC_CONTROL_URL',
  ],
  [
    'a control URL without its token',
    { ...TARGET, SVC_CONTROL_URL: 'http://127.0.0.1:9/_control' },
    'SVC_CONTROL_TOKEN',
  ],
  [
    'a control interface without a target',
    { SVC_CONTROL_URL: 'http://127.0.0.1:9/_control', SVC_CONTROL_TOKEN: 'ctl_x' },
    'SVC_BASE_URL',
  ],
  ['a port out of range', { ...TARGET, RECEIVER_PORT: '70000' }, 'RECEIVER_PORT'],
  ['a negative port', { ...TARGET, RECEIVER_PORT: '-1' }, 'RECEIVER_PORT'],
  ['a port that is not a number', { ...TARGET, RECEIVER_PORT: 'http' }, 'RECEIVER_PORT'],
  [
    'a public receiver URL without a scheme',
    { ...TARGET, RECEIVER_PUBLIC_URL: 'tunnel.example.test' },
    'RECEIVER_PUBLIC_URL',
  ],
  [
    'a PEM file that does not exist',
    { ...TARGET, RECEIVER_TLS_CERT: join(dir, 'missing.pem'), RECEIVER_TLS_KEY: join(dir, 'missing.pem') },
    'RECEIVER_TLS_CERT',
  ],
  ['a certificate without its key', { ...TARGET, RECEIVER_TLS_CERT: garbage }, 'RECEIVER_TLS_KEY'],
  [
    'an unreadable PEM file (a directory)',
    { RECEIVER_TLS_CERT: directory, RECEIVER_TLS_KEY: directory },
    'RECEIVER_TLS_CERT',
  ],
  [
    'a PEM file that holds no certificate',
    { RECEIVER_TLS_CERT: garbage, RECEIVER_TLS_KEY: garbage },
    'RECEIVER_TLS_CERT',
  ],
  ['an unknown tier', { ...TARGET, CERTIFY_TIER: 'medium' }, 'CERTIFY_TIER'],
  ['a signing key file that holds no private key', { ...TARGET, CERTIFY_SIGNING_KEY: garbage }, 'CERTIFY_SIGNING_KEY'],
  [
    'a signing key that does not exist',
    { ...TARGET, CERTIFY_SIGNING_KEY: join(dir, 'missing.pem') },
    'CERTIFY_SIGNING_KEY',
  ],
  ['an empty target version', { ...TARGET, CERTIFY_TARGET_VERSION: ' ' }, 'CERTIFY_TARGET_VERSION'],
  ['a flag that is not true or false', { ...TARGET, CERTIFY_ALLOW_PRODUCTION: 'maybe' }, 'CERTIFY_ALLOW_PRODUCTION'],
  ['a check selection naming no check', { ...TARGET, CERTIFY_CHECKS: 'AUTH-*,NO-SUCH-CHECK' }, 'CERTIFY_CHECKS'],
  ['an unknown SVC_ name (a typo)', { SVC_BASE_ULR: 'http://127.0.0.1:9' }, 'SVC_BASE_ULR'],
  ['an unknown CERTIFY_ name', { CERTIFY_TEIR: 'fast' }, 'CERTIFY_TEIR'],
];

describe.concurrent('a bad setting', () => {
  it.each(CASES)('%s: exit 2, one line naming it', async (_what, settings, name) => {
    const run = await limit(() => runCertifyChild({ settings, killAfterMs: 60_000 }));
    const lines = run.stderr.split('\n').filter((line) => line.trim() && !line.startsWith('npm warn'));
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(2);
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(run.durationMs).toBeLessThan(30_000);
    expect(run.report, 'a refused run writes no report').toBeUndefined();
  });
});
