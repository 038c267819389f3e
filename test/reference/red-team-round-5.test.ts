import { describe, expect, it } from 'vitest';
import { deliveriesAfter200, RECEIPT, eventually, sleep, redTeamRound, type FaultClient } from './red-team-support.js';

// Red team, round 5: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

type Client = FaultClient;

/** A workspace whose identity provider is the test JWKS (audience svc), with member u1 holding `scopes`. */
async function sessionWorkspace(c: Client, scopes: string[] = ['voice:read'], body: Record<string, unknown> = {}) {
  const ws = await c.workspace(body);
  const issuer = `https://idp.${ws.id}`;
  await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, {
    issuer,
    jwks_uri: all.keys.url,
    audience: 'svc',
  });
  await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u1', scopes });
  /** A session JWT for `sub`, valid 60 s (or expired `expiredBy` seconds ago). */
  const jwt = (sub = 'u1', expiredBy?: number) =>
    all.keys.sign({
      iss: issuer,
      aud: 'svc',
      sub,
      exp: Math.floor(Date.now() / 1000) + (expiredBy === undefined ? 60 : -expiredBy),
    });
  return { ws, jwt };
}

const endpointState = async (c: Client, ws: string, endpoint: string) => {
  const read = await c.control('GET', `/workspaces/${ws}/webhook-endpoints/${endpoint}`);
  return read.status === 200 ? (read.json.state as string) : read.status;
};

describe('red team round 5', () => {
  it("token-id-is-slot: revoking a revoked token's id again revokes the token created after it", async () => {
    const seen = await both('token-id-is-slot', async (c) => {
      const ws = await c.workspace();
      const old = await c.token(ws.id, { label: 'old' });
      await c.token(ws.id, { label: 'new' });
      const first = (await c.control('DELETE', `/workspaces/${ws.id}/tokens/${old.id}`)).status;
      const newer = await c.token(ws.id, { label: 'newer' });
      const before = (await c.api('GET', '/v1/whoami', newer.token)).status;
      // The dashboard's revocation of the old token, sent again (a retried request, a second click).
      const again = (await c.control('DELETE', `/workspaces/${ws.id}/tokens/${old.id}`)).status;
      await sleep(800);
      return [first, before, again, (await c.api('GET', '/v1/whoami', newer.token)).status];
    });
    expect(seen).toEqual({ clean: [204, 200, 204, 200], faulted: [204, 200, 204, 401] });
  });

  it('endpoint-delete-by-url: deleting one endpoint deletes another registered with the same URL', async () => {
    const seen = await both('endpoint-delete-by-url', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const plans = await c.endpoint(ws.id, url, ['workspace.plan.upgraded']);
      const mail = await c.endpoint(ws.id, url, ['mailer.email.sent']);
      const deleted = (await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${plans.id}`)).status;
      const kept = await endpointState(c, ws.id, mail.id);
      await c.fire(ws.id, 'mailer.email.sent', { email_id: 'em_1' });
      await sleep(1000);
      return [deleted, kept, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [204, 'active', 1], faulted: [204, 404, 0] });
  });

  it('disabled-endpoint-undeletable: an auto-disabled endpoint cannot be deleted (404) and stays', async () => {
    const seen = await both('disabled-endpoint-undeletable', async (c) => {
      // 24 h of failures take 24 s at time scale 3600.
      const ws = await c.workspace({ time_scale: 3600 });
      const { url } = all.receiver.url(500);
      const endpoint = await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      let state = await endpointState(c, ws.id, endpoint.id);
      for (const until = Date.now() + 32_000; state !== 'disabled' && Date.now() < until; await sleep(250))
        state = await endpointState(c, ws.id, endpoint.id);
      const deleted = (await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`)).status;
      return [state, deleted, await endpointState(c, ws.id, endpoint.id)];
    });
    expect(seen).toEqual({ clean: ['disabled', 204, 404], faulted: ['disabled', 404, 'disabled'] });
  }, 40_000);

  it('ack-large-body-fails: a 200 answered with a JSON body over 4 KiB is retried', async () => {
    const large = JSON.stringify({ received: true, log: 'x'.repeat(6000) });
    const seen = await both('ack-large-body-fails', (c) =>
      deliveriesAfter200(c, all.receiver, [
        { text: large, contentType: 'application/json' },
        { text: RECEIPT, contentType: 'application/json' },
      ]),
    );
    expect(seen).toEqual({ clean: [1, 1], faulted: [2, 1] });
  });

  it("delivery-url-query-dropped: a delivery goes to the endpoint URL's path without its query", async () => {
    const seen = await both('delivery-url-query-dropped', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, `${url}?tenant=acme`);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(`${path}?tenant=acme`)[0] ?? all.receiver.at(path)[0]);
      return [all.receiver.at(`${path}?tenant=acme`).length, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [1, 0], faulted: [0, 1] });
  });

  it('replay-call-events-unknown: a voice.call.completed event read from its delivery cannot be replayed', async () => {
    const seen = await both('replay-call-events-unknown', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url, ['voice.call.completed', 'mailer.email.sent']);
      await c.placeCall(token, ws.agents[0]!);
      const completed = await eventually(() => all.receiver.at(path).find((d) => d.event.type.startsWith('voice.')));
      const fired = await c.fire(ws.id, 'mailer.email.sent', { email_id: 'em_1' });
      const replay = async (eventId: string) =>
        (
          await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
            event_id: eventId,
            endpoint_id: endpoint.id,
          })
        ).status;
      const statuses = [await replay(completed!.event.id), await replay(fired.json.event_id)];
      await sleep(1000);
      return [...statuses, all.receiver.at(path).filter((d) => d.event.id === completed!.event.id).length];
    });
    expect(seen).toEqual({ clean: [202, 202, 2], faulted: [404, 202, 1] });
  });

  it('metadata-empty-values-dropped: voice.call.completed leaves out a metadata key whose value is ""', async () => {
    const seen = await both('metadata-empty-values-dropped', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0]!, { lead_id: 'lead_1', note: '' });
      const completed = await eventually(() => all.receiver.at(path)[0]);
      return [placed.status, completed?.event.data.metadata];
    });
    expect(seen).toEqual({
      clean: [201, { lead_id: 'lead_1', note: '' }],
      faulted: [201, { lead_id: 'lead_1' }],
    });
  });

  it("session-transcript-refused: a member's session token holding voice:read cannot read a transcript", async () => {
    const seen = await both('session-transcript-refused', async (c) => {
      const { ws, jwt } = await sessionWorkspace(c, ['voice:read', 'voice:write']);
      const session = await jwt();
      const placed = await c.placeCall(session, ws.agents[0]!);
      const callId = placed.json.call_id as string;
      const read = async (credential: string) => {
        const answer = await c.api('GET', `/v1/voice/calls/${callId}/transcript`, credential);
        return answer.status === 200 ? 200 : `${answer.status} ${answer.json?.error?.code}`;
      };
      const { token } = await c.token(ws.id);
      return [
        placed.status,
        (await c.api('GET', '/v1/voice/agents', session)).status,
        await read(token),
        await read(session),
      ];
    });
    expect(seen).toEqual({ clean: [201, 200, 200, 200], faulted: [201, 200, 200, '401 invalid_token'] });
  });

  it('suspend-disables-endpoints: a reinstated workspace finds its endpoints disabled, and they get nothing', async () => {
    const seen = await both('suspend-disables-endpoints', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      await c.control('POST', `/workspaces/${ws.id}/reinstate`);
      const state = await endpointState(c, ws.id, endpoint.id);
      await c.fire(ws.id);
      await sleep(1000);
      return [state, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: ['active', 1], faulted: ['disabled', 0] });
  });

  it('member-add-lost-update: of two members added at once, one is lost', async () => {
    const seen = await both('member-add-lost-update', async (c) => {
      const { ws, jwt } = await sessionWorkspace(c);
      const added = await Promise.all(
        ['u2', 'u3'].map(
          async (subject) =>
            (await c.control('POST', `/workspaces/${ws.id}/members`, { subject, scopes: ['voice:read'] })).status,
        ),
      );
      const whoami = async (sub: string) => (await c.api('GET', '/v1/whoami', await jwt(sub))).status;
      return [added, [await whoami('u2'), await whoami('u3')].sort(), await whoami('u1')];
    });
    expect(seen).toEqual({
      clean: [[201, 201], [200, 200], 200],
      faulted: [[201, 201], [200, 401], 200],
    });
  });

  it('session-error-request-id-uuid: a refused session token is answered with a request_id not of the req_ form', async () => {
    const seen = await both('session-error-request-id-uuid', async (c) => {
      const { jwt } = await sessionWorkspace(c);
      const shape = async (credential: string) => {
        const answer = await c.api('GET', '/v1/whoami', credential);
        return [answer.status, answer.json.error.code, /^req_[A-Za-z0-9]+$/.test(answer.json.error.request_id)];
      };
      return [await shape(await jwt('u1', 120)), await shape('svc_test_notarealtokenatall0000000000')];
    });
    expect(seen).toEqual({
      clean: [
        [401, 'invalid_token', true],
        [401, 'invalid_token', true],
      ],
      faulted: [
        [401, 'invalid_token', false],
        [401, 'invalid_token', true],
      ],
    });
  });

  it('session-scopes-cached: a session JWT used before its member was narrowed keeps the wider scopes', async () => {
    const seen = await both('session-scopes-cached', async (c) => {
      const { ws, jwt } = await sessionWorkspace(c, ['voice:read', 'voice:write']);
      const used = await jwt();
      const before = (await c.placeCall(used, ws.agents[0]!)).status;
      const narrowed = (
        await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u1', scopes: ['voice:read'] })
      ).status;
      return [
        before,
        narrowed,
        (await c.placeCall(used, ws.agents[0]!)).status,
        (await c.placeCall(await jwt(), ws.agents[0]!)).status,
      ];
    });
    expect(seen).toEqual({ clean: [201, 201, 403, 403], faulted: [201, 201, 201, 403] });
  });
});
