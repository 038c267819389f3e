import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { startJwks, startReceiver } from './servers.js';
import { controlRequest } from './control.js';

// The reference over real HTTP: public API, error shapes, control interface, session
// tokens against a local JWKS, and a signed delivery to a local HTTPS receiver.

let reference: RunningReference;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let jwks: Awaited<ReturnType<typeof startJwks>>;

beforeAll(async () => {
  reference = await startReference({ quiet: true, propagationMs: 300 });
  [receiver, jwks] = await Promise.all([startReceiver(), startJwks()]);
});

afterAll(async () => {
  await reference?.close();
  await receiver?.close();
  await jwks?.close();
});

const control = (method: string, path: string, body?: unknown) => controlRequest(reference, method, path, body);

async function api(method: string, path: string, init: { token?: string; body?: string; contentType?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const res = await fetch(reference.baseUrl + path, { method, headers, body: init.body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

async function workspaceWithToken(body: Record<string, unknown> = {}, scopes?: string[]) {
  const ws = await control('POST', '/workspaces', body);
  expect(ws.status).toBe(201);
  const token = await control('POST', `/workspaces/${ws.json.workspace_id}/tokens`, {
    label: 'smoke',
    ...(scopes ? { scopes } : {}),
  });
  expect(token.status).toBe(201);
  return {
    id: ws.json.workspace_id as string,
    agents: ws.json.agent_ids as string[],
    token: token.json.token as string,
    tokenId: token.json.token_id as string,
  };
}

function waitForDeliveries(count: number, timeoutMs = 4000): Promise<true> {
  return receiver.waitUntil(
    () => (receiver.received.length >= count ? true : undefined),
    () => `only ${receiver.received.length} deliveries`,
    timeoutMs,
  );
}

function expectErrorShape(json: any, code: string): void {
  expect(json.error.code).toBe(code);
  expect(typeof json.error.message).toBe('string');
  expect(json.error.request_id).toMatch(/^req_[A-Za-z0-9]+$/);
}

describe('reference over HTTP', () => {
  it('capabilities follow the contract; control needs its token', async () => {
    const caps = await control('GET', '/capabilities');
    expect(caps).toEqual({
      status: 200,
      json: { contract: '1', max_time_scale: 3600, delivery_timeout_ms: 10_000, environment: 'staging' },
    });
    const anonymous = await fetch(reference.controlUrl + '/capabilities');
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: unknown } }).error.code).toBeTypeOf('string');
  });

  it('whoami, agents and call placement work with a token; request ids are unique', async () => {
    const ws = await workspaceWithToken({ call_progress: 'manual' });
    const whoami = await api('GET', '/v1/whoami', { token: ws.token });
    expect(whoami.status).toBe(200);
    const agents = await api('GET', '/v1/voice/agents', { token: ws.token });
    expect(agents.status).toBe(200);
    expect(JSON.stringify(agents.json)).toContain(ws.agents[0]);
    const call = await api('POST', '/v1/voice/calls', {
      token: ws.token,
      body: JSON.stringify({ agent_id: ws.agents[0], to: '+14155550100' }),
    });
    expect(call.status).toBe(201);
    expect(call.json.call_id).toMatch(/^call_[A-Za-z0-9]+$/);
    const transcript = await api('GET', `/v1/voice/calls/${call.json.call_id}/transcript`, { token: ws.token });
    expect(transcript.status).toBe(200);
    const ids = [whoami, agents, call, transcript].map((r) => r.headers.get('x-request-id'));
    expect(ids.every((id) => /^req_/.test(id ?? ''))).toBe(true);
    expect(new Set(ids).size).toBe(4);
  });

  it('every response carries its own X-Request-Id, an error the one its body names', async () => {
    const ws = await workspaceWithToken({ call_progress: 'manual' });
    const placed = await api('POST', '/v1/voice/calls', {
      token: ws.token,
      body: JSON.stringify({ agent_id: ws.agents[0], to: '+14155550100' }),
    });
    const invalid = await api('POST', '/v1/voice/calls', {
      token: ws.token,
      body: JSON.stringify({ agent_id: ws.agents[0], to: 'nope' }),
    });
    const wrongMethod = await api('DELETE', '/v1/voice/calls', { token: ws.token });
    const anonymous = await api('GET', '/v1/whoami');
    const emptyWhoami = await api('GET', '/faults/whoami-204/v1/whoami', { token: ws.token });
    const emptyUnauthorized = await api('GET', '/faults/no-credential-empty-401/v1/whoami');
    const reused = await api('GET', '/faults/request-id-reused/v1/whoami');
    const capabilities = await fetch(reference.controlUrl + '/capabilities', {
      headers: { authorization: `Bearer ${reference.controlToken}` },
    });
    const suspended = await fetch(`${reference.controlUrl}/workspaces/${ws.id}/suspend`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reference.controlToken}` },
    });
    await capabilities.arrayBuffer();
    await suspended.arrayBuffer();
    expect([
      placed.status,
      invalid.status,
      wrongMethod.status,
      anonymous.status,
      emptyWhoami.status,
      emptyUnauthorized.status,
      capabilities.status,
    ]).toEqual([201, 422, 405, 401, 204, 401, 200]);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    const ids = [placed, invalid, wrongMethod, anonymous, emptyWhoami, emptyUnauthorized, capabilities, suspended].map(
      (r) => r.headers.get('x-request-id'),
    );
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const error of [invalid, wrongMethod, anonymous])
      expect(error.json.error.request_id).toBe(error.headers.get('x-request-id'));
    expect(reused.headers.get('x-request-id')).toBe(reused.json.error.request_id);
    expect(reused.headers.get('x-request-id')).toBe('req_000000000000000000000');
  });

  it('authentication errors have the spec shape and order', async () => {
    const missing = await api('GET', '/v1/whoami');
    expect(missing.status).toBe(401);
    expectErrorShape(missing.json, 'invalid_token');
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
    const huge = await api('GET', '/v1/whoami', { token: 'svc_test_' + 'a'.repeat(10_000) });
    expect(huge.status).toBe(401);
    const readOnly = await workspaceWithToken({}, ['voice:read']);
    const denied = await api('POST', '/v1/voice/calls', { token: readOnly.token, body: '{}' });
    expect(denied.status).toBe(403);
    expectErrorShape(denied.json, 'missing_scope');
    await control('POST', `/workspaces/${readOnly.id}/suspend`);
    const suspended = await api('POST', '/v1/voice/calls', { token: readOnly.token, body: '{}' });
    expectErrorShape(suspended.json, 'workspace_disabled');
    await control('POST', `/workspaces/${readOnly.id}/reinstate`);
    expect((await api('GET', '/v1/whoami', { token: readOnly.token })).status).toBe(200);
  });

  it('bad input is a 4xx JSON error, never a 5xx', async () => {
    const ws = await workspaceWithToken();
    const cases = [
      { body: '{not json', status: 400 },
      { body: '[1,2]', status: 400 },
      { body: '{}', contentType: 'text/plain', status: 415 },
      { body: JSON.stringify({ agent_id: ws.agents[0], to: '12345' }), status: 422 },
      { body: JSON.stringify({ agent_id: 'agt_unknown', to: '+14155550100' }), status: 404 },
      { body: 'x'.repeat(100_000), status: 413 },
    ];
    for (const c of cases) {
      const res = await api('POST', '/v1/voice/calls', { token: ws.token, body: c.body, contentType: c.contentType });
      expect(res.status, c.body.slice(0, 20)).toBe(c.status);
      expect(res.json.error.request_id).toMatch(/^req_/);
    }
    expect((await api('GET', '/v1/nowhere', { token: ws.token })).status).toBe(404);
    expect((await api('DELETE', '/v1/whoami', { token: ws.token })).status).toBe(405);
    expect((await api('GET', '/faults/not-a-fault/v1/whoami')).status).toBe(404);
  });

  it('a revoked token is refused within the propagation time', async () => {
    const ws = await workspaceWithToken();
    expect((await api('GET', '/v1/whoami', { token: ws.token })).status).toBe(200);
    expect((await control('DELETE', `/workspaces/${ws.id}/tokens/${ws.tokenId}`)).status).toBe(204);
    await new Promise((r) => setTimeout(r, 350));
    const after = await api('GET', '/v1/whoami', { token: ws.token });
    expect(after.status).toBe(401);
    expectErrorShape(after.json, 'invalid_token');
  });

  it("session tokens resolve to a member and the member's scopes", async () => {
    const ws = await workspaceWithToken();
    await control('PUT', `/workspaces/${ws.id}/identity-provider`, {
      issuer: 'https://idp.test',
      jwks_uri: jwks.url,
      audience: 'svc',
    });
    await control('POST', `/workspaces/${ws.id}/members`, { subject: 'user_1', scopes: ['voice:read'] });
    const jwt = (sub: string, aud = 'svc') =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer('https://idp.test')
        .setAudience(aud)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime('60s')
        .sign(jwks.signingKey);
    expect((await api('GET', '/v1/voice/agents', { token: await jwt('user_1') })).status).toBe(200);
    expect((await api('POST', '/v1/voice/calls', { token: await jwt('user_1'), body: '{}' })).status).toBe(403);
    expect((await api('GET', '/v1/whoami', { token: await jwt('stranger') })).status).toBe(401);
    expect((await api('GET', '/v1/whoami', { token: await jwt('user_1', 'other') })).status).toBe(401);
  });

  it('a completed call is delivered to an HTTPS receiver, signed over the exact body', async () => {
    const ws = await workspaceWithToken({ call_progress: 'manual' });
    const endpoint = await control('POST', `/workspaces/${ws.id}/webhook-endpoints`, {
      url: receiver.url,
      events: ['voice.call.completed'],
    });
    expect(endpoint.status).toBe(201);
    const call = await api('POST', '/v1/voice/calls', {
      token: ws.token,
      body: JSON.stringify({ agent_id: ws.agents[0], to: '+14155550100', metadata: { lead_id: 'lead_1' } }),
    });
    const before = receiver.received.length;
    expect(
      (await control('POST', `/workspaces/${ws.id}/calls/${call.json.call_id}/progress`, { state: 'started' })).status,
    ).toBe(204);
    expect(
      (
        await control('POST', `/workspaces/${ws.id}/calls/${call.json.call_id}/progress`, {
          state: 'completed',
          outcome: 'answered',
          duration_seconds: 42,
        })
      ).status,
    ).toBe(204);
    await waitForDeliveries(before + 1);
    const delivery = receiver.received[before]!;
    const expected = createHmac('sha256', Buffer.from(endpoint.json.secret, 'utf8'))
      .update(delivery.body)
      .digest('hex');
    expect(delivery.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(timingSafeEqual(Buffer.from(delivery.signature), Buffer.from(expected))).toBe(true);
    expect(Math.abs(Number(delivery.timestamp) - Date.now() / 1000)).toBeLessThan(5);
    expect(delivery.contentType).toBe('application/json');
    const event = JSON.parse(delivery.body);
    expect(event).toMatchObject({
      type: 'voice.call.completed',
      workspace_id: ws.id,
      api_version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(event.id).toMatch(/^evt_/);
    expect(event.created_at).toMatch(/Z$/);
    expect(event.data).toMatchObject({
      call_id: call.json.call_id,
      agent_id: ws.agents[0],
      to: '+14155550100',
      duration_seconds: 42,
      outcome: 'answered',
      metadata: { lead_id: 'lead_1' },
    });
    const transcript = await fetch(event.data.transcript_url, { headers: { authorization: `Bearer ${ws.token}` } });
    expect(transcript.status).toBe(200);

    // Replay: the same id and body, a fresh signature check passes again.
    expect(
      (
        await control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
          event_id: event.id,
          endpoint_id: endpoint.json.endpoint_id,
        })
      ).status,
    ).toBe(202);
    await waitForDeliveries(before + 2);
    expect(receiver.received[before + 1]!.body).toBe(delivery.body);
  });

  it('endpoint registration rules are enforced', async () => {
    const ws = await workspaceWithToken();
    const post = (url: string) => control('POST', `/workspaces/${ws.id}/webhook-endpoints`, { url, events: ['*'] });
    expect((await post('http://127.0.0.1:9/x')).status).toBe(422);
    expect((await post('https://localhost:9/x')).status).toBe(422);
    for (let i = 0; i < 25; i++) expect((await post(`https://127.0.0.1:9/e${i}`)).status).toBe(201);
    expect((await post('https://127.0.0.1:9/e26')).status).toBe(409);
  });
});
