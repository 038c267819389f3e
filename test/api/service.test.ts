import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceApi } from '../../src/api/service.js';
import { HttpClient } from '../../src/http/client.js';

let server: Server | undefined;
const seen: string[] = [];

/** A service whose transcript answers `answer(method)`. */
async function serviceAnswering(answer: (method: string) => { status: number; headers?: Record<string, string> }): Promise<ServiceApi> {
  seen.length = 0;
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const { status, headers } = answer(req.method ?? 'GET');
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end('{}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new ServiceApi(new HttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { timeoutMs: 5_000 }));
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
    const api = await serviceAnswering((method) => (method === 'POST' ? { status: 200 } : { status: 405, headers: { allow: 'POST, OPTIONS' } }));
    expect((await api.transcript('svc_test_fake', 'call_1')).status).toBe(200);
    expect((await api.transcript('svc_test_fake', 'call_2')).status).toBe(200);
    expect(api.transcriptMethod).toBe('POST');
    expect(seen).toEqual(['GET /v1/voice/calls/call_1/transcript', 'POST /v1/voice/calls/call_1/transcript', 'POST /v1/voice/calls/call_2/transcript']);
  });

  it('keeps GET, and its answer, when a 405 offers no POST', async () => {
    const api = await serviceAnswering(() => ({ status: 405, headers: { allow: 'HEAD' } }));
    expect((await api.transcript('svc_test_fake', 'call_1')).status).toBe(405);
    expect(api.transcriptMethod).toBe('GET');
  });
});
