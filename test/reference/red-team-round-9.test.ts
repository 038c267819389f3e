import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sleep, tokenLabelAnswered } from './red-team-support.js';

// Red team, round 9: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

const errorCode = (json: unknown): unknown => (json as { error?: { code?: unknown } } | null)?.error?.code;

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

describe('red team round 9', () => {
  it('transcript-needs-write: a voice:read token is refused the transcript', async () => {
    const seen = await both('transcript-needs-write', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const writer = await c.token(ws.id, { label: 'writer', scopes: ['voice:write'] });
      const reader = await c.token(ws.id, { label: 'reader', scopes: ['voice:read'] });
      const placed = await c.placeCall(writer.token, ws.agents[0] ?? '');
      const read = await c.api('GET', `/v1/voice/calls/${placed.json.call_id}/transcript`, reader.token);
      return [read.status, errorCode(read.json) ?? null];
    });
    expect(seen.clean).toEqual([200, null]);
    expect(seen.faulted[1]).toBe('missing_scope');
  });

  it('suspended-whoami-served: whoami of a suspended workspace answers 200', async () => {
    const seen = await both('suspended-whoami-served', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const whoami = await c.api('GET', '/v1/whoami', token);
      const agents = await c.api('GET', '/v1/voice/agents', token);
      return [whoami.status === 200, errorCode(agents.json)];
    });
    expect(seen).toEqual({ clean: [false, 'workspace_disabled'], faulted: [true, 'workspace_disabled'] });
  });

  it('token-second-scope-dropped: a token created with two scopes holds the first only', async () => {
    const seen = await both('token-second-scope-dropped', async (c) => {
      const ws = await c.workspace();
      const created = await c.token(ws.id, { label: 'both', scopes: ['voice:read', 'voice:write'] });
      const agents = await c.api('GET', '/v1/voice/agents', created.token);
      const call = await c.placeCall(created.token, ws.agents[0] ?? '');
      return [created.scopes, agents.status, call.status === 201 || call.status === 202, errorCode(call.json) ?? null];
    });
    expect(seen.clean).toEqual([['voice:read', 'voice:write'], 200, true, null]);
    expect(seen.faulted).toEqual([['voice:read', 'voice:write'], 200, false, 'missing_scope']);
  });

  it('token-label-trimmed: a label with surrounding spaces comes back trimmed', async () => {
    const label = '  nightly sync ';
    const seen = await both('token-label-trimmed', (c) => tokenLabelAnswered(c, label));
    expect(seen).toEqual({ clean: [201, label], faulted: [201, label.trim()] });
  });

  it('endpoint-localhost-substring: a URL whose path holds "localhost" is refused', async () => {
    const seen = await both('endpoint-localhost-substring', async (c) => {
      const ws = await c.workspace();
      const { url } = all.receiver.url();
      const created = await c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, {
        url: `${url}/from-localhost-dev`,
        events: ['*'],
      });
      const plain = await c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, { url, events: ['*'] });
      return [created.status, plain.status];
    });
    expect(seen.clean).toEqual([201, 201]);
    expect(seen.faulted[0]).toBeGreaterThanOrEqual(400);
    expect(seen.faulted[1]).toBe(201);
  });

  it('sign-key-prefix-stripped: the signature does not verify with the secret handed out', async () => {
    const seen = await both('sign-key-prefix-stripped', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { secret } = await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const expected = createHmac('sha256', secret)
        .update(delivery?.body ?? '')
        .digest('hex');
      return header(delivery?.headers['x-service-signature']) === expected;
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('retry-timestamp-dropped: a retry comes without X-Service-Timestamp', async () => {
    const seen = await both('retry-timestamp-dropped', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[1]);
      return all.receiver
        .at(path)
        .slice(0, 2)
        .map((d) => /^\d{10}$/.test(header(d.headers['x-service-timestamp']) ?? ''));
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('replay-timestamp-ms: a replay carries its timestamp in milliseconds', async () => {
    const seen = await both('replay-timestamp-ms', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: endpoint.id,
      });
      await eventually(() => all.receiver.at(path)[1]);
      const stamps = all.receiver.at(path).map((d) => Number(header(d.headers['x-service-timestamp'])));
      return [replay.status, ...stamps.map((s) => Math.abs(s - Date.now() / 1000) <= 300)];
    });
    expect(seen).toEqual({ clean: [202, true, true], faulted: [202, true, false] });
  });

  it('created-at-no-zone: created_at has no zone designator', async () => {
    const seen = await both('created-at-no-zone', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const createdAt = JSON.parse(delivery?.body ?? '{}').created_at as string;
      return /(Z|[+-]00:00)$/.test(createdAt);
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('subscription-first-type-only: an endpoint subscribed to two types gets the first only', async () => {
    const seen = await both('subscription-first-type-only', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const sentinel = all.receiver.url();
      await c.endpoint(ws.id, url, ['mailer.email.sent', 'workspace.plan.upgraded']);
      await c.endpoint(ws.id, sentinel.url, ['*']);
      await c.fire(ws.id, 'mailer.email.sent');
      await c.fire(ws.id, 'workspace.plan.upgraded');
      await eventually(() => all.receiver.at(sentinel.path)[1]);
      await sleep(300);
      return all.receiver
        .at(path)
        .map((d) => d.event.type)
        .sort();
    });
    expect(seen).toEqual({
      clean: ['mailer.email.sent', 'workspace.plan.upgraded'],
      faulted: ['mailer.email.sent'],
    });
  });

  it("completed-agent-first: voice.call.completed names the workspace's first agent", async () => {
    const seen = await both('completed-agent-first', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const second = ws.agents[1] ?? '';
      const placed = await c.placeCall(token, second);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 9 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.agent_id === second;
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('jwt-future-iat-refused: a session JWT issued 20 s ahead is refused', async () => {
    const seen = await both('jwt-future-iat-refused', async (c) => {
      const ws = await c.workspace();
      const issuer = `https://idp.example/${ws.id}`;
      await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, {
        issuer,
        jwks_uri: all.keys.url,
        audience: 'svc',
      });
      await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u1', scopes: ['voice:read'] });
      const now = Math.floor(Date.now() / 1000);
      const statuses = [];
      for (const iat of [now, now + 20]) {
        const jwt = await all.keys.sign({ iss: issuer, aud: 'svc', sub: 'u1', exp: now + 60, iat });
        statuses.push((await c.api('GET', '/v1/whoami', jwt)).status);
      }
      return statuses;
    });
    expect(seen).toEqual({ clean: [200, 200], faulted: [200, 401] });
  });
});
