import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Outbound } from '../../reference/outbound.js';
import { UndiciSender } from '../../reference/webhooks/transport.js';

// REFERENCE_OUTBOUND_HOST: the reference as a service on another machine calls one host only.
describe('outbound connections of the reference', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('by default every host is allowed', async () => {
    expect(new Outbound().refusal(new URL('https://hooks.example.test/x'))).toBeUndefined();
    expect((await new Outbound().fetch(`http://127.0.0.1:${port}/jwks.json`)).status).toBe(200);
  });

  test('with a host, only that host is allowed, with or without IPv6 brackets', () => {
    expect(new Outbound('127.0.0.2').refusal(new URL('https://127.0.0.2:8443/hook'))).toBeUndefined();
    expect(new Outbound('::1').refusal(new URL('http://[::1]:80/jwks.json'))).toBeUndefined();
    expect(new Outbound('127.0.0.2').refusal(new URL('https://127.0.0.1:8443/hook'))).toMatch(
      /only to 127\.0\.0\.2 .*not to 127\.0\.0\.1/,
    );
  });

  test('a JWKS fetch to another host fails as a network error, without a connection', async () => {
    await expect(new Outbound('127.0.0.2').fetch(`http://127.0.0.1:${port}/jwks.json`)).rejects.toThrow(
      /fetch failed: outbound connections go only to 127\.0\.0\.2/,
    );
  });

  test('a delivery to another host fails as an error outcome', async () => {
    const sender = new UndiciSender(new Outbound('127.0.0.2'));
    try {
      const outcome = await sender.send(new URL(`http://127.0.0.1:${port}/hook`), '{}', {}, 1_000);
      expect(outcome).toMatchObject({ kind: 'error', reason: expect.stringMatching(/REFERENCE_OUTBOUND_HOST/) });
    } finally {
      await sender.close();
    }
  });
});
