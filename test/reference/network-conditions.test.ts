import { request } from 'node:http';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, test } from 'vitest';
import { ConditionedNetwork } from '../../reference/http/conditions.js';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/index.js';
import { Outbound } from '../../reference/outbound.js';
import { Store } from '../../reference/store.js';
import { startJwks, startReceiver } from './servers.js';

// The reference playing a staging service across a real network: each condition seen
// from a client over real sockets (reference/README.md, "Network conditions").

const started: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

async function reference(options: ReferenceOptions): Promise<RunningReference> {
  const running = await startReference({ quiet: true, ...options });
  started.push(running);
  return running;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

/** One request on a connection of its own (no pool, no retry): a reset is seen as such. */
function send(url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : null });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function control(ref: RunningReference, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${ref.controlToken}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return send(ref.controlUrl + path, method, headers, body === undefined ? undefined : JSON.stringify(body));
}

function api(ref: RunningReference, method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return send(ref.baseUrl + path, method, headers, body === undefined ? undefined : JSON.stringify(body));
}

async function workspaceWithToken(ref: RunningReference, body: Record<string, unknown> = {}) {
  const ws = await control(ref, 'POST', '/workspaces', body);
  expect(ws.status).toBe(201);
  const token = await control(ref, 'POST', `/workspaces/${ws.json.workspace_id}/tokens`, { label: 'conditions' });
  expect(token.status).toBe(201);
  return {
    id: ws.json.workspace_id as string,
    agents: ws.json.agent_ids as string[],
    token: token.json.token as string,
  };
}

/** `count` requests at once (close together, so no token refills in between), statuses in ascending order. */
async function burst(count: number, one: () => Promise<Answer>): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: count }, one));
  return answers.map((a) => a.status).sort((x, y) => x - y);
}

async function statuses(count: number, one: () => Promise<Answer>): Promise<number[]> {
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await one()).status);
  return result;
}

describe('rate limit', () => {
  test('after the burst a workspace gets 429 rate_limited with Retry-After in seconds', async () => {
    const ref = await reference({ network: { rateLimit: { perWorkspace: 3, perClient: 1000 } } });
    const ws = await workspaceWithToken(ref);
    expect(await burst(3, () => api(ref, 'GET', '/v1/whoami', ws.token))).toEqual([200, 200, 200]);
    const limited = await api(ref, 'GET', '/v1/whoami', ws.token);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.json.error.code).toBe('rate_limited');
    expect(limited.json.error.message).toMatch(/workspace/);
    expect(limited.json.error.request_id).toMatch(/^req_[A-Za-z0-9]+$/);
    expect(limited.headers['x-request-id']).toBe(limited.json.error.request_id);
  });

  test('each workspace has its own limit', async () => {
    const ref = await reference({ network: { rateLimit: { perWorkspace: 3, perClient: 1000 } } });
    const a = await workspaceWithToken(ref);
    const b = await workspaceWithToken(ref);
    expect(await burst(4, () => api(ref, 'GET', '/v1/voice/agents', a.token))).toEqual([200, 200, 200, 429]);
    expect(await burst(4, () => api(ref, 'GET', '/v1/voice/agents', b.token))).toEqual([200, 200, 200, 429]);
  });

  test("a session token counts against the workspace of its member, with that workspace's bearer tokens", async () => {
    const jwks = await startJwks();
    started.push(jwks);
    const ref = await reference({ network: { rateLimit: { perWorkspace: 3, perClient: 1000 } } });
    const ws = await workspaceWithToken(ref);
    expect(
      (
        await control(ref, 'PUT', `/workspaces/${ws.id}/identity-provider`, {
          issuer: 'https://idp.test',
          jwks_uri: jwks.url,
          audience: 'svc',
        })
      ).status,
    ).toBeLessThan(300);
    expect(
      (await control(ref, 'POST', `/workspaces/${ws.id}/members`, { subject: 'user_1', scopes: ['voice:read'] }))
        .status,
    ).toBe(201);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('https://idp.test')
      .setAudience('svc')
      .setSubject('user_1')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(jwks.signingKey);
    expect(await burst(2, () => api(ref, 'GET', '/v1/whoami', jwt))).toEqual([200, 200]);
    expect(await burst(2, () => api(ref, 'GET', '/v1/whoami', ws.token))).toEqual([200, 429]);
  });

  test('a token comes back after the time the limit names', async () => {
    const ref = await reference({ network: { rateLimit: { perWorkspace: 5 } } });
    const ws = await workspaceWithToken(ref);
    let sent = 0;
    while ((await api(ref, 'GET', '/v1/whoami', ws.token)).status === 200) expect(++sent).toBeLessThan(50);
    // One token every 200 ms at 5/s.
    await new Promise((r) => setTimeout(r, 220));
    expect((await api(ref, 'GET', '/v1/whoami', ws.token)).status).toBe(200);
  });

  test('requests without a credential count against the client address only; the control interface is never limited', async () => {
    const ref = await reference({ network: { rateLimit: { perWorkspace: 100, perClient: 4 } } });
    expect(await burst(5, () => api(ref, 'GET', '/v1/whoami'))).toEqual([401, 401, 401, 401, 429]);
    const limited = await api(ref, 'GET', '/v1/whoami');
    expect(limited.json.error.message).toMatch(/client address/);
    // The same client, over its limit on /v1, is not limited on the control interface.
    expect(new Set(await statuses(20, () => control(ref, 'GET', '/capabilities')))).toEqual(new Set([200]));
  });

  test('Retry-After can be an HTTP date, or absent', async () => {
    const dated = await reference({ network: { rateLimit: { perClient: 1, retryAfter: 'date' } } });
    await api(dated, 'GET', '/v1/whoami');
    const byDate = await api(dated, 'GET', '/v1/whoami');
    expect(byDate.status).toBe(429);
    const when = Date.parse(String(byDate.headers['retry-after']));
    expect(String(byDate.headers['retry-after'])).toMatch(
      /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    );
    expect(when).toBeGreaterThan(Date.now());
    expect(when).toBeLessThanOrEqual(Date.now() + 2_000);

    const bare = await reference({ network: { rateLimit: { perClient: 1, retryAfter: 'none' } } });
    await api(bare, 'GET', '/v1/whoami');
    const without = await api(bare, 'GET', '/v1/whoami');
    expect(without.status).toBe(429);
    expect(without.headers['retry-after']).toBeUndefined();
  });
});

describe('reset connections', () => {
  /** Places `count` calls one after another; the indices answered 201 and the ones reset. */
  async function placeCalls(ref: RunningReference, ws: { token: string; agents: string[] }, count: number) {
    const placed: number[] = [];
    const reset: number[] = [];
    for (let i = 0; i < count; i++) {
      try {
        const answer = await api(ref, 'POST', '/v1/voice/calls', ws.token, {
          agent_id: ws.agents[0],
          to: '+14155550100',
          metadata: { i: String(i) },
        });
        expect(answer.status).toBe(201);
        placed.push(i);
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toMatch(/^(ECONNRESET|EPIPE)$/);
        reset.push(i);
      }
    }
    return { placed, reset };
  }

  test('about the fraction asked for is reset, and a reset call was never placed', async () => {
    const receiver = await startReceiver();
    started.push(receiver);
    const ref = await reference({ network: { resetFraction: 0.1, seed: 7 } });
    const ws = await workspaceWithToken(ref, { call_progress: 'manual' });
    const endpoint = await control(ref, 'POST', `/workspaces/${ws.id}/webhook-endpoints`, {
      url: receiver.url,
      events: ['voice.call.queued'],
    });
    expect(endpoint.status).toBe(201);

    const { placed, reset } = await placeCalls(ref, ws, 400);
    // Binomial(400, 0.1): mean 40, standard deviation 6; the seed makes the draw fixed.
    expect(reset.length).toBeGreaterThanOrEqual(20);
    expect(reset.length).toBeLessThanOrEqual(60);

    await receiver.waitUntil(
      () => (receiver.received.length >= placed.length ? true : undefined),
      () => `${receiver.received.length} of ${placed.length} deliveries`,
      10_000,
    );
    await new Promise((r) => setTimeout(r, 200));
    const delivered = receiver.received.map((r) => Number(JSON.parse(r.body).data.metadata.i)).sort((x, y) => x - y);
    expect(delivered).toEqual(placed);
  });

  test('the same seed resets the same requests; the control interface is never reset', async () => {
    const runs = [];
    for (const seed of [11, 11, 12]) {
      const ref = await reference({ network: { resetFraction: 0.2, seed } });
      const ws = await workspaceWithToken(ref, { call_progress: 'manual' });
      runs.push((await placeCalls(ref, ws, 60)).reset);
      expect(new Set(await statuses(30, () => control(ref, 'GET', '/capabilities')))).toEqual(new Set([200]));
    }
    expect(runs[0]!.length).toBeGreaterThan(0);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).not.toEqual(runs[0]);
  });
});

describe('latency', () => {
  async function timed<T>(fn: () => Promise<T>): Promise<number> {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  }

  test('the public API, the control interface and deliveries each take at least the added delay', async () => {
    const receiver = await startReceiver();
    started.push(receiver);
    const ref = await reference({ network: { latencyMs: 80, jitterMs: 10 } });
    const ws = await workspaceWithToken(ref, { call_progress: 'manual' });
    expect(await timed(() => control(ref, 'GET', '/capabilities'))).toBeGreaterThanOrEqual(69);
    expect(await timed(() => api(ref, 'GET', '/v1/whoami', ws.token))).toBeGreaterThanOrEqual(69);
    expect(await timed(() => api(ref, 'GET', '/v1/no-such-path'))).toBeGreaterThanOrEqual(69);

    expect(
      (
        await control(ref, 'POST', `/workspaces/${ws.id}/webhook-endpoints`, {
          url: receiver.url,
          events: ['voice.call.queued'],
        })
      ).status,
    ).toBe(201);
    const placed = await api(ref, 'POST', '/v1/voice/calls', ws.token, { agent_id: ws.agents[0], to: '+14155550100' });
    expect(placed.status).toBe(201);
    const answeredAt = performance.now();
    await receiver.waitUntil(
      () => (receiver.received.length > 0 ? true : undefined),
      () => 'no delivery',
    );
    expect(performance.now() - answeredAt).toBeGreaterThanOrEqual(69);
  });

  test('a JWKS fetch waits for the delay, and closing cancels the wait', async () => {
    const jwks = await startJwks();
    started.push(jwks);
    const network = new ConditionedNetwork({ latencyMs: 60 }, { store: new Store() });
    const outbound = new Outbound(undefined, network.beforeConnect);
    const start = performance.now();
    expect((await outbound.fetch(jwks.url)).status).toBe(200);
    expect(performance.now() - start).toBeGreaterThanOrEqual(59);
    const held = network.beforeConnect();
    network.close();
    await expect(held).rejects.toThrow(/closing/);
  });

  test('close() does not wait for held requests', async () => {
    const ref = await reference({ network: { latencyMs: 10_000 } });
    const pending = control(ref, 'GET', '/capabilities').then(
      () => 'answered',
      () => 'dropped',
    );
    await new Promise((r) => setTimeout(r, 50));
    const closedIn = await timed(() => ref.close());
    expect(closedIn).toBeLessThan(1_000);
    expect(await pending).toBe('dropped');
  });
});

describe('max_time_scale', () => {
  test('a smaller max_time_scale is declared and enforced', async () => {
    const ref = await reference({ maxTimeScale: 600 });
    const caps = await control(ref, 'GET', '/capabilities');
    expect(caps.json.max_time_scale).toBe(600);
    expect((await control(ref, 'POST', '/workspaces', { time_scale: 600 })).status).toBe(201);
    expect((await control(ref, 'POST', '/workspaces', { time_scale: 601 })).status).toBe(422);
  });
});
