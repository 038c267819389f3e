/**
 * `svc-harness load secret`: the Secret a k6-operator rotation run reads, made against a
 * running service. Its values work, the file is the user's alone, nothing secret is
 * printed, and the printed control call removes what it made.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startReference, type RunningReference } from '../../../reference/index.js';
import { runHarness } from '../../support/child.js';

const KEYS = [
  'SVC_BASE_URL',
  'SVC_CONTROL_URL',
  'SVC_CONTROL_TOKEN',
  'LOAD_WORKSPACE_ID',
  'LOAD_OLD_TOKEN',
  'LOAD_OLD_TOKEN_ID',
  'LOAD_NEW_TOKEN',
];

/** The stringData of the Secret manifest the command writes. */
function stringData(manifest: string): Record<string, string> {
  return (parse(manifest) as { stringData: Record<string, string> }).stringData;
}

describe('load secret', () => {
  let reference: RunningReference;
  const dir = mkdtempSync(join(tmpdir(), 'load-secret-'));

  beforeAll(async () => {
    reference = await startReference({ quiet: true });
  });

  afterAll(async () => {
    await reference?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the rotation Secret, mode 600, whose tokens work, and prints only how to apply and remove it', async () => {
    const out = join(dir, 'rotation.secret.yaml');
    const run = await runHarness(['load', 'secret', '--out', out], {
      env: {
        SVC_BASE_URL: reference.baseUrl,
        SVC_CONTROL_URL: reference.controlUrl,
        SVC_CONTROL_TOKEN: reference.controlToken,
      },
      timeoutMs: 60_000,
    });
    expect(run.exitCode, run.output).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const manifest = readFileSync(out, 'utf8');
    expect(parse(manifest)).toMatchObject({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'svc-load-rotation' },
      type: 'Opaque',
    });
    const values = stringData(manifest);
    expect(Object.keys(values)).toEqual(KEYS);
    for (const token of [values.LOAD_OLD_TOKEN!, values.LOAD_NEW_TOKEN!]) {
      const res = await fetch(`${reference.baseUrl}/v1/whoami`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(5_000),
      });
      expect(res.status).toBe(200);
    }
    for (const secret of [values.LOAD_OLD_TOKEN!, values.LOAD_NEW_TOKEN!, reference.controlToken])
      expect(run.output).not.toContain(secret);
    const removal = /remove workspace (\S+) with: DELETE (\S+)/.exec(run.output);
    expect(removal?.[1]).toBe(values.LOAD_WORKSPACE_ID);
    const removed = await fetch(removal![2]!, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${reference.controlToken}` },
      signal: AbortSignal.timeout(5_000),
    });
    expect(removed.status).toBe(204);
  }, 90_000);

  it('without the control interface: exit 2 and one line naming the settings', async () => {
    const run = await runHarness(['load', 'secret', '--out', join(dir, 'none.yaml')], {
      env: { SVC_BASE_URL: reference.baseUrl },
      timeoutMs: 60_000,
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/needs SVC_CONTROL_URL, SVC_CONTROL_TOKEN of the staging service/);
  }, 90_000);
});
