/**
 * The fan-out monitor: what the k6 `fanout` scenario reads in teardown. `startFanoutMonitor`
 * feeds a FanoutTally (fanout-tally.ts) from a CapturingReceiver's endpoints and serves it
 * on loopback:
 *   POST /expect {call_id, placed_at_ms} -> 204   (a VU placed this call)
 *   GET  /stats[?samples=1]              -> 200 MonitorStats (with the receiver's own counters,
 *                                           as its GET /_stats gives them)
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ID_PATTERNS, findFirstId } from '../ids.js';
import type { CapturedDelivery, ReceiverEndpoint, ReceiverStats } from '../receiver/index.js';
import type { ExpectedCall, MonitorStats, ReceiverCounters } from '../../load/lib/shared-types.js';
import { FanoutTally, type Arrival } from './fanout-tally.js';

const MAX_BODY_BYTES = 4_096;

export function receiverCounters(stats: ReceiverStats): ReceiverCounters {
  return {
    total: stats.total,
    client_closed: stats.clientClosed,
    timed_out: stats.timedOut,
    resets: stats.resets,
    client_errors: stats.clientErrors,
    strays: stats.strays,
  };
}

/** What the tally needs from one captured delivery (parsed JSON only; never the secret). */
export function arrivalOf(delivery: CapturedDelivery): Arrival {
  const envelope = (delivery.verdicts.json ?? {}) as { type?: unknown; created_at?: unknown; data?: unknown };
  const data = (envelope.data ?? {}) as { call_id?: unknown; metadata?: { placed_at_ms?: unknown } };
  const callId = typeof data.call_id === 'string' ? data.call_id : findFirstId(data, ID_PATTERNS.call);
  const createdAtMs = typeof envelope.created_at === 'string' ? Date.parse(envelope.created_at) : NaN;
  const placedAt = Number(data.metadata?.placed_at_ms);
  const signature = delivery.verdicts.signature;
  return {
    endpoint: delivery.endpoint,
    receivedAtMs: delivery.receivedAtMs,
    eventType: typeof envelope.type === 'string' ? envelope.type : delivery.verdicts.eventType,
    callId,
    createdAtMs: Number.isFinite(createdAtMs) ? createdAtMs : undefined,
    placedAtMs: Number.isFinite(placedAt) && placedAt > 0 ? placedAt : undefined,
    signatureOk: signature !== 'no-secret' && signature.ok,
    duplicate: delivery.verdicts.duplicate,
  };
}

/** Calls `listener` with the arrival of each settled delivery; returns what stops it. */
export type ArrivalFeed = (listener: (arrival: Arrival) => void) => () => void;

/** The arrivals at endpoints of a receiver in this process. */
export function arrivalsAt(endpoints: readonly ReceiverEndpoint[]): ArrivalFeed {
  return (listener) => {
    const offs = endpoints.map((endpoint) => endpoint.onSettled((delivery) => listener(arrivalOf(delivery))));
    return () => offs.forEach((off) => off());
  };
}

export interface RunningMonitor {
  url: string;
  tally: FanoutTally;
  close(): Promise<void>;
}

/**
 * Feeds a tally of the endpoints named `endpointNames` from `feed` (one receiver, or a pool
 * of receiver processes) and serves it on 127.0.0.1 (plain HTTP, loopback only).
 */
export async function startFanoutMonitor(endpointNames: readonly string[], feed: ArrivalFeed, receiverStats?: () => ReceiverStats): Promise<RunningMonitor> {
  const tally = new FanoutTally(endpointNames);
  const unsubscribe = feed((arrival) => tally.arrive(arrival));
  const stats = (samples: boolean): MonitorStats => ({ ...tally.stats(samples), ...(receiverStats ? { receiver: receiverCounters(receiverStats()) } : {}) });
  const server: Server = createServer({ requestTimeout: 10_000, headersTimeout: 5_000, keepAliveTimeout: 5_000 }, (req, res) => handle(tally, stats, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tally,
    async close() {
      unsubscribe();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function handle(tally: FanoutTally, stats: (samples: boolean) => MonitorStats, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://monitor');
  res.on('error', () => undefined);
  if (req.method === 'GET' && url.pathname === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats(url.searchParams.get('samples') === '1')));
    return;
  }
  if (req.method === 'POST' && url.pathname === '/expect') {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<Record<keyof ExpectedCall, unknown>>;
        if (typeof body.call_id !== 'string' || typeof body.placed_at_ms !== 'number') throw new Error('bad body');
        const taken = tally.expect(body.call_id, body.placed_at_ms);
        res.writeHead(taken ? 204 : 429).end();
      } catch {
        res.writeHead(400).end();
      }
    });
    return;
  }
  res.writeHead(404).end();
}
