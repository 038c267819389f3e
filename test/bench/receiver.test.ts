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
  const row = (name: string, rps: number, cpuUsPerRequest: number): BenchRow => ({ name, rps, p99ms: 5, cpuUsPerRequest });
  const rows = [
    row(SERVER_NAMES.bare, 20_000, 40),
    row(SERVER_NAMES.minimal, 18_000, 45),
    row(SERVER_NAMES.minimalRecording, 16_000, 50),
    row(SERVER_NAMES.receiver, 15_000, 60),
    row(SERVER_NAMES.loadReceiver, 17_000, 48),
  ];

  it('gives each goal its rows: rate share, then the base CPU over the server CPU in brackets', () => {
    const lines = formatReceiverGoals(rows);
    expect(lines.find((line) => line.startsWith('receiver vs minimal verifier:'))).toContain('83% [75%] (goal ≥ 90% by CPU)');
    expect(lines.find((line) => line.startsWith('receiver, load run vs minimal verifier:'))).toContain('94% [94%] (goal ≥ 90% by CPU)');
    expect(lines.find((line) => line.startsWith('minimal keeping 10000 vs minimal:'))).toContain('89% [90%]');
    expect(lines.find((line) => line.startsWith('receiver vs minimal keeping 10000:'))).toContain('94% [83%]');
    expect(lines.find((line) => line.startsWith('receiver vs bare node:https:'))).toContain('75% [67%]');
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
