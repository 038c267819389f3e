/**
 * The servers of the receiver bench, in a child process of its own (forked by receiver.ts)
 * so that the load generator and the servers do not share one event loop: (a) a bare
 * node:https server answering 204, (b) a minimal verifier, (c) the capturing receiver. It
 * sends its ports over IPC and answers {cpu}, {stats} and {close}.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { CapturingReceiver } from '../receiver/index.js';
import { createSelfSignedCertificate } from '../tls/selfSigned.js';
import { SECRET } from './receiver-delivery.js';

export interface ServerPorts {
  bare: number;
  minimal: number;
  receiver: number;
  receiverPath: string;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

/** (b) What a careful hand-written receiver does, and nothing more. */
function minimalVerifier(tls: { cert: string; key: string }): Server {
  return createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const expected = createHmac('sha256', SECRET).update(body).digest();
      const header = req.headers['x-service-signature'];
      const given = typeof header === 'string' && header.length === 64 ? Buffer.from(header, 'hex') : Buffer.alloc(0);
      const ok = given.length === expected.length && timingSafeEqual(given, expected);
      if (ok) JSON.parse(body.toString('utf8'));
      res.writeHead(ok ? 204 : 401).end();
    });
  });
}

async function runServers(): Promise<void> {
  const tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'] });
  const bare = createServer(tls, (_req, res) => {
    // Node discards the unread body itself.
    res.writeHead(204).end();
  });
  const minimal = minimalVerifier(tls);
  const receiver = await CapturingReceiver.start({ tls });
  const endpoint = receiver.createEndpoint({ name: 'bench' }).setSecret(SECRET);
  const ports: ServerPorts = { bare: await listen(bare), minimal: await listen(minimal), receiver: receiver.port, receiverPath: endpoint.path };
  process.send?.({ ports });
  process.on('message', (message: { stats?: true; cpu?: true; close?: true }) => {
    if (message.stats) process.send?.({ stats: receiver.stats() });
    if (message.cpu) {
      const usage = process.cpuUsage();
      process.send?.({ cpu: usage.user + usage.system });
    }
    if (message.close) {
      bare.closeAllConnections();
      minimal.closeAllConnections();
      bare.close();
      minimal.close();
      void receiver.close().then(() => process.exit(0));
    }
  });
}

await runServers();
