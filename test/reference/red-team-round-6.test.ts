import { createHmac } from 'node:crypto';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { deliveriesAfter200, eventually, sleep, redTeamRound, type FaultClient } from './red-team-support.js';

// Red team, round 6: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

type Client = FaultClient;

/** A workspace whose identity provider is the test JWKS (audience svc), with member u1 holding `scopes`. */
async function sessionWorkspace(c: Client, scopes: string[] = ['voice:read']) {
  const ws = await c.workspace();
  const issuer = `https://idp.example/${ws.id}`;
  await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, {
    issuer,
    jwks_uri: all.keys.url,
    audience: 'svc',
  });
  await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u1', scopes });
  /** A session JWT for u1, valid 60 s, under `iss`. */
  const jwt = (iss = issuer) => all.keys.sign({ iss, aud: 'svc', sub: 'u1', exp: Math.floor(Date.now() / 1000) + 60 });
  return { ws, issuer, jwt };
}

const errorCode = (json: unknown): unknown => (json as { error?: { code?: unknown } } | null)?.error?.code;

describe('red team round 6', () => {
  it('workspace-disabled-flat-error: a suspended workspace is answered without the error shape', async () => {
    const seen = await both('workspace-disabled-flat-error', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const answer = await c.api('GET', '/v1/whoami', token);
      const error = answer.json?.error;
      return [
        typeof error === 'object' && error !== null ? error.code : 'no error object',
        typeof error?.request_id === 'string' && /^req_/.test(error.request_id),
      ];
    });
    expect(seen).toEqual({ clean: ['workspace_disabled', true], faulted: ['no error object', false] });
  });

  it('session-missing-scope-invalid-token: a session token lacking a scope gets invalid_token', async () => {
    const seen = await both('session-missing-scope-invalid-token', async (c) => {
      const { ws, jwt } = await sessionWorkspace(c, ['voice:read']);
      const bearer = await c.token(ws.id, { label: 'read-only', scopes: ['voice:read'] });
      const session = await c.placeCall(await jwt(), ws.agents[0]!);
      const viaBearer = await c.placeCall(bearer.token, ws.agents[0]!);
      const allowed = (await c.api('GET', '/v1/voice/agents', await jwt())).status;
      return [allowed, errorCode(session.json), errorCode(viaBearer.json), session.status === 401];
    });
    expect(seen).toEqual({
      clean: [200, 'missing_scope', 'missing_scope', false],
      faulted: [200, 'invalid_token', 'missing_scope', true],
    });
  });

  it('jwt-iss-trailing-slash-ignored: a JWT whose iss has a trailing slash is accepted', async () => {
    const seen = await both('jwt-iss-trailing-slash-ignored', async (c) => {
      const { issuer, jwt } = await sessionWorkspace(c);
      const exact = await c.api('GET', '/v1/whoami', await jwt());
      const slashed = await c.api('GET', '/v1/whoami', await jwt(issuer + '/'));
      return [exact.status, slashed.status, errorCode(slashed.json) ?? null];
    });
    expect(seen).toEqual({ clean: [200, 401, 'invalid_token'], faulted: [200, 200, null] });
  });

  it('revoked-while-suspended-restored: a token revoked during a suspension works after reinstatement', async () => {
    const seen = await both('revoked-while-suspended-restored', async (c) => {
      const ws = await c.workspace();
      const old = await c.token(ws.id, { label: 'old' });
      const kept = await c.token(ws.id, { label: 'kept' });
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const revoked = (await c.control('DELETE', `/workspaces/${ws.id}/tokens/${old.id}`)).status;
      await c.control('POST', `/workspaces/${ws.id}/reinstate`);
      await sleep(800);
      return [
        revoked,
        (await c.api('GET', '/v1/whoami', kept.token)).status,
        (await c.api('GET', '/v1/whoami', old.token)).status,
      ];
    });
    expect(seen).toEqual({ clean: [204, 200, 401], faulted: [204, 200, 200] });
  });

  it("reinstate-rekeys-endpoints: after a reinstatement deliveries do not verify with the endpoint's secret", async () => {
    const seen = await both('reinstate-rekeys-endpoints', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      await c.control('POST', `/workspaces/${ws.id}/reinstate`);
      await c.fire(ws.id);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const expected = createHmac('sha256', endpoint.secret)
        .update(delivery?.body ?? '')
        .digest('hex');
      return [delivery !== undefined, delivery?.headers['x-service-signature'] === expected];
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('ack-error-field-fails: a 200 whose JSON body has an error member (null) is retried', async () => {
    const seen = await both('ack-error-field-fails', (c) =>
      deliveriesAfter200(c, all.receiver, [
        { text: '{"received":true,"error":null}', contentType: 'application/json' },
      ]),
    );
    expect(seen).toEqual({ clean: [1], faulted: [2] });
  });

  it('replay-not-retried: a replay answered 500 is never retried', async () => {
    const seen = await both('replay-not-retried', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      await sleep(200);
      all.receiver.answer(path, 500);
      const replayed = (
        await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
          event_id: fired.json.event_id,
          endpoint_id: endpoint.id,
        })
      ).status;
      await sleep(1500);
      return [replayed, all.receiver.at(path).length - 1];
    });
    expect(seen.clean[0]).toBe(202);
    expect(seen.clean[1]).toBeGreaterThanOrEqual(3);
    expect(seen.faulted).toEqual([202, 1]);
  });

  it('duration-capped-3600: a call reported at 3601 s is carried as 3600 s', async () => {
    const seen = await both('duration-capped-3600', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const durations: unknown[] = [];
      for (const seconds of [3600, 3601]) {
        const placed = await c.placeCall(token, ws.agents[0]!);
        const callId = placed.json.call_id as string;
        await c.control('POST', `/workspaces/${ws.id}/calls/${callId}/progress`, { state: 'started' });
        await c.control('POST', `/workspaces/${ws.id}/calls/${callId}/progress`, {
          state: 'completed',
          outcome: 'answered',
          duration_seconds: seconds,
        });
        const delivery = await eventually(() => all.receiver.at(path).find((d) => d.event.data.call_id === callId));
        durations.push(delivery?.event.data.duration_seconds);
      }
      return durations;
    });
    expect(seen).toEqual({ clean: [3600, 3601], faulted: [3600, 3600] });
  });

  it('licensed-scopes-empty-all: a workspace licensed for no scope gives its tokens every scope', async () => {
    const seen = await both('licensed-scopes-empty-all', async (c) => {
      const ws = await c.workspace({ licensed_scopes: [] });
      const { token, scopes } = await c.token(ws.id);
      const agents = await c.api('GET', '/v1/voice/agents', token);
      return [scopes.length, errorCode(agents.json) ?? agents.status];
    });
    expect(seen).toEqual({ clean: [0, 'missing_scope'], faulted: [5, 200] });
  });

  it('scope-cached-per-connection: on a kept-alive connection a token lacking voice:read lists agents', async () => {
    const seen = await both('scope-cached-per-connection', async (c) => {
      const ws = await c.workspace();
      const reader = await c.token(ws.id, { label: 'reader', scopes: ['voice:read'] });
      const mailer = await c.token(ws.id, { label: 'mailer', scopes: ['mailer:read'] });
      const fresh = await c.api('GET', '/v1/voice/agents', mailer.token);
      const kept = new Agent({ connections: 1 });
      try {
        const first = await c.api('GET', '/v1/voice/agents', reader.token, undefined, kept);
        const second = await c.api('GET', '/v1/voice/agents', mailer.token, undefined, kept);
        return [errorCode(fresh.json), first.status, errorCode(second.json) ?? second.status];
      } finally {
        await kept.close();
      }
    });
    expect(seen).toEqual({
      clean: ['missing_scope', 200, 'missing_scope'],
      faulted: ['missing_scope', 200, 200],
    });
  });
});
