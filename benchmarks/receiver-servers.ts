/**
 * One server of the receiver bench, in a child process of its own (forked by receiver.ts):
 * the load generator and the servers do not share an event loop, and no server's heap (the
 * receiver's kept deliveries) makes the garbage collector slower for another.
 * The kinds, by argv[2]:
 * - bare: a node:https server answering 204;
 * - minimal: a minimal verifier;
 * - minimalRecording: the minimal verifier keeping its last deliveries as the receiver does by
 *   default (headers, body and event id): what recording alone costs;
 * - receiver: the capturing receiver with its defaults (the suites' receiver);
 * - loadReceiver: the capturing receiver as a load run starts it (src/load/fanout/start-receiver.ts);
 * - minimalTwin: the minimal verifier again, in a second process: the bench's noise floor, and,
 *   loaded as often as the receivers, the minimal verifier their goals are judged against.
 * argv[3] and argv[4] are the certificate and key files every server uses. It sends its URL
 * as {url} once listening, and answers {stats} (the receiver's counters; null for the others)
 * and {close}.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { LOAD_RECEIVER_KEPT_DELIVERIES } from '../src/load/fanout/start-receiver.js';
import { CapturingReceiver, DEFAULT_KEPT_DELIVERIES, type ReceiverStats } from '../src/capturing-receiver/index.js';
import { SECRET } from './receiver-delivery.js';
import { isServerKind, type ServerKind } from './receiver-rows.js';

type Tls = { cert: string; key: string };

/** What the bench needs of a running server: where it is, its counters, and a way to stop it. */
interface RunningServer {
  url: string;
  stats(): ReceiverStats | null;
  close(): Promise<void>;
}

/** What a careful hand-written receiver does, and nothing more; with `keep`, it also records. */
function minimalVerifier(tls: Tls, keep = 0): Server {
  const kept: Array<{ headers: IncomingMessage['headers']; body: Buffer; id: unknown }> = [];
  return createServer(tls, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const expected = createHmac('sha256', SECRET).update(body).digest();
      const header = req.headers['x-service-signature'];
      const given = typeof header === 'string' && header.length === 64 ? Buffer.from(header, 'hex') : Buffer.alloc(0);
      const ok = given.length === expected.length && timingSafeEqual(given, expected);
      if (ok) {
        const event = JSON.parse(body.toString('utf8')) as { id?: unknown };
        if (keep > 0 && kept.push({ headers: req.headers, body, id: event.id }) > keep) kept.shift();
      }
      res.writeHead(ok ? 204 : 401).end();
    });
  });
}

/** A 204 to everything; Node discards the unread body itself. */
function bareServer(tls: Tls): Server {
  return createServer(tls, (_req, res) => res.writeHead(204).end());
}

async function startPlain(server: Server): Promise<RunningServer> {
  const port = await new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  return {
    url: `https://127.0.0.1:${port}/`,
    stats: () => null,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function startReceiver(tls: Tls, maxDeliveriesPerEndpoint: number): Promise<RunningServer> {
  const receiver = await CapturingReceiver.start({ tls, maxDeliveriesPerEndpoint });
  const endpoint = receiver.createEndpoint({ name: 'bench' }).setSecret(SECRET);
  return { url: endpoint.url, stats: () => receiver.stats(), close: () => receiver.close() };
}

function startServer(kind: ServerKind, tls: Tls): Promise<RunningServer> {
  switch (kind) {
    case 'bare':
      return startPlain(bareServer(tls));
    case 'minimal':
    case 'minimalTwin':
      return startPlain(minimalVerifier(tls));
    case 'minimalRecording':
      return startPlain(minimalVerifier(tls, DEFAULT_KEPT_DELIVERIES));
    case 'receiver':
      return startReceiver(tls, DEFAULT_KEPT_DELIVERIES);
    case 'loadReceiver':
      return startReceiver(tls, LOAD_RECEIVER_KEPT_DELIVERIES);
  }
}

const [kind, certPath, keyPath] = process.argv.slice(2);
if (!isServerKind(kind) || certPath === undefined || keyPath === undefined) {
  throw new Error(`usage: receiver-servers.ts <kind> <cert.pem> <key.pem>; got ${process.argv.slice(2).join(' ')}`);
}
const server = await startServer(kind, { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') });
process.send?.({ url: server.url });
process.on('message', (message: { stats?: true; close?: true }) => {
  if (message.stats) process.send?.({ stats: server.stats() });
  if (message.close) void server.close().then(() => process.exit(0));
});
