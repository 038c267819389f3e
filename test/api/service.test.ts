import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceApi } from '../../src/api/service.js';
import { HttpClient } from '../../src/http/client.js';

let server: Server | undefined;
const seen: string[] = [];

/** A service whose transcript answers `answer(method)`. */
async function serviceAnswering(
  answer: (method: string) => { status: number; headers?: Record<string, string> },
): Promise<ServiceApi> {
  seen.length = 0;
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const { status, headers } = answer(req.method ?? 'GET');
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end('{}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new ServiceApi(
    new HttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { timeoutMs: 5_000 }),
  );
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('reading a transcript, whose method the spec does not show', () => {
  it('uses GET where GET works', async () => {
    const api = await serviceAnswering(() => ({ status: 200 }));
    expect((await api.transcript('svc_test_fake', 'call_1')).status).toBe(200);
    expect(api.transcriptMethod).toBe('GET');
    expect(seen).toEqual(['GET /v1/voice/calls/call_1/transcript']);
  });

  it('switches to POST, for the rest of the run, when GET answers 405 with Allow: POST', async () => {
    const api = await serviceAnswering((method) =>
      method === 'POST' ? { status: 200 } : { status: 405, headers: { allow: 'POST, OPTIONS' } },
    );
    expect((await api.transcript('svc_test_fake', 'call_1')).status).toBe(200);
    expect((await api.transcript('svc_test_fake', 'call_2')).status).toBe(200);
    expect(api.transcriptMethod).toBe('POST');
    expect(seen).toEqual([
      'GET /v1/voice/calls/call_1/transcript',
      'POST /v1/voice/calls/call_1/transcript',
      'POST /v1/voice/calls/call_2/transcript',
    ]);
  });

  it('keeps GET, and its answer, when a 405 offers no POST', async () => {
    const api = await serviceAnswering(() => ({ status: 405, headers: { allow: 'HEAD' } }));
    expect((await api.transcript('svc_test_fake', 'call_1')).status).toBe(405);
    expect(api.transcriptMethod).toBe('GET');
  });
});

/** A service that resets the connection of its first `resets` requests after reading them (the target may have acted), then answers. */
async function serviceResetting(resets: number, answer: { status: number; body: string }): Promise<ServiceApi> {
  seen.length = 0;
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      if (seen.length <= resets) req.socket.resetAndDestroy();
      else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new ServiceApi(
    new HttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { timeoutMs: 5_000 }),
  );
}

describe('requests that got no answer, by what they do', () => {
  it('sends a transcript read by POST again after a reset: a read, whatever its method', async () => {
    const api = await serviceResetting(1, { status: 200, body: '{"transcript":"…"}' });
    api.transcriptMethod = 'POST';
    expect((await api.transcript('svc_test_fake', 'call_1')).status).toBe(200);
    expect(seen).toEqual(['POST /v1/voice/calls/call_1/transcript', 'POST /v1/voice/calls/call_1/transcript']);
  });

  it('places a staging call again after a reset, and counts the placement the target may hold', async () => {
    const api = await serviceResetting(1, { status: 201, body: '{"call_id":"call_abc"}' });
    const res = await api.placeCall('svc_test_fake', { agent_id: 'agt_1', to: '+15555550123' });
    expect(res.status).toBe(201);
    expect(res.unconfirmedAttempts).toBe(1);
    expect(api.unconfirmedPlacements('svc_test_fake')).toBe(1);
    expect(api.unconfirmedPlacements('svc_test_other')).toBe(0);
    expect(seen).toEqual(['POST /v1/voice/calls', 'POST /v1/voice/calls']);
  });

  it('places a call again after a reset with a session token: only staging workspaces have one', async () => {
    const api = await serviceResetting(1, { status: 201, body: '{"call_id":"call_abc"}' });
    const session = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.ZmFrZS1zaWduYXR1cmU';
    expect((await api.placeCall(session, { agent_id: 'agt_1', to: '+15555550123' })).status).toBe(201);
    expect(api.unconfirmedPlacements(session)).toBe(1);
    expect(seen).toEqual(['POST /v1/voice/calls', 'POST /v1/voice/calls']);
  });

  it('does not place a call again with a production token or a credential of no known shape', async () => {
    for (const credential of ['svc_live_fake', 'not-a-token.at.all']) {
      const api = await serviceResetting(1, { status: 201, body: '{"call_id":"call_abc"}' });
      await expect(api.placeCall(credential, { agent_id: 'agt_1', to: '+15555550123' })).rejects.toMatchObject({
        kind: 'network',
      });
      expect(seen).toEqual(['POST /v1/voice/calls']);
      await new Promise((done) => server?.close(done));
    }
  });
});
