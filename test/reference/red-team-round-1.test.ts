import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, sleep, startAll } from './red-team-support.js';

// Red team, round 1: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

let all: Awaited<ReturnType<typeof startAll>>;

beforeAll(async () => {
  all = await startAll();
});

afterAll(async () => {
  await all?.close();
});

const on = (fault: string) => client(all.reference, `/faults/${fault}`);
const clean = () => client(all.reference, '');

/** Runs `observe` clean and under `fault`, and returns both observations. */
async function both<T>(
  fault: string,
  observe: (c: ReturnType<typeof client>) => Promise<T>,
): Promise<{ clean: T; faulted: T }> {
  return { clean: await observe(clean()), faulted: await observe(on(fault)) };
}

describe('red team round 1', () => {
  it('scope-write-implies-read: a voice:write-only token lists agents', async () => {
    const seen = await both('scope-write-implies-read', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id, { label: 'w', scopes: ['voice:write'] });
      return (await c.api('GET', '/v1/voice/agents', token)).status;
    });
    expect(seen).toEqual({ clean: 403, faulted: 200 });
  });

  it('token-prefix-match: the token with characters appended is accepted', async () => {
    const seen = await both('token-prefix-match', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      return [
        (await c.api('GET', '/v1/whoami', token)).status,
        (await c.api('GET', '/v1/whoami', token + 'x9')).status,
      ];
    });
    expect(seen).toEqual({ clean: [200, 401], faulted: [200, 200] });
  });

  it('token-same-label-replaces: a second token with the same label kills the first', async () => {
    const seen = await both('token-same-label-replaces', async (c) => {
      const ws = await c.workspace();
      const first = await c.token(ws.id, { label: 'deploy' });
      await c.token(ws.id, { label: 'deploy' });
      await sleep(400);
      return (await c.api('GET', '/v1/whoami', first.token)).status;
    });
    expect(seen).toEqual({ clean: 200, faulted: 401 });
  });

  it('revocation-keepalive-stale: a revoked token keeps working on a kept-alive connection', async () => {
    const seen = await both('revocation-keepalive-stale', async (c) => {
      const ws = await c.workspace();
      const { id, token } = await c.token(ws.id);
      const keptAlive = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
      try {
        const before = (await c.api('GET', '/v1/whoami', token, undefined, keptAlive)).status;
        await c.control('DELETE', `/workspaces/${ws.id}/tokens/${id}`);
        await sleep(600);
        const sameConnection = (await c.api('GET', '/v1/whoami', token, undefined, keptAlive)).status;
        const fresh = (await c.api('GET', '/v1/whoami', token)).status;
        return [before, sameConnection, fresh];
      } finally {
        await keptAlive.close();
      }
    });
    expect(seen).toEqual({ clean: [200, 401, 401], faulted: [200, 200, 401] });
  });

  it('jwt-aud-contains-audience: an aud that only contains the audience is accepted', async () => {
    const seen = await both('jwt-aud-contains-audience', async (c) => {
      const ws = await c.workspace();
      await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, {
        issuer: `https://idp.${ws.id}`,
        jwks_uri: all.keys.url,
        audience: 'svc-aud',
      });
      await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u1', scopes: ['voice:read'] });
      const exp = Math.floor(Date.now() / 1000) + 60;
      const right = await all.keys.sign({ iss: `https://idp.${ws.id}`, aud: 'svc-aud', sub: 'u1', exp });
      const near = await all.keys.sign({ iss: `https://idp.${ws.id}`, aud: 'svc-aud-staging', sub: 'u1', exp });
      return [(await c.api('GET', '/v1/whoami', right)).status, (await c.api('GET', '/v1/whoami', near)).status];
    });
    expect(seen).toEqual({ clean: [200, 401], faulted: [200, 200] });
  });

  it('jwt-verified-cache-past-exp: a JWT used before it expired keeps working after', async () => {
    const seen = await both('jwt-verified-cache-past-exp', async (c) => {
      const ws = await c.workspace();
      await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, {
        issuer: `https://idp.${ws.id}`,
        jwks_uri: all.keys.url,
        audience: 'svc',
      });
      await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u1', scopes: ['voice:read'] });
      const exp = Math.floor(Date.now() / 1000) + 2;
      const jwt = await all.keys.sign({ iss: `https://idp.${ws.id}`, aud: 'svc', sub: 'u1', exp });
      const before = (await c.api('GET', '/v1/whoami', jwt)).status;
      while (Date.now() / 1000 < exp + 0.3) await sleep(100);
      return [before, (await c.api('GET', '/v1/whoami', jwt)).status];
    });
    expect(seen).toEqual({ clean: [200, 401], faulted: [200, 200] });
  });

  it('endpoint-deleted-still-delivered: a deleted endpoint keeps receiving events', async () => {
    const seen = await both('endpoint-deleted-still-delivered', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const deleted = (await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`)).status;
      const read = (await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`)).status;
      await c.control('POST', `/workspaces/${ws.id}/events`, { type: 'workspace.plan.upgraded', data: {} });
      await sleep(1500);
      return [deleted, read, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [204, 404, 0], faulted: [204, 404, 1] });
  });

  it('subscription-family-match: an endpoint subscribed to voice.call.completed gets the other voice.call events', async () => {
    const seen = await both('subscription-family-match', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to: '+14155550100' });
      expect(placed.status).toBe(201);
      await eventually(() =>
        all.receiver.at(path).some((d) => d.event.type === 'voice.call.completed') ? true : undefined,
      );
      await sleep(300);
      return [...new Set(all.receiver.at(path).map((d) => d.event.type))].sort();
    });
    expect(seen.clean).toEqual(['voice.call.completed']);
    expect(seen.faulted).toEqual(['voice.call.completed', 'voice.call.queued', 'voice.call.started']);
  });

  it('retry-delay-from-first-attempt: the fourth retry comes 1.5 h after the third, not 2 h', async () => {
    const seen = await both('retry-delay-from-first-attempt', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      await c.control('POST', `/workspaces/${ws.id}/events`, { type: 'workspace.plan.upgraded', data: {} });
      const attempts = await eventually(
        () => (all.receiver.at(path).length >= 5 ? all.receiver.at(path) : undefined),
        6000,
      );
      expect(attempts).toBeDefined();
      // Retry 4 follows attempt 4: 2 h at scale 3600 is 2000 ms.
      return attempts![4]!.at - attempts![3]!.at;
    });
    expect(seen.clean).toBeGreaterThan(1850);
    expect(seen.faulted).toBeLessThan(1650);
  });

  it('replay-all-endpoints: a replay to one endpoint reaches the others too', async () => {
    const seen = await both('replay-all-endpoints', async (c) => {
      const ws = await c.workspace();
      const [a, b] = [all.receiver.url(), all.receiver.url()];
      const endpointA = await c.endpoint(ws.id, a.url);
      await c.endpoint(ws.id, b.url);
      const fired = await c.control('POST', `/workspaces/${ws.id}/events`, { type: 'mailer.email.sent', data: {} });
      await eventually(() =>
        all.receiver.at(a.path).length >= 1 && all.receiver.at(b.path).length >= 1 ? true : undefined,
      );
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: endpointA.id,
      });
      await eventually(() => (all.receiver.at(a.path).length >= 2 ? true : undefined));
      await sleep(500);
      return [replay.status, all.receiver.at(a.path).length, all.receiver.at(b.path).length];
    });
    expect(seen).toEqual({ clean: [202, 2, 1], faulted: [202, 2, 2] });
  });

  it("transcript-url-previous-call: transcript_url names the workspace's previous call", async () => {
    const seen = await both('transcript-url-previous-call', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const first = await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to: '+14155550100' });
      const second = await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to: '+14155550101' });
      await c.control('POST', `/workspaces/${ws.id}/calls/${second.json.call_id}/progress`, {
        state: 'completed',
        outcome: 'answered',
        duration_seconds: 7,
      });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const transcriptUrl = String(delivery?.event.data.transcript_url);
      return {
        second: transcriptUrl.includes(`/v1/voice/calls/${second.json.call_id}/transcript`),
        first: transcriptUrl.includes(String(first.json.call_id)),
      };
    });
    expect(seen).toEqual({ clean: { second: true, first: false }, faulted: { second: false, first: true } });
  });

  it('fire-event-id-mismatch: the answered event id is not the delivered one, and cannot be replayed', async () => {
    const seen = await both('fire-event-id-mismatch', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const fired = await c.control('POST', `/workspaces/${ws.id}/events`, {
        type: 'mailer.reply.received',
        data: { body: 'hi', sentiment: 'positive' },
      });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: endpoint.id,
      });
      return [delivery?.event.id === fired.json.event_id, replay.status];
    });
    expect(seen).toEqual({ clean: [true, 202], faulted: [false, 404] });
  });
});
