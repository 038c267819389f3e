import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  deliveriesAfter200,
  RECEIPT,
  eventually,
  sleep,
  type Delivery,
  redTeamRound,
  type FaultClient,
} from './red-team-support.js';

// Red team, round 4: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

type Client = FaultClient;

/** Signs a session JWT for member u1 with the test JWKS's first key, valid 60 s. */
const sessionJwt = (issuer: string, aud: string | string[] = 'svc') =>
  all.keys.sign({ iss: issuer, aud, sub: 'u1', exp: Math.floor(Date.now() / 1000) + 60 });

/** A workspace whose identity provider is the test JWKS (audience svc), with member u1 holding `scopes`. */
async function sessionWorkspace(c: Client, scopes: string[] = ['voice:read']) {
  const ws = await c.workspace();
  const issuer = `https://idp.${ws.id}`;
  await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, {
    issuer,
    jwks_uri: all.keys.url,
    audience: 'svc',
  });
  await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u1', scopes });
  return { ws, issuer };
}

const signedWith = (secret: string, delivery: Delivery) =>
  delivery.headers['x-service-signature'] === createHmac('sha256', secret).update(delivery.body).digest('hex');

/** A raw public request (the body sent as given), on a fresh connection. */
async function raw(url: string, method: string, headers: Record<string, string>, body?: string) {
  const dispatcher = new Agent({ pipelining: 0 });
  try {
    const res = await request(url, { method: method as 'GET', headers, body, dispatcher });
    const text = await res.body.text();
    return { status: res.statusCode, code: text ? (JSON.parse(text).error?.code ?? 'none') : 'none' };
  } finally {
    await dispatcher.close();
  }
}

describe('red team round 4', () => {
  it('token-env-prefix-ignored: the token under the svc_live_ prefix is accepted on staging', async () => {
    const seen = await both('token-env-prefix-ignored', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const live = 'svc_live_' + token.slice('svc_test_'.length);
      return [
        token.startsWith('svc_test_'),
        (await c.api('GET', '/v1/whoami', token)).status,
        (await c.api('GET', '/v1/whoami', live)).status,
      ];
    });
    expect(seen).toEqual({ clean: [true, 200, 401], faulted: [true, 200, 200] });
  });

  it('token-revoke-lost-update: of two tokens revoked at once, one comes back active', async () => {
    const seen = await both('token-revoke-lost-update', async (c) => {
      const ws = await c.workspace();
      const [a, b] = [await c.token(ws.id, { label: 'old' }), await c.token(ws.id, { label: 'new' })];
      const revoked = await Promise.all(
        [a, b].map(async (t) => (await c.control('DELETE', `/workspaces/${ws.id}/tokens/${t.id}`)).status),
      );
      await sleep(800);
      const statuses = [
        (await c.api('GET', '/v1/whoami', a.token)).status,
        (await c.api('GET', '/v1/whoami', b.token)).status,
      ];
      return [revoked, statuses.sort()];
    });
    expect(seen).toEqual({
      clean: [
        [204, 204],
        [401, 401],
      ],
      faulted: [
        [204, 204],
        [200, 401],
      ],
    });
  });

  it("endpoint-recreate-revives-deleted: a new endpoint at a deleted one's URL gets its id and secret", async () => {
    const seen = await both('endpoint-recreate-revives-deleted', async (c) => {
      const ws = await c.workspace();
      const { url } = all.receiver.url();
      const first = await c.endpoint(ws.id, url);
      const deleted = (await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${first.id}`)).status;
      const second = await c.endpoint(ws.id, url);
      return [deleted, second.id === first.id, second.secret === first.secret];
    });
    expect(seen).toEqual({ clean: [204, false, false], faulted: [204, true, true] });
  });

  it('jwt-aud-empty-array-accepted: a session JWT whose aud is [] is accepted', async () => {
    const seen = await both('jwt-aud-empty-array-accepted', async (c) => {
      const { issuer } = await sessionWorkspace(c);
      const whoami = async (aud: string | string[]) =>
        (await c.api('GET', '/v1/whoami', await sessionJwt(issuer, aud))).status;
      return [await whoami('svc'), await whoami(['other']), await whoami([])];
    });
    expect(seen).toEqual({ clean: [200, 401, 401], faulted: [200, 401, 200] });
  });

  it('reinstate-resets-settings: a call_progress manual workspace progresses calls by itself once reinstated', async () => {
    const seen = await both('reinstate-resets-settings', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.queued', 'voice.call.started', 'voice.call.completed']);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      await c.control('POST', `/workspaces/${ws.id}/reinstate`);
      const placed = await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to: '+14155550100' });
      await sleep(2000);
      return [placed.status, all.receiver.at(path).map((d) => d.event.type)];
    });
    expect(seen).toEqual({
      clean: [201, ['voice.call.queued']],
      faulted: [201, ['voice.call.queued', 'voice.call.started', 'voice.call.completed']],
    });
  });

  it('session-keepalive-suspension-stale: a JWT served on a kept-alive connection is still served there after suspension', async () => {
    const seen = await both('session-keepalive-suspension-stale', async (c) => {
      const { ws, issuer } = await sessionWorkspace(c);
      const { token } = await c.token(ws.id);
      const jwt = await sessionJwt(issuer);
      const keptAlive = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 10_000 });
      try {
        const before = (await c.api('GET', '/v1/whoami', jwt, undefined, keptAlive)).status;
        await c.api('GET', '/v1/whoami', token, undefined, keptAlive);
        await c.control('POST', `/workspaces/${ws.id}/suspend`);
        const code = async (credential: string, dispatcher?: Agent) => {
          const answer = await c.api('GET', '/v1/whoami', credential, undefined, dispatcher);
          return answer.status === 200 ? 200 : answer.json?.error?.code;
        };
        // The same JWT on the kept-alive connection, the bearer token there, the JWT on a fresh one.
        return [before, await code(jwt, keptAlive), await code(token, keptAlive), await code(jwt)];
      } finally {
        await keptAlive.close();
      }
    });
    expect(seen).toEqual({
      clean: [200, 'workspace_disabled', 'workspace_disabled', 'workspace_disabled'],
      faulted: [200, 200, 'workspace_disabled', 'workspace_disabled'],
    });
  });

  it("idp-previous-kept-alongside: after the identity provider is set anew, the previous issuer's JWTs still work", async () => {
    const seen = await both('idp-previous-kept-alongside', async (c) => {
      const { ws, issuer } = await sessionWorkspace(c);
      const before = (await c.api('GET', '/v1/whoami', await sessionJwt(issuer))).status;
      const newIssuer = `https://idp-new.${ws.id}`;
      const put = await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, {
        issuer: newIssuer,
        jwks_uri: all.keys.url,
        audience: 'svc-new',
      });
      return [
        before,
        put.status,
        (await c.api('GET', '/v1/whoami', await sessionJwt(newIssuer, 'svc-new'))).status,
        (await c.api('GET', '/v1/whoami', await sessionJwt(issuer))).status,
      ];
    });
    expect(seen).toEqual({ clean: [200, 204, 200, 401], faulted: [200, 204, 200, 200] });
  });

  it("replay-signed-with-first-delivery: a replay to a newer endpoint carries the first endpoint's signature", async () => {
    const seen = await both('replay-signed-with-first-delivery', async (c) => {
      const ws = await c.workspace();
      const first = all.receiver.url();
      const a = await c.endpoint(ws.id, first.url);
      const fired = await c.fire(ws.id, 'mailer.email.sent', { email_id: 'em_1' });
      const original = await eventually(() => all.receiver.at(first.path)[0]);
      const second = all.receiver.url();
      const b = await c.endpoint(ws.id, second.url);
      const replayed = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: b.id,
      });
      const replay = await eventually(() => all.receiver.at(second.path)[0]);
      return [
        signedWith(a.secret, original!),
        replayed.status,
        replay?.event.id === fired.json.event_id,
        signedWith(b.secret, replay!),
        signedWith(a.secret, replay!),
      ];
    });
    expect(seen).toEqual({ clean: [true, 202, true, true, false], faulted: [true, 202, true, false, true] });
  });

  it('transcript-gone-after-completion: the transcript_url answers 404 some seconds after the call completed', async () => {
    const seen = await both('transcript-gone-after-completion', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to: '+14155550100' });
      const completed = await eventually(() => all.receiver.at(path)[0]);
      const transcriptUrl = completed!.event.data.transcript_url as string;
      const read = async () => (await raw(transcriptUrl, 'GET', { authorization: `Bearer ${token}` })).status;
      const atOnce = await read();
      await sleep(completed!.at + 6000 - Date.now());
      return [atOnce, await read()];
    });
    expect(seen).toEqual({ clean: [200, 200], faulted: [200, 404] });
  });

  it('ack-text-body-fails: a 200 answered with a plain-text body is retried', async () => {
    const seen = await both('ack-text-body-fails', (c) =>
      deliveriesAfter200(c, all.receiver, [{ text: 'OK' }, { text: RECEIPT, contentType: 'application/json' }]),
    );
    expect(seen).toEqual({ clean: [1, 1], faulted: [2, 1] });
  });

  it('auto-progress-slow: an auto call completes more than 2 s after it was placed', async () => {
    const seen = await both('auto-progress-slow', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placedAt = Date.now();
      await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to: '+14155550100' });
      const completed = await eventually(() => all.receiver.at(path)[0], 6000);
      return completed !== undefined && completed.at - placedAt <= 2000;
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('body-parsed-before-auth: a bad body with a revoked or missing credential is not answered invalid_token', async () => {
    const seen = await both('body-parsed-before-auth', async (c, prefix) => {
      const ws = await c.workspace();
      const { id, token } = await c.token(ws.id);
      await c.control('DELETE', `/workspaces/${ws.id}/tokens/${id}`);
      await sleep(400);
      const calls = `${all.reference.baseUrl}${prefix}/v1/voice/calls`;
      const revoked = await raw(
        calls,
        'POST',
        { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        '{"agent_id": ',
      );
      const missing = await raw(calls, 'POST', {}, 'agent_id=agt_1');
      return [revoked, missing];
    });
    expect(seen).toEqual({
      clean: [
        { status: 401, code: 'invalid_token' },
        { status: 401, code: 'invalid_token' },
      ],
      faulted: [
        { status: 400, code: 'malformed_json' },
        { status: 415, code: 'unsupported_media_type' },
      ],
    });
  });
});
