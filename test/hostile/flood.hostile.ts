/**
 * A dispatcher gone wild, aimed at the capturing receiver of src/capturing-receiver/: thousands of
 * deliveries a second, oversized bodies (declared and chunked), garbage and oversized
 * headers, all at once. The receiver must keep answering (its /_stats within a bound the
 * whole time) and keep its memory bounded (peak RSS of its process, from /proc).
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:tls';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FLOOD_MS = 8_000;
/** Bounds stated in docs/proving.md, "Bounds under a hostile target". */
export const FLOOD_BOUNDS = { rssMb: 400, statsLatencyMs: 2_000, minDeliveriesPerSecond: 1_000 } as const;

it('a flood of deliveries, oversized bodies and garbage headers: the receiver keeps answering, memory bounded', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/hostile/flood-receiver.ts')], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const { port, path } = await new Promise<{ port: number; path: string }>((done) =>
    child.stdout.once('data', (chunk) => done(JSON.parse(String(chunk)))),
  );
  const origin = `https://127.0.0.1:${port}`;
  const pool = new Pool(origin, { connections: 64, connect: { rejectUnauthorized: false } });
  const statsPool = new Pool(origin, { connections: 1, connect: { rejectUnauthorized: false } });
  const endAt = performance.now() + FLOOD_MS;
  const counts = { delivered: 0, refused413: 0, garbageAnswered: 0, errors: 0 };
  let statsWorstMs = 0;
  let statsFailures = 0;
  let peakKb = 0;
  const body = JSON.stringify({ id: 'evt_flood', type: 'voice.call.completed', pad: 'x'.repeat(2_000) });

  const deliveries = async () => {
    for (let i = 0; performance.now() < endAt; i++) {
      try {
        const res = await pool.request({
          path,
          method: 'POST',
          body: body.replace('evt_flood', `evt_flood${i}${Math.random()}`),
          headers: {
            'content-type': 'application/json',
            'x-service-signature': 'deadbeef',
            'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
          },
        });
        await res.body.dump();
        counts.delivered++;
      } catch {
        counts.errors++;
      }
    }
  };
  const oversized = async (chunked: boolean) => {
    const big = Buffer.alloc(5 * 1024 * 1024, 0x61);
    while (performance.now() < endAt) {
      try {
        const res = await pool.request({
          path,
          method: 'POST',
          body: chunked
            ? Readable.from(
                (function* () {
                  for (let i = 0; i < 5; i++) yield big.subarray(i * 1_048_576, (i + 1) * 1_048_576);
                })(),
              )
            : big,
          headers: { 'content-type': 'application/json' },
        });
        await res.body.dump();
        if (res.statusCode === 413) counts.refused413++;
      } catch {
        counts.errors++;
      }
    }
  };
  const garbage = async () => {
    while (performance.now() < endAt) {
      await new Promise<void>((done) => {
        const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: x\r\nX-\u0000: \u0001\r\nX-Long: ${'h'.repeat(100_000)}\r\n\r\n`,
          );
        });
        socket.setTimeout(5_000, () => socket.destroy());
        socket.on('data', () => (counts.garbageAnswered++, socket.destroy()));
        socket.on('error', () => undefined);
        socket.on('close', () => done());
      });
    }
  };
  const watch = async () => {
    while (performance.now() < endAt + 1_000) {
      const started = performance.now();
      try {
        const res = await statsPool.request({
          path: '/_stats',
          method: 'GET',
          headersTimeout: FLOOD_BOUNDS.statsLatencyMs,
          bodyTimeout: FLOOD_BOUNDS.statsLatencyMs,
        });
        await res.body.dump();
        if (res.statusCode !== 200) statsFailures++;
      } catch {
        statsFailures++;
      }
      statsWorstMs = Math.max(statsWorstMs, performance.now() - started);
      const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      peakKb = Math.max(peakKb, Number(hwm?.[1] ?? 0));
      await new Promise((done) => setTimeout(done, 250));
    }
  };
  try {
    await Promise.all([
      ...Array.from({ length: 200 }, deliveries),
      oversized(false),
      oversized(true),
      oversized(false),
      garbage(),
      garbage(),
      watch(),
    ]);
    const stats = (await (await statsPool.request({ path: '/_stats', method: 'GET' })).body.json()) as {
      total: number;
      oversized: number;
      clientErrors: number;
      dropped: number;
    };
    const rate = counts.delivered / (FLOOD_MS / 1000);
    process.stdout.write(
      `\nflood: ${counts.delivered} deliveries in ${FLOOD_MS / 1000} s (${rate.toFixed(0)}/s), ${counts.refused413} oversized refused 413, ${counts.garbageAnswered} garbage requests answered, ${stats.clientErrors} client errors, ${stats.dropped} deliveries dropped from memory; /_stats worst ${statsWorstMs.toFixed(0)} ms, ${statsFailures} failures; receiver peak RSS ${(peakKb / 1024).toFixed(0)} MB\n`,
    );
    expect(rate).toBeGreaterThan(FLOOD_BOUNDS.minDeliveriesPerSecond);
    expect(counts.refused413).toBeGreaterThan(0);
    expect(stats.total).toBeGreaterThanOrEqual(counts.delivered);
    expect(statsFailures).toBe(0);
    expect(statsWorstMs).toBeLessThan(FLOOD_BOUNDS.statsLatencyMs);
    expect(peakKb / 1024).toBeLessThan(FLOOD_BOUNDS.rssMb);
  } finally {
    await pool.destroy();
    await statsPool.destroy();
    child.stdin.end();
    await new Promise((done) => child.once('exit', done));
  }
}, 60_000);
