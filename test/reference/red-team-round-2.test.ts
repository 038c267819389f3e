import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, sleep, startAll } from './red-team-support.js';

// Red team, round 2: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

let all: Awaited<ReturnType<typeof startAll>>;

beforeAll(async () => {
  all = await startAll();
});

afterAll(async () => {
  await all?.close();
});

type Client = ReturnType<typeof client>;

/** Runs `observe` clean and under `fault`, and returns both observations. */
async function both<T>(fault: string, observe: (c: Client) => Promise<T>): Promise<{ clean: T; faulted: T }> {
  return {
    clean: await observe(client(all.reference, '')),
    faulted: await observe(client(all.reference, `/faults/${fault}`)),
  };
}

/** A workspace whose identity provider is the test JWKS, with member u1 holding `scopes`. */
async function sessionWorkspace(c: Client, scopes: string[], audience = 'svc') {
  const ws = await c.workspace();
  const issuer = `https://idp.${ws.id}`;
  await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, { issuer, jwks_uri: all.keys.url, audience });
  await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u1', scopes });
  const jwt = (claims: { iss?: string; aud?: string | string[]; nbf?: number; exp?: number } = {}) =>
    all.keys.sign({
      iss: claims.iss ?? issuer,
      aud: claims.aud ?? audience,
      sub: 'u1',
      exp: claims.exp ?? Math.floor(Date.now() / 1000) + 60,
      ...(claims.nbf ? { nbf: claims.nbf } : {}),
    });
  return { ws, issuer, jwt };
}

describe('red team round 2', () => {
  it("suspend-revokes-tokens: a reinstated workspace's token answers 401", async () => {
    const seen = await both('suspend-revokes-tokens', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      await c.control('POST', `/workspaces/${ws.id}/reinstate`);
      await sleep(400);
      const answer = await c.api('GET', '/v1/whoami', token);
      return [answer.status, answer.json?.error?.code ?? 'none'];
    });
    expect(seen).toEqual({ clean: [200, 'none'], faulted: [401, 'invalid_token'] });
  });

  it('scope-verb-any-area: a mailer:write token places calls', async () => {
    const seen = await both('scope-verb-any-area', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id, { label: 'm', scopes: ['mailer:write'] });
      return (await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to: '+14155550100' })).status;
    });
    expect(seen).toEqual({ clean: 403, faulted: 201 });
  });

  it("token-revoke-cross-workspace: workspace B's control revokes A's token", async () => {
    const seen = await both('token-revoke-cross-workspace', async (c) => {
      const [a, b] = [await c.workspace(), await c.workspace()];
      const tokenA = await c.token(a.id);
      const revoke = await c.control('DELETE', `/workspaces/${b.id}/tokens/${tokenA.id}`);
      await sleep(400);
      return [revoke.status, (await c.api('GET', '/v1/whoami', tokenA.token)).status];
    });
    expect(seen).toEqual({ clean: [404, 200], faulted: [204, 401] });
  });

  it('jwt-nbf-leeway-5min: a JWT two minutes before its nbf is accepted', async () => {
    const seen = await both('jwt-nbf-leeway-5min', async (c) => {
      const { jwt } = await sessionWorkspace(c, ['voice:read']);
      const now = Math.floor(Date.now() / 1000);
      const soon = await jwt({ nbf: now + 120, exp: now + 180 });
      const later = await jwt({ nbf: now + 600, exp: now + 660 });
      return [(await c.api('GET', '/v1/whoami', soon)).status, (await c.api('GET', '/v1/whoami', later)).status];
    });
    expect(seen).toEqual({ clean: [401, 401], faulted: [200, 401] });
  });

  it('jwt-aud-array-first-only: the audience second in an aud array is refused', async () => {
    const seen = await both('jwt-aud-array-first-only', async (c) => {
      const { jwt } = await sessionWorkspace(c, ['voice:read']);
      return [
        (await c.api('GET', '/v1/whoami', await jwt({ aud: ['svc', 'other'] }))).status,
        (await c.api('GET', '/v1/whoami', await jwt({ aud: ['other', 'svc'] }))).status,
      ];
    });
    expect(seen).toEqual({ clean: [200, 200], faulted: [200, 401] });
  });

  it('enable-keeps-failure-streak: a re-enabled endpoint is disabled again by its next failure', async () => {
    const seen = await both('enable-keeps-failure-streak', async (c) => {
      // Auto-disable at scale 3600 takes 24 s: the endpoint fails until then.
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      const endpoint = await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      const read = async () =>
        (await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`)).json.state as string;
      const until = Date.now() + 30_000;
      while ((await read()) !== 'disabled' && Date.now() < until) await sleep(250);
      expect(await read()).toBe('disabled');
      await c.control('POST', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}/enable`);
      const before = all.receiver.at(path).length;
      await c.fire(ws.id);
      await eventually(() => (all.receiver.at(path).length > before ? true : undefined));
      await sleep(300);
      return read();
    });
    expect(seen).toEqual({ clean: 'active', faulted: 'disabled' });
  }, 90_000);

  it('endpoint-limit-counts-deleted: after deleting one of 25 endpoints, a new one is refused', async () => {
    const seen = await both('endpoint-limit-counts-deleted', async (c) => {
      const ws = await c.workspace();
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) ids.push((await c.endpoint(ws.id, `https://127.0.0.1:9/e${i}`)).id);
      await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${ids[0]}`);
      return (
        await c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, {
          url: 'https://127.0.0.1:9/again',
          events: ['*'],
        })
      ).status;
    });
    expect(seen).toEqual({ clean: 201, faulted: 409 });
  });

  it('sign-latin1-body: an event with non-ASCII data fails verification', async () => {
    const seen = await both('sign-latin1-body', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { secret } = await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.reply.received', { body: 'Merci, très intéressé 👍', sentiment: 'positive' });
      await c.fire(ws.id, 'mailer.reply.received', { body: 'plain ascii', sentiment: 'neutral' });
      const deliveries = await eventually(() =>
        all.receiver.at(path).length >= 2 ? all.receiver.at(path) : undefined,
      );
      const verifies = (d: { body: string; headers: Record<string, unknown> }) =>
        createHmac('sha256', secret).update(d.body).digest('hex') === d.headers['x-service-signature'];
      const byBody = (text: string) => deliveries!.find((d) => d.body.includes(text))!;
      return [verifies(byBody('intéressé')), verifies(byBody('plain ascii'))];
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [false, true] });
  });

  it('retry-signature-header-appended: a retry carries the earlier signatures too', async () => {
    const seen = await both('retry-signature-header-appended', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      const { secret } = await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      const attempts = await eventually(() => (all.receiver.at(path).length >= 2 ? all.receiver.at(path) : undefined));
      const second = attempts![1]!;
      return createHmac('sha256', secret).update(second.body).digest('hex') === second.headers['x-service-signature'];
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('retry-count-per-endpoint: the second failing event of an endpoint starts at a later delay', async () => {
    const seen = await both('retry-count-per-endpoint', async (c) => {
      const ws = await c.workspace({ time_scale: 60 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      const first = await c.fire(ws.id);
      await eventually(() => (all.receiver.at(path).length >= 1 ? true : undefined));
      const second = await c.fire(ws.id, 'mailer.email.sent');
      // At scale 60 the first retry is 1 s after a failure; the second delay, 5 s.
      await sleep(2500);
      const of = (id: string) => all.receiver.at(path).filter((d) => d.event.id === id).length;
      return [of(first.json.event_id), of(second.json.event_id)];
    });
    expect(seen).toEqual({ clean: [2, 2], faulted: [2, 1] });
  });

  it("replay-cross-workspace: another workspace's event is replayed to this workspace's endpoint", async () => {
    const seen = await both('replay-cross-workspace', async (c) => {
      const [a, b] = [await c.workspace(), await c.workspace()];
      const fired = await c.fire(a.id, 'mailer.reply.received', { body: 'secret of A', sentiment: 'neutral' });
      const { url, path } = all.receiver.url();
      const endpointB = await c.endpoint(b.id, url);
      const replay = await c.control('POST', `/workspaces/${b.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: endpointB.id,
      });
      await sleep(800);
      return [replay.status, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [404, 0], faulted: [202, 1] });
  });

  it('call-metadata-shared-default: a call carries the metadata of an earlier call', async () => {
    const seen = await both('call-metadata-shared-default', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      await c.api('POST', '/v1/voice/calls', token, {
        agent_id: ws.agents[0],
        to: '+14155550100',
        metadata: { lead_id: 'lead_a' },
      });
      const second = await c.api('POST', '/v1/voice/calls', token, {
        agent_id: ws.agents[0],
        to: '+14155550101',
        metadata: { campaign: 'c1' },
      });
      await c.control('POST', `/workspaces/${ws.id}/calls/${second.json.call_id}/progress`, {
        state: 'completed',
        outcome: 'answered',
        duration_seconds: 3,
      });
      return (await eventually(() => all.receiver.at(path)[0]))?.event.data.metadata;
    });
    expect(seen.clean).toEqual({ campaign: 'c1' });
    expect(seen.faulted).toEqual({ lead_id: 'lead_a', campaign: 'c1' });
  });

  it('event-id-per-endpoint: one event reaches two endpoints under two ids', async () => {
    const seen = await both('event-id-per-endpoint', async (c) => {
      const ws = await c.workspace();
      const [a, b] = [all.receiver.url(), all.receiver.url()];
      await c.endpoint(ws.id, a.url);
      await c.endpoint(ws.id, b.url);
      const fired = await c.fire(ws.id);
      await eventually(() => (all.receiver.at(a.path).length && all.receiver.at(b.path).length ? true : undefined));
      return [
        all.receiver.at(a.path)[0]!.event.id === fired.json.event_id,
        all.receiver.at(b.path)[0]!.event.id === fired.json.event_id,
      ];
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('duration-from-timestamps: duration_seconds is not the duration the call reported', async () => {
    const seen = await both('duration-from-timestamps', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const call = await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to: '+14155550100' });
      await c.control('POST', `/workspaces/${ws.id}/calls/${call.json.call_id}/progress`, { state: 'started' });
      await c.control('POST', `/workspaces/${ws.id}/calls/${call.json.call_id}/progress`, {
        state: 'completed',
        outcome: 'answered',
        duration_seconds: 42,
      });
      return (await eventually(() => all.receiver.at(path)[0]))?.event.data.duration_seconds;
    });
    expect(seen).toEqual({ clean: 42, faulted: 0 });
  });
});
