import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import { makeSelfSignedCert } from '../../reference/dev/self-signed-cert.js';

// Loopback servers the reference's HTTP tests talk to: a capturing HTTPS webhook
// receiver (answers 204) and a test identity provider's JWKS (one ES256 key, kid k1).

export interface Received {
  body: string;
  signature: string;
  timestamp: string;
  contentType: string | undefined;
}

export async function listen(server: HttpServer | HttpsServer): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

export async function stop(server: HttpServer | HttpsServer): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
}

export async function startReceiver() {
  const received: Received[] = [];
  let waiters: Array<() => void> = [];
  const server = createHttpsServer(makeSelfSignedCert(), (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['x-service-signature']),
        timestamp: String(req.headers['x-service-timestamp']),
        contentType: req.headers['content-type'],
      });
      res.statusCode = 204;
      res.end();
      for (const wake of waiters) wake();
      waiters = [];
    });
  });
  const url = `https://127.0.0.1:${await listen(server)}/hook`;
  /** Resolves once `ready()` holds, re-checked after each delivery; rejects after `timeoutMs`. */
  function waitUntil<T>(ready: () => T | undefined, describe: () => string, timeoutMs = 4000): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(describe())), timeoutMs);
      const check = () => {
        const value = ready();
        if (value !== undefined) {
          clearTimeout(timer);
          resolve(value);
        } else waiters.push(check);
      };
      check();
    });
  }
  return { url, received, waitUntil, close: () => stop(server) };
}

export async function startJwks() {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const server = createHttpServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  const url = `http://127.0.0.1:${await listen(server)}/jwks.json`;
  return { url, signingKey: privateKey, close: () => stop(server) };
}
