/**
 * The receiver bench (benchmarks/receiver.ts, receiver-servers.ts, receiver-rows.ts): each
 * server kind starts in a process of its own, verifies what the bench sends and stops; the
 * summary reads each goal from the right rows.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairAtOnceWithMinimal, startServers, stopServers, type ServerProcess } from '../receiver.js';
import { signedDelivery } from '../receiver-delivery.js';
import { pairedCpuRatio } from '../ratios.js';
import {
  AT_ONCE_WITH_MINIMAL,
  formatBenchTable,
  formatReceiverGoals,
  SERVER_KINDS,
  SERVER_NAMES,
  type BenchRow,
} from '../receiver-rows.js';
import { createSelfSignedCertificate } from '../../src/tls/self-signed.js';

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
      const good = await request(server.url, {
        method: 'POST',
        body: signed.body,
        headers: signed.headers,
        dispatcher,
      });
      await good.body.dump();
      const forged = await request(server.url, {
        method: 'POST',
        body: signed.body,
        headers: { ...signed.headers, 'x-service-signature': '0'.repeat(64) },
        dispatcher,
      });
      await forged.body.dump();
      expect([server.kind, good.statusCode, forged.statusCode]).toEqual([
        server.kind,
        204,
        server.kind === 'bare' ? 204 : 401,
      ]);
    }
  });

  it('loads each server with a goal at once with the minimal verifier, and gives the minimal verifier cost over its own, and that over the twin', async () => {
    const { withMinimal, againstTwin } = await pairAtOnceWithMinimal(servers, 1, 1, 10);
    expect([...withMinimal.keys()].sort()).toEqual([...AT_ONCE_WITH_MINIMAL].sort());
    for (const [kind, rounds] of withMinimal)
      expect([kind, rounds.length, rounds.every((ratio) => Number.isFinite(ratio) && ratio > 0)]).toEqual([
        kind,
        1,
        true,
      ]);
    // Identical servers, one round at once: a bound on the pairing (each ratio is of the
    // processes it names), not on speed, which a test on a shared machine cannot hold.
    const twin = withMinimal.get('minimalTwin')![0]!;
    expect(twin).toBeGreaterThan(0.1);
    expect(twin).toBeLessThan(10);
    expect([...againstTwin.keys()].sort()).toEqual(
      AT_ONCE_WITH_MINIMAL.filter((kind) => kind !== 'minimalTwin').sort(),
    );
    for (const [kind, rounds] of againstTwin) expect(rounds).toEqual([withMinimal.get(kind)![0]! / twin]);
  }, 30_000);

  it('stop every process when asked', async () => {
    await stopServers(servers);
    expect(servers.map((server) => server.child.exitCode)).toEqual(servers.map(() => 0));
  });
});

describe('the receiver bench summary', () => {
  /** A row whose rounds cost `rounds` µs each; its median figure is theirs. */
  const row = (name: string, rps: number, rounds: number[]): BenchRow => ({
    name,
    rps,
    p99ms: 5,
    cpuUsPerRequest: [...rounds].sort((a, b) => a - b)[1]!,
    cpuUsPerRound: rounds,
  });
  const rows = [
    row(SERVER_NAMES.bare, 20_000, [40, 40, 40]),
    row(SERVER_NAMES.minimal, 18_000, [45, 50, 40]),
    row(SERVER_NAMES.minimalRecording, 16_000, [50, 50, 50]),
    row(SERVER_NAMES.receiver, 15_000, [60, 50, 50]),
    row(SERVER_NAMES.loadReceiver, 17_000, [48, 50, 40]),
    row(SERVER_NAMES.minimalTwin, 18_000, [50, 45, 40]),
  ];
  /** The same rows with rounds loaded at once with the minimal verifier. */
  const atOnce = rows.map((r) =>
    r.name === SERVER_NAMES.receiver
      ? { ...r, atOnceWithMinimal: [0.86, 0.88, 0.87] }
      : r.name === SERVER_NAMES.minimalTwin
        ? { ...r, atOnceWithMinimal: [0.98, 1.03, 1.01] }
        : r,
  );

  it('gives each goal its rows: rate share, then the base CPU over the server CPU round by round in brackets', () => {
    const lines = formatReceiverGoals(rows);
    // Rounds: 45/60, 50/50, 40/50 -> 75%, 100%, 80%.
    expect(lines.find((line) => line.startsWith('receiver vs minimal verifier:'))).toContain(
      '83% [80% (75%–100%)] (goal ≥ 90% by CPU)',
    );
    // 45/48, 50/50, 40/40: the same cost in two rounds.
    expect(lines.find((line) => line.startsWith('receiver, load run vs minimal verifier:'))).toContain(
      '94% [100% (94%–100%)] (goal ≥ 90% by CPU)',
    );
    expect(lines.find((line) => line.startsWith('minimal keeping 10000 vs minimal:'))).toContain(
      '89% [90% (80%–100%)]',
    );
    expect(lines.find((line) => line.startsWith('receiver vs bare node:https:'))).toContain('75% [80% (67%–80%)]');
    // 45/50, 50/45, 40/40: identical servers, read 10% apart either way.
    expect(lines.find((line) => line.startsWith('minimal verifier, second process vs first:'))).toContain(
      '100% [100% (90%–111%)] (identical servers: the noise, and the load-history bias the goals divide out)',
    );
  });

  it('takes the CPU figure against the minimal verifier from the rounds loaded at once when there are some', () => {
    const lines = formatReceiverGoals(atOnce);
    expect(lines.find((line) => line.startsWith('receiver vs minimal verifier:'))).toContain(
      '83% [87% (86%–88%) at once] (goal ≥ 90% by CPU)',
    );
    expect(lines.find((line) => line.startsWith('minimal verifier, second process vs first:'))).toContain(
      '100% [101% (98%–103%) at once]',
    );
    // The load-run receiver has no rounds at once here: its rounds in turn, as before.
    expect(lines.find((line) => line.startsWith('receiver, load run vs minimal verifier:'))).toContain(
      '94% [100% (94%–100%)] (goal ≥ 90% by CPU)',
    );
  });

  it('adds the rounds against the twin when there are some', () => {
    const againstTwin = atOnce.map((r) =>
      r.name === SERVER_NAMES.receiver ? { ...r, atOnceAgainstTwin: [0.88, 0.85, 0.86] } : r,
    );
    const lines = formatReceiverGoals(againstTwin);
    expect(lines.find((line) => line.startsWith('receiver vs minimal verifier:'))).toContain(
      '83% [87% (86%–88%) at once; 86% (85%–88%) against the twin] (goal ≥ 90% by CPU)',
    );
    expect(lines.find((line) => line.startsWith('minimal verifier, second process vs first:'))).toContain(
      '100% [101% (98%–103%) at once]',
    );
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
    expect(
      formatReceiverGoals(withoutMinimal).find((line) => line.startsWith('receiver vs minimal verifier:')),
    ).toContain('n/a [n/a]');
    const table = formatBenchTable(withoutMinimal).split('\n');
    expect(table[0]).toMatch(/^server\s+req\/s/);
    const cells = table.find((line) => line.startsWith(SERVER_NAMES.loadReceiver))?.split(/\s{2,}/);
    expect(cells).toEqual([SERVER_NAMES.loadReceiver, '17000', '5', '85%', 'n/a', '48', '83%', 'n/a']);
  });
});
