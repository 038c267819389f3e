import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { startJwks, startReceiver } from './servers.js';
import { controlRequest } from './control.js';

// The reference's alternate personality (reference/README.md, "Personalities"): the other reasonable
// choice at each point the spec leaves open, proved over HTTP; and the default
// personality, beside it, still making the reference's choice at a few of those points.

let alternate: RunningReference;
let standard: RunningReference;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let jwks: Awaited<ReturnType<typeof startJwks>>;

beforeAll(async () => {
  [alternate, standard, receiver, jwks] = await Promise.all([
    startReference({ quiet: true, personality: 'alternate' }),
    startReference({ quiet: true }),
    startReceiver(),
    startJwks(),
  ]);
});

afterAll(async () => {
  await Promise.all([alternate?.close(), standard?.close(), receiver?.close(), jwks?.close()]);
});

const control = controlRequest;

async function api(
  ref: RunningReference,
  method: string,
  path: string,
  init: { token?: string; body?: string; contentType?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const res = await fetch(ref.baseUrl + path, { method, headers, body: init.body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : null };
}

async function workspace(ref: RunningReference, body: Record<string, unknown> = {}, scopes?: string[]) {
  const ws = await control(ref, 'POST', '/workspaces', body);
  expect(ws.status).toBe(201);
  const token = await control(ref, 'POST', `/workspaces/${ws.json.workspace_id}/tokens`, {
    label: 'personality',
    ...(scopes ? { scopes } : {}),
  });
  expect(token.status).toBe(201);
  return {
    id: ws.json.workspace_id as string,
    agents: ws.json.agent_ids as string[],
    token: token.json.token as string,
  };
}

function placeBody(agentId: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ agent_id: agentId, to: '+14155550100', ...extra });
}

function waitForDelivery(predicate: (event: any) => boolean): Promise<any> {
  return receiver.waitUntil(
    () => receiver.received.map((r) => JSON.parse(r.body)).find(predicate),
    () => 'no matching delivery',
  );
}

function expectProblem(res: { status: number; headers: Headers; json: any }, status: number): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.json).toEqual({
    type: expect.stringMatching(/^https:\/\//),
    title: expect.any(String),
    status,
    detail: expect.any(String),
  });
}

function expectAuthError(json: any, code: string): void {
  expect(json.error.code).toBe(code);
  expect(typeof json.error.message).toBe('string');
  expect(json.error.request_id).toMatch(/^req_/);
}

describe('alternate personality', () => {
  it('1. reads a JSON body sent as text/plain; a body that does not parse is still a 4xx', async () => {
    const ws = await workspace(alternate);
    const placed = await api(alternate, 'POST', '/v1/voice/calls', {
      token: ws.token,
      body: placeBody(ws.agents[0]!),
      contentType: 'text/plain',
    });
    expect(placed.status).toBe(201);
    expect(placed.json.call_id).toMatch(/^call_/);
    const garbage = await api(alternate, 'POST', '/v1/voice/calls', {
      token: ws.token,
      body: '{not json',
      contentType: 'text/plain',
    });
    expectProblem(garbage, 400);
    const notObject = await api(alternate, 'POST', '/v1/voice/calls', {
      token: ws.token,
      body: '[1]',
      contentType: 'text/plain',
    });
    expectProblem(notObject, 400);
  });

  it('2. session tokens get 5 s of leeway on exp and nbf, no more', async () => {
    const ws = await workspace(alternate);
    expect(
      (
        await control(alternate, 'PUT', `/workspaces/${ws.id}/identity-provider`, {
          issuer: 'https://idp.test',
          jwks_uri: jwks.url,
          audience: 'svc',
        })
      ).status,
    ).toBe(204);
    expect(
      (await control(alternate, 'POST', `/workspaces/${ws.id}/members`, { subject: 'user_1', scopes: ['voice:read'] }))
        .status,
    ).toBe(201);
    const now = Math.floor(Date.now() / 1000);
    const jwt = (claims: { exp: number; nbf?: number }) => {
      const token = new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer('https://idp.test')
        .setAudience('svc')
        .setSubject('user_1');
      token.setIssuedAt(claims.exp - 60).setExpirationTime(claims.exp);
      if (claims.nbf !== undefined) token.setNotBefore(claims.nbf);
      return token.sign(jwks.signingKey);
    };
    expect((await api(alternate, 'GET', '/v1/whoami', { token: await jwt({ exp: now - 1 }) })).status).toBe(200);
    const stale = await api(alternate, 'GET', '/v1/whoami', { token: await jwt({ exp: now - 10 }) });
    expect(stale.status).toBe(401);
    expectAuthError(stale.json, 'invalid_token');
    expect(
      (await api(alternate, 'GET', '/v1/whoami', { token: await jwt({ exp: now + 60, nbf: now + 2 }) })).status,
    ).toBe(200);
    expect(
      (await api(alternate, 'GET', '/v1/whoami', { token: await jwt({ exp: now + 60, nbf: now + 30 }) })).status,
    ).toBe(401);
  });

  it('3. metadata values must be strings (422 otherwise); string values round-trip', async () => {
    const ws = await workspace(alternate, { call_progress: 'manual' });
    for (const value of [{ nested: 'x' }, ['a'], 42, true, null]) {
      const res = await api(alternate, 'POST', '/v1/voice/calls', {
        token: ws.token,
        body: placeBody(ws.agents[0]!, { metadata: { lead_id: 'lead_1', other: value } }),
      });
      expectProblem(res, 422);
    }
    const hook = await control(alternate, 'POST', `/workspaces/${ws.id}/webhook-endpoints`, {
      url: receiver.url,
      events: ['voice.call.completed'],
    });
    expect(hook.status).toBe(201);
    const metadata = { lead_id: 'lead_42', note: 'ünïcode ✓' };
    const placed = await api(alternate, 'POST', '/v1/voice/calls', {
      token: ws.token,
      body: placeBody(ws.agents[0]!, { metadata }),
    });
    expect(placed.status).toBe(201);
    const callId = placed.json.call_id as string;
    expect(
      (
        await control(alternate, 'POST', `/workspaces/${ws.id}/calls/${callId}/progress`, {
          state: 'completed',
          outcome: 'answered',
          duration_seconds: 7,
        })
      ).status,
    ).toBe(204);
    const event = await waitForDelivery((e) => e.data?.call_id === callId);
    expect(event.type).toBe('voice.call.completed');
    expect(event.data.metadata).toEqual(metadata);
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('4. a 2 MB body is read and judged on its content; past 8 MiB it is refused with 413', async () => {
    const ws = await workspace(alternate);
    const big = placeBody(ws.agents[0]!, { metadata: { pad: 'x'.repeat(2 * 1024 * 1024) } });
    expect((await api(alternate, 'POST', '/v1/voice/calls', { token: ws.token, body: big })).status).toBe(201);
    const bigInvalid = JSON.stringify({ agent_id: ws.agents[0], to: 'nope', pad: 'x'.repeat(2 * 1024 * 1024) });
    expectProblem(await api(alternate, 'POST', '/v1/voice/calls', { token: ws.token, body: bigInvalid }), 422);
    const huge = await api(alternate, 'POST', '/v1/voice/calls', {
      token: ws.token,
      body: 'x'.repeat(8 * 1024 * 1024 + 1),
    });
    expect(huge.status).toBe(413);
  });

  it('5. failed only from queued: a started call cannot fail (409)', async () => {
    const ws = await workspace(alternate, { call_progress: 'manual' });
    const place = async () =>
      (await api(alternate, 'POST', '/v1/voice/calls', { token: ws.token, body: placeBody(ws.agents[0]!) })).json
        .call_id as string;
    const queued = await place();
    expect(
      (await control(alternate, 'POST', `/workspaces/${ws.id}/calls/${queued}/progress`, { state: 'failed' })).status,
    ).toBe(204);
    const started = await place();
    expect(
      (await control(alternate, 'POST', `/workspaces/${ws.id}/calls/${started}/progress`, { state: 'started' })).status,
    ).toBe(204);
    expect(
      (await control(alternate, 'POST', `/workspaces/${ws.id}/calls/${started}/progress`, { state: 'failed' })).status,
    ).toBe(409);
    expect(
      (await control(alternate, 'POST', `/workspaces/${ws.id}/calls/${started}/progress`, { state: 'completed' }))
        .status,
    ).toBe(204);
  });

  it('6. the transcript is served on POST only (GET: 405, Allow: POST), with the same gate', async () => {
    const ws = await workspace(alternate);
    const callId = (
      await api(alternate, 'POST', '/v1/voice/calls', { token: ws.token, body: placeBody(ws.agents[0]!) })
    ).json.call_id as string;
    const path = `/v1/voice/calls/${callId}/transcript`;
    const get = await api(alternate, 'GET', path, { token: ws.token });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const post = await api(alternate, 'POST', path, { token: ws.token });
    expect(post.status).toBe(200);
    expect(post.json.call_id).toBe(callId);
    expect(typeof post.json.transcript).toBe('string');
    expect((await api(alternate, 'POST', path)).status).toBe(401);
    const writeOnly = await workspace(alternate, {}, ['voice:write']);
    expectAuthError(
      (await api(alternate, 'POST', `/v1/voice/calls/${callId}/transcript`, { token: writeOnly.token })).json,
      'missing_scope',
    );
    const other = await workspace(alternate);
    expectProblem(await api(alternate, 'POST', path, { token: other.token }), 404);
    expectProblem(
      await api(alternate, 'POST', '/v1/voice/calls/call_0123456789abcdef0123456789abcdef/transcript', {
        token: ws.token,
      }),
      404,
    );
  });

  it("7. missing_scope answers 401, workspace_disabled 402, in the spec's error shape", async () => {
    const ws = await workspace(alternate, {}, ['voice:read']);
    const denied = await api(alternate, 'POST', '/v1/voice/calls', { token: ws.token, body: '{}' });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expectAuthError(denied.json, 'missing_scope');
    expect((await control(alternate, 'POST', `/workspaces/${ws.id}/suspend`)).status).toBe(204);
    const suspended = await api(alternate, 'GET', '/v1/voice/agents', { token: ws.token });
    expect(suspended.status).toBe(402);
    expectAuthError(suspended.json, 'workspace_disabled');
    expect(suspended.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('8. non-authentication errors are RFC 9457 problem details', async () => {
    const ws = await workspace(alternate);
    expectProblem(
      await api(alternate, 'POST', '/v1/voice/calls', {
        token: ws.token,
        body: placeBody(ws.agents[0]!, { to: '12345' }),
      }),
      422,
    );
    expectProblem(
      await api(alternate, 'POST', '/v1/voice/calls', { token: ws.token, body: placeBody('agt_unknown') }),
      404,
    );
    expectProblem(await api(alternate, 'GET', '/v1/nowhere', { token: ws.token }), 404);
    expectProblem(await api(alternate, 'DELETE', '/v1/whoami', { token: ws.token }), 405);
    const oversized = await fetch(alternate.baseUrl + '/v1/whoami', { headers: { 'x-padding': 'p'.repeat(20_000) } });
    expect(oversized.status).toBe(431);
    expect(oversized.headers.get('content-type')).toBe('application/problem+json');
    expect(((await oversized.json()) as { status: number }).status).toBe(431);
    const unauthenticated = await api(alternate, 'GET', '/v1/whoami');
    expect(unauthenticated.status).toBe(401);
    expectAuthError(unauthenticated.json, 'invalid_token');
  });

  it('9. identifiers are the prefix and 32 lowercase hex characters', async () => {
    const ws = await workspace(alternate);
    expect(ws.id).toMatch(/^ws_[0-9a-f]{32}$/);
    for (const agent of ws.agents) expect(agent).toMatch(/^agt_[0-9a-f]{32}$/);
    const placed = await api(alternate, 'POST', '/v1/voice/calls', { token: ws.token, body: placeBody(ws.agents[0]!) });
    expect(placed.json.call_id).toMatch(/^call_[0-9a-f]{32}$/);
    expect(placed.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const error = await api(alternate, 'GET', '/v1/whoami');
    expect(error.json.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(error.headers.get('x-request-id')).toBe(error.json.error.request_id);
    // evt_: see 3.
  });
});

describe('default personality, beside it', () => {
  it('keeps its choices: 415 for text/plain, 413 past 64 KiB, GET transcript, 403 statuses, error shape, base62 ids', async () => {
    const ws = await workspace(standard, { call_progress: 'manual' }, ['voice:read', 'voice:write']);
    expect(ws.id).toMatch(/^ws_[A-Za-z0-9]{20}$/);
    expect(
      (
        await api(standard, 'POST', '/v1/voice/calls', {
          token: ws.token,
          body: placeBody(ws.agents[0]!),
          contentType: 'text/plain',
        })
      ).status,
    ).toBe(415);
    const big = await api(standard, 'POST', '/v1/voice/calls', {
      token: ws.token,
      body: placeBody(ws.agents[0]!, { metadata: { pad: 'x'.repeat(2 * 1024 * 1024) } }),
    });
    expect(big.status).toBe(413);
    expectAuthError(big.json, 'payload_too_large');
    const nested = await api(standard, 'POST', '/v1/voice/calls', {
      token: ws.token,
      body: placeBody(ws.agents[0]!, { metadata: { deep: { a: [1, true, null] } } }),
    });
    expect(nested.status).toBe(201);
    const callId = nested.json.call_id as string;
    expect(callId).toMatch(/^call_[A-Za-z0-9]{20}$/);
    expect((await api(standard, 'GET', `/v1/voice/calls/${callId}/transcript`, { token: ws.token })).status).toBe(200);
    const post = await api(standard, 'POST', `/v1/voice/calls/${callId}/transcript`, { token: ws.token });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(
      (await control(standard, 'POST', `/workspaces/${ws.id}/calls/${callId}/progress`, { state: 'started' })).status,
    ).toBe(204);
    expect(
      (await control(standard, 'POST', `/workspaces/${ws.id}/calls/${callId}/progress`, { state: 'failed' })).status,
    ).toBe(204);
    const readOnly = await workspace(standard, {}, ['voice:read']);
    const denied = await api(standard, 'POST', '/v1/voice/calls', { token: readOnly.token, body: '{}' });
    expect(denied.status).toBe(403);
    expectAuthError(denied.json, 'missing_scope');
    await control(standard, 'POST', `/workspaces/${readOnly.id}/suspend`);
    expect((await api(standard, 'GET', '/v1/voice/agents', { token: readOnly.token })).status).toBe(403);
  });

  it('refuses a session token expired 1 s ago', async () => {
    const ws = await workspace(standard);
    await control(standard, 'PUT', `/workspaces/${ws.id}/identity-provider`, {
      issuer: 'https://idp.test',
      jwks_uri: jwks.url,
      audience: 'svc',
    });
    await control(standard, 'POST', `/workspaces/${ws.id}/members`, { subject: 'user_1', scopes: ['voice:read'] });
    const exp = Math.floor(Date.now() / 1000) - 1;
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('https://idp.test')
      .setAudience('svc')
      .setSubject('user_1')
      .setIssuedAt(exp - 60)
      .setExpirationTime(exp)
      .sign(jwks.signingKey);
    expect((await api(standard, 'GET', '/v1/whoami', { token: jwt })).status).toBe(401);
  });

  it('refuses an unknown personality', async () => {
    await expect(startReference({ quiet: true, personality: 'lenient' as never })).rejects.toThrow(/personality/);
  });
});
