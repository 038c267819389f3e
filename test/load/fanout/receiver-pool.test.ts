/**
 * The receiver pool: several processes on one port, one stream of arrivals. Deliveries on
 * separate connections are spread over the processes by the kernel, every one is counted
 * once, verified with the secret the primary handed out, and nothing is left running.
 */
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReceiverPool } from '../../../src/load/fanout/receiver-pool.js';
import type { Arrival } from '../../../src/load/fanout/tally.js';
import { signBody } from '../../../src/signing/index.js';

const SECRET = 'whsec_fake_pool_test_secret_0123456789';
const DELIVERIES = 120;

/** One delivery on its own connection (agent: false), so the kernel picks a process for each. */
function deliver(url: string, seq: number, secret: string): Promise<number> {
  const body = JSON.stringify({
    id: `evt_pool${seq}`,
    type: 'voice.call.completed',
    created_at: new Date().toISOString(),
    data: { call_id: `call_pool${seq}` },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        rejectUnauthorized: false,
        timeout: 10_000,
        headers: {
          'content-type': 'application/json',
          'x-service-signature': signBody(secret, body),
          'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('delivery timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

describe('a receiver pool', () => {
  let pool: ReceiverPool;
  const arrivals: Arrival[] = [];

  beforeAll(async () => {
    pool = await ReceiverPool.start(2);
    pool.arrivals((arrival) => arrivals.push(arrival));
  }, 60_000);

  afterAll(async () => {
    await pool?.close();
  });

  it('spreads deliveries over its processes on one port and counts each once, verified', async () => {
    let registeredUrl = '';
    const endpoint = await pool.endpoint('pooled', async (url) => {
      registeredUrl = url;
      return SECRET;
    });
    expect(endpoint.url).toBe(registeredUrl);
    expect(new URL(endpoint.url).port).toBe(String(pool.port));
    const statuses = [];
    for (let i = 0; i < DELIVERIES; i += 10)
      statuses.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => deliver(endpoint.url, i + j, SECRET)))));
    expect(statuses.every((status) => status === 204)).toBe(true);
    const until = Date.now() + 5_000;
    while (arrivals.length < DELIVERIES && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(arrivals).toHaveLength(DELIVERIES);
    expect(new Set(arrivals.map((arrival) => arrival.callId)).size).toBe(DELIVERIES);
    expect(arrivals.every((arrival) => arrival.signatureOk && arrival.endpoint === 'pooled')).toBe(true);
    const stats = await pool.refreshStats();
    expect(stats.total).toBe(DELIVERIES);
    // Both processes answered some: the kernel spread the connections.
    expect(pool.totalsByWorker().every((total) => total > 0)).toBe(true);
  }, 60_000);

  it('a wrong signature is refused and counted as such by whichever process gets it', async () => {
    const endpoint = await pool.endpoint('pooled-2', async () => SECRET);
    const before = arrivals.length;
    expect(await deliver(endpoint.url, 9_999, 'whsec_fake_wrong_secret_0123456789')).toBe(401);
    const until = Date.now() + 5_000;
    while (arrivals.length === before && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(arrivals.slice(before)).toEqual([expect.objectContaining({ endpoint: 'pooled-2', signatureOk: false })]);
  });

  it('a worker killed mid-run is reported, and the pool goes on asking the others for their counts', async () => {
    const fresh = await ReceiverPool.start(2);
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const [victim] = fresh.pids();
      process.kill(victim!, 'SIGKILL');
      // Several of the pool's stats rounds (every 500 ms) pass with the worker gone.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(written.join('')).toContain(`receiver pool worker ${victim} exited during the run (SIGKILL)`);
    } finally {
      spy.mockRestore();
      await fresh.close();
    }
  }, 60_000);

  it('close stops every process', async () => {
    const fresh = await ReceiverPool.start(2);
    const pids = fresh.pids();
    await fresh.close();
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  }, 60_000);
});
