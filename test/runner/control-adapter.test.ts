/**
 * Runs as documented in docs/remote.md, "Control adapters" and "Demand that the checks ran": a run
 * through the example static adapter (resources provisioned beforehand, here through the
 * reference's control interface as a person would in a dashboard), and a token-only run
 * that demands full coverage.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { ControlClient } from '../../src/control/client.js';
import type { RunReport } from '../../src/report/model.js';
import { runHarness } from '../support/child.js';

// More than a run asks for, so that no check is skipped for want of one: which checks get
// the hand-made workspaces would otherwise depend on the order the checks start in.
const WORKSPACES = 200;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('certify through a control adapter, and without one', () => {
  let reference: RunningReference;
  let control: ControlClient;
  let dir: string;
  let receiverPort: number;
  let staticFile: string;
  let handMadeToken: string;

  beforeAll(async () => {
    reference = await startReference({ quiet: true });
    control = new ControlClient(reference.controlUrl, reference.controlToken, { timeoutMs: 5_000 });
    dir = mkdtempSync(join(tmpdir(), 'adapter-'));
    receiverPort = await freePort();
    const workspaces = [];
    for (let i = 1; i <= WORKSPACES; i++) {
      const { workspaceId, agentIds } = await control.createWorkspace();
      const tokens = await Promise.all(
        ['first', 'second'].map((label) => control.createToken(workspaceId, `by hand ${label}`)),
      );
      const url = `https://127.0.0.1:${receiverPort}/hooks/static-${i}`;
      const endpoint = await control.createEndpoint(workspaceId, url, ['*']);
      workspaces.push({
        workspace_id: workspaceId,
        agent_ids: agentIds,
        tokens: tokens.map((token) => ({ token_id: token.tokenId, token: token.token, scopes: token.scopes })),
        endpoints: [{ endpoint_id: endpoint.endpointId, url, events: ['*'], secret: endpoint.secret }],
      });
    }
    handMadeToken = workspaces[0]!.tokens[0]!.token;
    staticFile = join(dir, 'static-control.json');
    writeFileSync(staticFile, JSON.stringify({ environment: 'staging', workspaces }, null, 2), { mode: 0o600 });
  });

  afterAll(async () => {
    await control?.close();
    await reference?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const report = (name: string): RunReport =>
    JSON.parse(readFileSync(join(dir, name, 'report.json'), 'utf8')) as RunReport;

  test('the static adapter: what it can give runs, what it cannot is skipped with the reason, nothing fails', async () => {
    const run = await runHarness(['certify'], {
      env: {
        SVC_BASE_URL: reference.baseUrl,
        CERTIFY_CONTROL_ADAPTER: 'examples/static-adapter.ts',
        STATIC_CONTROL_FILE: staticFile,
        RECEIVER_PORT: String(receiverPort),
        CERTIFY_REPORT_DIR: join(dir, 'static'),
      },
      timeoutMs: 240_000,
    });
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    const result = report('static');
    expect(result.control).toEqual({ kind: 'adapter', adapter: 'examples/static-adapter.ts' });
    expect(run.stdout).toContain('control: adapter examples/static-adapter.ts');
    const verdict = (id: string) => result.checks.find((check) => check.id === id);
    expect(
      result.checks
        .filter((check) => check.verdict === 'fail' || check.verdict === 'warn')
        .map((check) => `${check.id}: ${check.detail}`),
    ).toEqual([]);
    // A hand-made token answers whoami; a hand-registered endpoint gets signed deliveries.
    expect(verdict('AUTH-WHOAMI-ACCEPTED')?.verdict).toBe('pass');
    expect(
      result.checks.filter((check) => /no unused workspace left/.test(check.detail ?? '')).map((check) => check.id),
    ).toEqual([]);
    expect(verdict('REVOKE-PROPAGATION')).toMatchObject({
      verdict: 'skip',
      detail: expect.stringMatching(/static adapter cannot revoke a token/),
    });
    expect(verdict('SESSION-VALID')).toMatchObject({
      verdict: 'skip',
      detail: expect.stringMatching(/static adapter cannot set a workspace's identity provider/),
    });
    expect(result.coverage!.by_level.must.ran).toBeGreaterThan(10);
    expect(run.output).not.toContain(handMadeToken);
    process.stdout.write(
      `static adapter: ${JSON.stringify(result.coverage!.by_level)} (${result.summary.pass} pass, ${result.summary.skip} skip)\n`,
    );
  }, 300_000);

  test('a token-only run demanding full coverage exits 1 and names what was missing', async () => {
    const run = await runHarness(['certify'], {
      env: {
        SVC_BASE_URL: reference.baseUrl,
        SVC_TOKEN: handMadeToken,
        CERTIFY_MIN_COVERAGE: '100',
        CERTIFY_REPORT_DIR: join(dir, 'token'),
      },
      timeoutMs: 120_000,
    });
    expect(run.exitCode, run.output.slice(-3000)).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /below CERTIFY_MIN_COVERAGE 100%; missing: needs a control interface: set SVC_CONTROL_URL and SVC_CONTROL_TOKEN, or CERTIFY_CONTROL_ADAPTER \(\d+: /,
    );
    const result = report('token');
    expect(result.summary.fail).toBe(0);
    expect(result.control).toEqual({ kind: 'none' });
    expect(result.coverage).toMatchObject({ met: false, min_must_percent: 100 });
    expect(run.output).not.toContain(handMadeToken);
    process.stdout.write(
      `token only: ${JSON.stringify(result.coverage!.by_level)} (${result.summary.pass} pass, ${result.summary.skip} skip)\n`,
    );
  }, 180_000);
});
