/**
 * `certify receiver` takes the flags `certify` has (--checks, --seed, --rerun-failed,
 * --report-dir, --expected-failures, --strict), run as a team would, in-process through
 * main, against the example receivers on express: the one that verifies
 * JSON.stringify(req.body) fails RCV-ACCEPT-RAW-BODIES, the raw-body one passes it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReceiverApp as rawBodyReceiver } from '../../examples/receivers/express-raw-body.js';
import { createReceiverApp as reserializingReceiver } from '../../examples/receivers/express-json-reserialized.js';
import { main } from '../../src/cli/main.js';
import type { RunReport } from '../../src/report/model.js';
import { createSelfSignedCertificate, type SelfSignedCertificate } from '../../src/tls/self-signed.js';
import { serveHttps, type ServedApp } from '../support/serve-app.js';

const SECRET = 'whsec_receiver_flags_5ecret';
const RAW = 'RCV-ACCEPT-RAW-BODIES';
const CHECKS = `${RAW},RCV-ACCEPT-EVENT-TYPES`;

let dir: string;
let tls: SelfSignedCertificate;
const served: ServedApp[] = [];
let reserializing: string;
let rawBody: string;

async function serve(app: Express): Promise<string> {
  const handle = await serveHttps(app, tls);
  served.push(handle);
  return handle.url;
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** `svc-harness certify receiver <args>` against `url`: exit code, console, and the report it wrote. */
async function certifyReceiver(
  url: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string; report?: RunReport; reportDir: string }> {
  const reportDir = mkdtempSync(join(dir, 'reports-'));
  const out: string[] = [];
  const err: string[] = [];
  vi.stubEnv('TARGET_RECEIVER_URL', url);
  vi.stubEnv('TARGET_RECEIVER_SECRET', SECRET);
  vi.stubEnv('TARGET_RECEIVER_TIMING_SAMPLES', '0');
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  try {
    const code = await main(['certify', 'receiver', '--report-dir', reportDir, ...args]);
    let report: RunReport | undefined;
    try {
      report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as RunReport;
    } catch {
      report = undefined;
    }
    return { code, stdout: out.join(''), stderr: err.join(''), reportDir, ...(report ? { report } : {}) };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    vi.unstubAllEnvs();
  }
}

const verdicts = (report: RunReport | undefined) =>
  Object.fromEntries((report?.checks ?? []).map((check) => [check.id, check.verdict]));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'receiver-flags-'));
  tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'] });
  reserializing = await serve(reserializingReceiver(SECRET));
  rawBody = await serve(rawBodyReceiver(SECRET));
});

afterAll(async () => {
  await Promise.all(served.map((app) => app.close()));
  if (tls) rmSync(dirname(tls.certPath), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

describe('certify receiver: --checks, --seed, --report-dir, --rerun-failed', () => {
  it('runs only the checks named, with the seed given, into the report directory given', async () => {
    const run = await certifyReceiver(reserializing, '--checks', CHECKS, '--seed', '4242');
    expect(run.code).toBe(1);
    expect(verdicts(run.report)).toEqual({ 'RCV-ACCEPT-EVENT-TYPES': 'pass', [RAW]: 'fail' });
    expect(run.report?.seed).toBe(4242);
    expect(run.stdout).toContain('seed 4242');
  }, 30_000);

  it('--rerun-failed runs again what failed there, with its seed', async () => {
    const first = await certifyReceiver(reserializing, '--checks', CHECKS, '--seed', '77');
    const again = await certifyReceiver(reserializing, '--rerun-failed', join(first.reportDir, 'report.json'));
    expect(Object.keys(verdicts(again.report))).toEqual([RAW]);
    expect(again.report?.seed).toBe(77);
  }, 30_000);

  it('a check id that names nothing stops the run (exit 2)', async () => {
    const run = await certifyReceiver(reserializing, '--checks', 'RCV-NOTHING-*');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/TARGET_RECEIVER_CHECKS names no check for: RCV-NOTHING-\*/);
  });
});

describe('certify receiver --expected-failures', () => {
  it('an expected failure does not fail the run, and is reported as expected', async () => {
    const expected = file(
      'raw.yaml',
      `expected_failures:\n  - id: ${RAW}\n    reason: our framework parses JSON before we see the body (HOOKS-12)\n`,
    );
    const run = await certifyReceiver(reserializing, '--checks', CHECKS, '--expected-failures', expected);
    expect(run.code).toBe(0);
    expect(run.report?.checks.find((check) => check.id === RAW)?.expected_failure?.status).toBe('still-failing');
    expect(run.stdout).toContain(`still failing, as expected (not failing the run): ${RAW}`);
    expect(readFileSync(join(run.reportDir, 'junit.xml'), 'utf8')).toContain(
      '<skipped type="expected-failure" message="expected failure: our framework parses JSON before we see the body (HOOKS-12)">',
    );
  }, 30_000);

  it('an expected failure now fixed is reported "remove it"; exit 0, and 1 with --strict', async () => {
    const expected = file(
      'fixed.yaml',
      `expected_failures:\n  - id: ${RAW}\n    reason: fixed by keeping the raw body\n`,
    );
    const lenient = await certifyReceiver(rawBody, '--checks', CHECKS, '--expected-failures', expected);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain(`fixed: remove them from ${expected}: ${RAW}`);
    const strict = await certifyReceiver(rawBody, '--checks', CHECKS, '--expected-failures', expected, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.report?.expected_failures).toEqual({ file: expected, strict: true });
  }, 30_000);

  it('an expired entry counts as a plain failure', async () => {
    const expected = file(
      'expired.yaml',
      `expected_failures:\n  - id: ${RAW}\n    reason: was to be fixed in 2025\n    expires: 2025-12-31\n`,
    );
    const run = await certifyReceiver(reserializing, '--checks', CHECKS, '--expected-failures', expected);
    expect(run.code).toBe(1);
    expect(run.report?.checks.find((check) => check.id === RAW)?.expected_failure?.status).toBe('expired');
  }, 30_000);

  it('an unknown check id in the file, or a service check, is a settings error (exit 2) before anything is sent', async () => {
    const unknown = await certifyReceiver(
      reserializing,
      '--expected-failures',
      file('typo.yaml', 'expected_failures:\n  - { id: RCV-ACCEPT-RAW-BODY, reason: typo }\n'),
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown check id RCV-ACCEPT-RAW-BODY/);
    expect(unknown.report).toBeUndefined();
    const service = await certifyReceiver(
      reserializing,
      '--expected-failures',
      file('service.yaml', 'expected_failures:\n  - { id: AUTH-UNKNOWN-TOKEN, reason: wrong file }\n'),
    );
    expect(service.code).toBe(2);
    expect(service.stderr).toMatch(/it is a check of `svc-harness certify`/);
  });
});
