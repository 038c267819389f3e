/**
 * Certification runs against hostile targets: whatever the target does at the transport
 * level or says in its answers, the run ends within its bound, the affected checks fail
 * with a one-line reason (or, where the network kept the answer away, end without a verdict), memory stays bounded, nothing secret and nothing unprintable is
 * printed or written (junit.xml validates against the JUnit schema), and the exit code
 * says what happened.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { createSelfSignedCertificate } from '../../src/tls/self-signed.js';
import { CASES, RSS_BOUND_MB, type HostileCase } from './cases.js';
import { limiter } from '../support/limit.js';
import { runCertifyChild, type ChildResult } from './child.js';
import { unsafeCharacters } from './hostile-text.js';
import { hasStackTrace, leaks } from './scan.js';
import { hasXmllint, junitSchemaProblems } from '../support/xmllint.js';
import { startHostileServer, startTlsFaultServer, type HostileServer, type RunRecord } from './server.js';
import { leftovers } from './target-state.js';

let reference: RunningReference;
let hostile: HostileServer;
const limit = limiter(Number(process.env.HOSTILE_CONCURRENCY ?? 6));
const measured: string[] = [];

beforeAll(async () => {
  reference = await startReference({ quiet: true });
  hostile = await startHostileServer(reference.baseUrl);
});

afterAll(async () => {
  process.stdout.write(`\n${measured.sort().join('\n')}\n`);
  await hostile?.close();
  await reference?.close();
});

function expectBounded(name: string, run: ChildResult, boundS: number): void {
  measured.push(
    `${name.padEnd(34)} exit ${run.exitCode}  ${(run.durationMs / 1000).toFixed(1).padStart(5)} s  peak RSS ${run.rss.maxMb} MB (all processes ${run.rss.sumMb} MB)`,
  );
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.killed, `${name}: still running after the kill limit`).toBe(false);
  expect(run.durationMs, `${name}: run time`).toBeLessThan(boundS * 1000);
  expect(run.rss.maxMb, `${name}: peak RSS of one process`).toBeLessThan(RSS_BOUND_MB.process);
  expect(run.rss.sumMb, `${name}: peak RSS of the run`).toBeLessThan(RSS_BOUND_MB.run);
  expect(hasStackTrace(output), `${name}: a stack trace in the output:\n${output.slice(-3000)}`).toBe(false);
  expectPrintable(name, run);
}

/** The console and every report hold nothing a terminal or an XML parser would act on; report.html no markup of the target's. */
function expectPrintable(name: string, run: ChildResult): void {
  expect(unsafeCharacters(run.stdout), `${name}: stdout`).toEqual([]);
  expect(unsafeCharacters(run.stderr), `${name}: stderr`).toEqual([]);
  for (const [path, latin1] of run.files) {
    const file = path.split('/').pop()!;
    if (!['report.json', 'junit.xml', 'report.md', 'report.html'].includes(file)) continue;
    const bytes = Buffer.from(latin1, 'latin1');
    expect(unsafeCharacters(bytes.toString('utf8')), `${name}: ${file}`).toEqual([]);
    if (file === 'report.html') expect(latin1, `${name}: report.html`).not.toContain('<script>alert');
    if (file === 'junit.xml' && hasXmllint)
      expect(junitSchemaProblems(bytes), `${name}: junit.xml against the JUnit schema`).toEqual([]);
  }
}

/**
 * A clean-up that could not remove anything: the report lists every resource the run
 * created (as the proxy recorded them), each with a control call; the console and report.md
 * show those calls; and sent to the reference directly, in that order, they remove everything.
 */
async function expectLeftoversListed(name: string, run: ChildResult, record: RunRecord): Promise<void> {
  const listed = run.report!.leftovers ?? [];
  const created = [...record.workspaces, ...record.tokens.keys(), ...record.endpoints.keys()];
  expect(created.length, `${name}: the run created nothing`).toBeGreaterThan(0);
  expect(listed.map((leftover) => leftover.id).sort(), `${name}: leftovers listed`).toEqual(created.sort());
  const markdown = [...run.files].find(([path]) => path.endsWith('report.md'))?.[1] ?? '';
  for (const { remove_with: call } of listed) {
    expect(call).toMatch(/^DELETE \/workspaces\/ws_[^/\s]+(\/(tokens|webhook-endpoints)\/[^/\s]+)?$/);
    expect(run.stdout, `${name}: ${call} on the console`).toContain(call);
    expect(markdown, `${name}: ${call} in report.md`).toContain(call);
  }
  // In the order listed: a user runs them top to bottom.
  for (const leftover of listed) {
    const res = await fetch(`${reference.controlUrl}${leftover.remove_with.slice('DELETE '.length)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${reference.controlToken}` },
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status, `${name}: ${leftover.remove_with}`).toBeLessThan(300);
  }
  expect(await leftovers(reference, record), `${name}: still on the target after the listed calls`).toEqual([]);
}

describe.concurrent('a hostile target', () => {
  it.each(CASES.map((c) => [`${c.behaviour}.${c.where}`, c] as const))(
    '%s: bounded run, affected checks fail or have no verdict',
    async (name, c: HostileCase) => {
      const urls = hostile.urls(name.replace('.', '-'), c.behaviour, c.where);
      const run = await limit(() =>
        runCertifyChild({
          settings: {
            SVC_BASE_URL: urls.baseUrl,
            SVC_CONTROL_URL: urls.controlUrl,
            SVC_CONTROL_TOKEN: reference.controlToken,
            CERTIFY_CHECKS: c.checks.join(','),
          },
          killAfterMs: c.boundS * 1000 + 30_000,
        }),
      );
      expectBounded(name, run, c.boundS);
      expect(
        run.exitCode,
        `${name}: exit code; output:\n${run.stdout.slice(-2000)}\n${run.stderr}\n${JSON.stringify(run.report?.checks.map((check) => [check.id, check.verdict, check.detail]))}`,
      ).toBe(c.exit);
      expect(run.report, `${name}: no report`).toBeDefined();
      for (const id of c.affected) {
        const check = run.report!.checks.find((entry) => entry.id === id);
        expect(check?.verdict, `${name}: ${id}: ${check?.detail}`).toBe(c.verdict);
        expect(check?.detail, `${name}: ${id} has no reason`).toMatch(/\S/);
        expect(check?.detail, `${name}: ${id}: reason on one line`).not.toMatch(/\n/);
      }
      expect(leaks(run, [reference.controlToken, ...hostile.record(name.replace('.', '-')).secrets])).toEqual([]);
      if (c.where === 'delete') await expectLeftoversListed(name, run, hostile.record(name.replace('.', '-')));
      if (c.behaviour.startsWith('hostile-')) {
        // The target's text did reach the reports, shown: the check is not passing for want of input.
        const detail = run.report!.checks.map((check) => check.detail ?? '').join(' ');
        expect(detail, `${name}: the target's text in the details`).toContain('\\u001b[2J');
        expect(run.stdout, `${name}: the target's text on the console`).toContain('\\u0000 BEL\\u0007');
      }
    },
  );

  it('a TLS handshake failure after the probe: no verdict, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-tls-'));
    const pem = await createSelfSignedCertificate({ hosts: ['127.0.0.1'], dir });
    const tls = await startTlsFaultServer(hostile.origin, pem);
    try {
      const { controlUrl } = hostile.urls('tls', 'none', 'api');
      const run = await limit(() =>
        runCertifyChild({
          settings: {
            SVC_BASE_URL: `${tls.origin}/h/tls/none.api`,
            SVC_CONTROL_URL: controlUrl,
            SVC_CONTROL_TOKEN: reference.controlToken,
            CERTIFY_CHECKS: 'AUTH-UNKNOWN-TOKEN,SCOPE-AGENTS-READ',
          },
          env: { NODE_EXTRA_CA_CERTS: pem.certPath },
        }),
      );
      expectBounded('tls-after-probe', run, 100);
      expect(run.exitCode, run.stdout + run.stderr).toBe(2);
      for (const check of run.report!.checks) {
        expect(check.verdict).toBe('error');
        expect(check.detail).not.toMatch(/\n/);
      }
    } finally {
      await tls.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an untrusted certificate at the probe: exit 2 with a one-line reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-tls-'));
    const pem = await createSelfSignedCertificate({ hosts: ['127.0.0.1'], dir });
    const tls = await startTlsFaultServer(hostile.origin, pem);
    try {
      const run = await limit(() =>
        runCertifyChild({
          settings: { SVC_BASE_URL: `${tls.origin}/h/tls2/none.api`, SVC_TOKEN: 'svc_test_untrustedtlsrun0000' },
        }),
      );
      expectBounded('tls-untrusted', run, 60);
      expect(run.exitCode).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/SVC_CA_CERT/);
    } finally {
      await tls.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([['public API'], ['control interface']])(
    'a %s that never answers the probe: exit 2 within the probe time-out',
    async (which) => {
      const hole = await blackhole();
      try {
        const { baseUrl } = hostile.urls('hole', 'none', 'api');
        const settings: Record<string, string> =
          which === 'public API'
            ? { SVC_BASE_URL: hole.origin, SVC_TOKEN: 'svc_test_blackholerun00000' }
            : {
                SVC_BASE_URL: baseUrl,
                SVC_CONTROL_URL: `${hole.origin}/_control`,
                SVC_CONTROL_TOKEN: reference.controlToken,
              };
        const run = await limit(() => runCertifyChild({ settings }));
        expectBounded(`probe-hang (${which})`, run, 60);
        expect(run.exitCode).toBe(2);
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(run.stderr).toMatch(which === 'public API' ? /SVC_BASE_URL/ : /SVC_CONTROL_URL/);
      } finally {
        await hole.close();
      }
    },
  );
});

/** A TCP server that accepts connections and never sends a byte. */
async function blackhole(): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
