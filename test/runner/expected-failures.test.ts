/**
 * `svc-harness certify --expected-failures` as a user runs it (a child process against the
 * bundled reference): a listed check that passes is reported fixed, and fails the run under
 * --strict (exit 1); an unknown id in the file stops the run before it starts (exit 2). Failures as
 * expected and expired entries are proved on the receiver side
 * (test/receiver-cert/receiver-flags.test.ts) and in test/expected/, with the same code.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReportFile } from '../../src/report/validate.js';
import { runHarness } from '../support/child.js';

const CHECK = 'AUTH-WHOAMI-ACCEPTED';
let dir: string;
let listed: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'certify-expected-'));
  listed = join(dir, 'expected-failures.yaml');
  writeFileSync(
    listed,
    `expected_failures:\n  - id: ${CHECK}\n    reason: the gateway refused whoami in 1.3 (PLAT-1)\n    expires: 2099-12-31\n`,
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function certify(...args: string[]) {
  const reportDir = mkdtempSync(join(dir, 'reports-'));
  const run = await runHarness(['certify', '--checks', CHECK, '--report-dir', reportDir, ...args], {
    timeoutMs: 120_000,
  });
  const reportPath = join(reportDir, 'report.json');
  return { ...run, report: existsSync(reportPath) ? readReportFile(reportPath) : undefined };
}

describe('certify --expected-failures', () => {
  it('a listed check that passes is "fixed, remove it", and fails a --strict run (exit 1)', async () => {
    // One run: without --strict the same report passes (runVerdict, test/expected/), as the receiver's runs show end to end.
    const strict = await certify('--expected-failures', listed, '--strict');
    expect(strict.exitCode, strict.output).toBe(1);
    expect(strict.report?.checks[0]?.verdict).toBe('pass');
    expect(strict.report?.checks[0]?.expected_failure).toEqual({
      reason: 'the gateway refused whoami in 1.3 (PLAT-1)',
      expires: '2099-12-31',
      status: 'fixed',
    });
    expect(strict.stdout).toContain(`fixed: remove them from ${listed} (--strict: the run fails): ${CHECK}`);
    expect(strict.stdout).toMatch(/verdict: FAILED/);
  }, 150_000);

  it('an unknown check id in the file is a settings error: exit 2, no run', async () => {
    const typo = join(dir, 'typo.yaml');
    writeFileSync(typo, 'expected_failures:\n  - { id: AUTH-WHOAMI-ACCEPT, reason: typo }\n');
    const run = await certify('--expected-failures', typo);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/unknown check id AUTH-WHOAMI-ACCEPT;/);
    expect(run.report).toBeUndefined();
  }, 60_000);
});
