/**
 * `svc-harness load fanout-host` on its own (the distributed run with k6 runners is in
 * ../distributed-fanout.ts): it stops by itself after --for, refuses a bad duration, and writes
 * nothing when it cannot reach the service.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ARRIVALS_KIND } from '../../../src/load/fanout/arrivals.js';
import { runHarness } from '../../support/child.js';

const dir = mkdtempSync(join(tmpdir(), 'fanout-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const paths = (name: string) => ({
  arrivals: join(dir, `${name}.arrivals.ndjson`),
  secret: join(dir, `${name}.secret.yaml`),
});
const args = (files: ReturnType<typeof paths>, ...more: string[]) => [
  'load',
  'fanout-host',
  '--arrivals',
  files.arrivals,
  '--secret-out',
  files.secret,
  ...more,
];

describe('load fanout-host', () => {
  it('stops by itself after --for, with its recording closed and the Secret written (the embedded reference)', async () => {
    const files = paths('for');
    const run = await runHarness(args(files, '--for', '1s'), { timeoutMs: 60_000 });
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain('recorded 0 arrivals');
    const lines = readFileSync(files.arrivals, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ kind: ARRIVALS_KIND, version: 1 });
    expect(lines[0]!['endpoints']).toHaveLength(25);
    expect(lines[1]).toMatchObject({ kind: 'end', dropped: 0 });
    expect(statSync(files.secret).mode & 0o777).toBe(0o600);
    expect(
      (parse(readFileSync(files.secret, 'utf8')) as { stringData: Record<string, string> }).stringData.LOAD_TOKEN,
    ).toMatch(/^svc_test_[A-Za-z0-9]+$/);
    expect(run.output).not.toMatch(/svc_test_[A-Za-z0-9]{8,}/);
  }, 70_000);

  it('refuses a --for that is not a duration, and an unreachable service, writing nothing', async () => {
    const badFor = paths('bad-for');
    const refused = await runHarness(args(badFor, '--for', '5x'), { timeoutMs: 30_000 });
    expect(refused.exitCode).toBe(2);
    expect(refused.output).toContain('--for: not a duration: 5x');
    const unreachable = paths('unreachable');
    const down = await runHarness(args(unreachable), {
      timeoutMs: 30_000,
      env: { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_TOKEN: 'svc_test_FAKEFAKEFAKEFAKE' },
    });
    expect(down.exitCode).toBe(2);
    expect(down.output).toContain('target unreachable: http://127.0.0.1:9');
    for (const file of [...Object.values(badFor), ...Object.values(unreachable)])
      expect(existsSync(file), file).toBe(false);
  }, 70_000);
});
