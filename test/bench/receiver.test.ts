/**
 * The receiver bench (src/bench/receiver.ts, receiver-servers.ts, receiver-rows.ts): each
 * server kind starts in a process of its own, verifies what the bench sends and stops; the
 * summary reads each goal from the right rows.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServers, stopServers, type ServerProcess } from '../../src/bench/receiver.js';
import { signedDelivery } from '../../src/bench/receiver-delivery.js';
import { pairedCpuRatio } from '../../src/bench/ratios.js';
import { formatBenchTable, formatReceiverGoals, SERVER_KINDS, SERVER_NAMES, type BenchRow } from '../../src/bench/receiver-rows.js';
import { createSelfSignedCertificate } from '../../src/tls/selfSigned.js';

describe('the receiver bench servers', () => {
  let tls: Awaited<ReturnType<typeof createSelfSignedCertificate>>;
  let servers: ServerProcess[] = [];
  const dispatcher = new Agent({ connect: { rejectUnauthorized: false }, headersTimeout: 5_000, bodyTimeout: 5_000 });

  beforeAll(async () => {
    tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'] });
    servers = await startServers(SERVER_KINDS, tls);
  }, 60_000);

  afterAll(async () => {
    await stopServers(servers);
    await dispatcher.close();
    await rm(dirname(tls.certPath), { recursive: true, force: true });
  });

  it('start one process per kind, each answering a signed delivery 204 and a forged one 401 (but the bare server)', async () => {
    expect(servers.map((server) => server.name)).toEqual(SERVER_KINDS.map((kind) => SERVER_NAMES[kind]));
    expect(new Set(servers.map((server) => server.child.pid)).size).toBe(SERVER_KINDS.length);
    for (const server of servers) {
      const signed = signedDelivery(1);
      const good = await request(server.url, { method: 'POST', body: signed.body, headers: signed.headers, dispatcher });
      await good.body.dump();
      const forged = await request(server.url, { method: 'POST', body: signed.body, headers: { ...signed.headers, 'x-service-signature': '0'.repeat(64) }, dispatcher });
      await forged.body.dump();
      expect([server.kind, good.statusCode, forged.statusCode]).toEqual([server.kind, 204, server.kind === 'bare' ? 204 : 401]);
    }
  });

  it('stop every process when asked', async () => {
    await stopServers(servers);
    expect(servers.map((server) => server.child.exitCode)).toEqual(servers.map(() => 0));
  });
});

describe('the receiver bench summary', () => {
  /** A row whose rounds cost `rounds` µs each; its median figure is theirs. */
  const row = (name: string, rps: number, rounds: number[]): BenchRow => ({ name, rps, p99ms: 5, cpuUsPerRequest: [...rounds].sort((a, b) => a - b)[1]!, cpuUsPerRound: rounds });
  const rows = [
    row(SERVER_NAMES.bare, 20_000, [40, 40, 40]),
    row(SERVER_NAMES.minimal, 18_000, [45, 50, 40]),
    row(SERVER_NAMES.minimalRecording, 16_000, [50, 50, 50]),
    row(SERVER_NAMES.receiver, 15_000, [60, 50, 50]),
    row(SERVER_NAMES.loadReceiver, 17_000, [48, 50, 40]),
  ];

  it('gives each goal its rows: rate share, then the base CPU over the server CPU round by round in brackets', () => {
    const lines = formatReceiverGoals(rows);
    // Rounds: 45/60, 50/50, 40/50 -> 75%, 100%, 80%.
    expect(lines.find((line) => line.startsWith('receiver vs minimal verifier:'))).toContain('83% [80% (75%–100%)] (goal ≥ 90% by CPU)');
    // 45/48, 50/50, 40/40: the same cost in two rounds.
    expect(lines.find((line) => line.startsWith('receiver, load run vs minimal verifier:'))).toContain('94% [100% (94%–100%)] (goal ≥ 90% by CPU)');
    expect(lines.find((line) => line.startsWith('minimal keeping 10000 vs minimal:'))).toContain('89% [90% (80%–100%)]');
    expect(lines.find((line) => line.startsWith('receiver vs bare node:https:'))).toContain('75% [80% (67%–80%)]');
  });

  it('pairs rounds, not medians: a server cheaper in every round is cheaper whatever the drift between rounds', () => {
    // The machine slows down 2x in the last round; the server is 10% dearer than the base in each.
    const base = row('base', 1, [40, 40, 80]);
    const server = row('server', 1, [44, 44, 88]);
    expect(pairedCpuRatio(server, base)).toBe('91% (91%–91%)');
    expect(pairedCpuRatio(row('one round', 1, [50]), row('base', 1, [40]))).toBe('80%');
  });

  it('says n/a for a server the run did not measure, in the table and in the summary', () => {
    const withoutMinimal = rows.filter((r) => r.name !== SERVER_NAMES.minimal);
    expect(formatReceiverGoals(withoutMinimal).find((line) => line.startsWith('receiver vs minimal verifier:'))).toContain('n/a [n/a]');
    const table = formatBenchTable(withoutMinimal).split('\n');
    expect(table[0]).toMatch(/^server\s+req\/s/);
    const cells = table.find((line) => line.startsWith(SERVER_NAMES.loadReceiver))?.split(/\s{2,}/);
    expect(cells).toEqual([SERVER_NAMES.loadReceiver, '17000', '5', '85%', 'n/a', '48', '83%', 'n/a']);
  });
});
