import { describe, expect, it } from 'vitest';
import { sessionSetup, eventually, sleep, redTeamRound } from './red-team-support.js';

// Red team, round 8: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

const errorCode = (json: unknown): unknown => (json as { error?: { code?: unknown } } | null)?.error?.code;

/** The receiver's base URL (scheme, host and port) from one of its hook URLs. */
const originOf = (url: string): string => new URL(url).origin;

describe('red team round 8', () => {
  it('session-expired-code: an expired session JWT gets code token_expired', async () => {
    const seen = await both('session-expired-code', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const expired = await c.api('GET', '/v1/whoami', await jwt('svc', -120));
      const valid = await c.api('GET', '/v1/whoami', await jwt());
      return [expired.status, errorCode(expired.json), valid.status];
    });
    expect(seen).toEqual({ clean: [401, 'invalid_token', 200], faulted: [401, 'token_expired', 200] });
  });

  it('jwt-aud-array-every: an aud array holding the audience and another entry is refused', async () => {
    const seen = await both('jwt-aud-array-every', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const statuses = [];
      for (const aud of ['svc', ['svc'], ['svc', 'billing'], ['billing', 'svc']])
        statuses.push((await c.api('GET', '/v1/whoami', await jwt(aud))).status);
      return statuses;
    });
    expect(seen).toEqual({ clean: [200, 200, 200, 200], faulted: [200, 200, 401, 401] });
  });

  it('token-label-truncated-32: a token label longer than 32 characters comes back cut', async () => {
    const label = 'rotation 2026-11 · billing-sync worker (eu-west)';
    const seen = await both('token-label-truncated-32', async (c) => {
      const ws = await c.workspace();
      const created = await c.control('POST', `/workspaces/${ws.id}/tokens`, { label });
      const short = await c.control('POST', `/workspaces/${ws.id}/tokens`, { label: 'ci' });
      return [created.status, created.json.label, short.json.label];
    });
    expect(seen).toEqual({ clean: [201, label, 'ci'], faulted: [201, label.slice(0, 32), 'ci'] });
  });

  it("endpoint-url-lowercased: an endpoint URL's path is lower-cased, and deliveries go there", async () => {
    const seen = await both('endpoint-url-lowercased', async (c, prefix) => {
      const ws = await c.workspace();
      const path = `/Hooks/Billing${prefix ? '-F' : '-C'}`;
      const url = originOf(all.receiver.url().url) + path;
      const endpoint = await c.endpoint(ws.id, url);
      const read = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0] ?? all.receiver.at(path.toLowerCase())[0]);
      return [read.json.url === url, all.receiver.at(path).length, all.receiver.at(path.toLowerCase()).length];
    });
    expect(seen).toEqual({ clean: [true, 1, 0], faulted: [false, 0, 1] });
  });

  it('endpoint-deleted-reads-disabled: a deleted endpoint reads 200 disabled instead of 404', async () => {
    const seen = await both('endpoint-deleted-reads-disabled', async (c) => {
      const ws = await c.workspace();
      const endpoint = await c.endpoint(ws.id, all.receiver.url().url);
      const deleted = (await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`)).status;
      const read = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`);
      return [deleted, read.status, read.json?.state ?? errorCode(read.json)];
    });
    expect(seen).toEqual({ clean: [204, 404, 'endpoint_not_found'], faulted: [204, 200, 'disabled'] });
  });

  it('gone-410-disables-endpoint: a 410 answer disables the endpoint at once', async () => {
    const seen = await both('gone-410-disables-endpoint', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url(410);
      const endpoint = await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      await sleep(200);
      const read = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`);
      return [all.receiver.at(path).length, read.json.state];
    });
    expect(seen).toEqual({ clean: [1, 'active'], faulted: [1, 'disabled'] });
  });

  it("replay-created-at-refreshed: a replay carries the replay's time as created_at", async () => {
    const seen = await both('replay-created-at-refreshed', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id, 'mailer.email.sent', { lead_id: 'lead_1' });
      await eventually(() => all.receiver.at(path)[0]);
      await sleep(50);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: endpoint.id,
      });
      await eventually(() => all.receiver.at(path)[1]);
      const [first, again] = all.receiver.at(path).map((d) => JSON.parse(d.body) as Record<string, unknown>);
      return [replay.status, again?.id === first?.id, again?.created_at === first?.created_at];
    });
    expect(seen).toEqual({ clean: [202, true, true], faulted: [202, true, false] });
  });

  it('to-plus-stripped: voice.call.completed carries to without its leading +', async () => {
    const seen = await both('to-plus-stripped', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0]!);
      const delivery = await eventually(() =>
        all.receiver.at(path).find((d) => d.event.data.call_id === placed.json.call_id),
      );
      return delivery?.event.data.to;
    });
    expect(seen).toEqual({ clean: '+14155550100', faulted: '14155550100' });
  });

  it('metadata-values-stringified: call events carry metadata values as strings', async () => {
    const seen = await both('metadata-values-stringified', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0]!, { lead_id: 'lead_1', attempt: 2, vip: true });
      const delivery = await eventually(() =>
        all.receiver.at(path).find((d) => d.event.data.call_id === placed.json.call_id),
      );
      return delivery?.event.data.metadata;
    });
    expect(seen).toEqual({
      clean: { lead_id: 'lead_1', attempt: 2, vip: true },
      faulted: { lead_id: 'lead_1', attempt: '2', vip: 'true' },
    });
  });

  it("fire-dedupe-by-payload: a second event with the same type and data answers the first's id", async () => {
    const seen = await both('fire-dedupe-by-payload', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      const first = await c.fire(ws.id, 'mailer.reply.received', { body: 'Thanks!', sentiment: 'positive' });
      const second = await c.fire(ws.id, 'mailer.reply.received', { body: 'Thanks!', sentiment: 'positive' });
      await eventually(() => all.receiver.at(path)[0]);
      await sleep(500);
      return [first.status, second.status, first.json.event_id === second.json.event_id, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [201, 201, false, 2], faulted: [201, 201, true, 1] });
  });

  it('queued-emitted-at-dial-out: voice.call.queued comes only when the call starts, after started', async () => {
    const seen = await both('queued-emitted-at-dial-out', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.queued', 'voice.call.started']);
      const callId = (await c.placeCall(token, ws.agents[0]!)).json.call_id as string;
      await sleep(500);
      const beforeStart = all.receiver.at(path).map((d) => d.event.type);
      await c.progress(ws.id, callId, { state: 'started' });
      await eventually(() => (all.receiver.at(path).length >= 2 ? true : undefined));
      await sleep(200);
      return [beforeStart, [...all.receiver.at(path)].sort((a, b) => a.at - b.at).map((d) => d.event.type)];
    });
    expect(seen.clean).toEqual([['voice.call.queued'], ['voice.call.queued', 'voice.call.started']]);
    expect(seen.faulted[0]).toEqual([]);
    expect([...seen.faulted[1]!].sort()).toEqual(['voice.call.queued', 'voice.call.started']);
  });

  it("reinstate-forgets-identity-provider: after a reinstatement the members' session tokens are refused", async () => {
    const seen = await both('reinstate-forgets-identity-provider', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const before = (await c.api('GET', '/v1/whoami', await jwt())).status;
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const suspended = errorCode((await c.api('GET', '/v1/whoami', await jwt())).json);
      await c.control('POST', `/workspaces/${ws.id}/reinstate`);
      const after = await c.api('GET', '/v1/voice/agents', await jwt());
      return [before, suspended, errorCode(after.json) ?? after.status];
    });
    expect(seen).toEqual({
      clean: [200, 'workspace_disabled', 200],
      faulted: [200, 'workspace_disabled', 'invalid_token'],
    });
  });
});
