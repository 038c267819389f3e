import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup, sleep } from './red-team-support.js';

// Red team, round 22: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

describe('red team round 22', () => {
  it('token-scopes-of-first-token: a token narrowed to voice:read cannot place a call', async () => {
    const seen = await both('token-scopes-of-first-token', async (c) => {
      const ws = await c.workspace();
      await c.token(ws.id, { label: 'full' });
      const narrow = await c.token(ws.id, { label: 'read-only', scopes: ['voice:read'] });
      const placed = await c.placeCall(narrow.token, ws.agents[0] ?? '');
      return [placed.status, placed.json?.error?.code];
    });
    expect(seen.clean).toEqual([403, 'missing_scope']);
    expect(seen.faulted[0]).toBeLessThan(300);
  });

  it('revoke-empties-scopes: a revoked token is refused with 401 invalid_token', async () => {
    const seen = await both('revoke-empties-scopes', async (c) => {
      const ws = await c.workspace();
      const { id, token } = await c.token(ws.id);
      await c.control('DELETE', `/workspaces/${ws.id}/tokens/${id}`);
      await sleep(700);
      const whoami = await c.api('GET', '/v1/whoami', token);
      return [whoami.status, whoami.json?.error?.code];
    });
    expect(seen).toEqual({ clean: [401, 'invalid_token'], faulted: [200, undefined] });
  });

  it('idp-put-clears-members: a member stays a member when the identity provider is reconfigured', async () => {
    const seen = await both('idp-put-clears-members', async (c) => {
      const ws = await c.workspace();
      const { issuer, jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const before = await c.api('GET', '/v1/whoami', await jwt());
      await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, {
        issuer,
        jwks_uri: all.keys.url,
        audience: 'svc',
      });
      const after = await c.api('GET', '/v1/whoami', await jwt());
      return [before.status, after.status];
    });
    expect(seen).toEqual({ clean: [200, 200], faulted: [200, 401] });
  });

  it('endpoint-delete-removes-last: deleting the first of two endpoints stops its deliveries, not the other', async () => {
    const seen = await both('endpoint-delete-removes-last', async (c) => {
      const ws = await c.workspace();
      const first = all.receiver.url();
      const second = all.receiver.url();
      const { id } = await c.endpoint(ws.id, first.url);
      await c.endpoint(ws.id, second.url);
      await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(first.path)[0] ?? all.receiver.at(second.path)[0]);
      await sleep(300);
      return [all.receiver.at(first.path).length, all.receiver.at(second.path).length];
    });
    expect(seen).toEqual({ clean: [0, 1], faulted: [1, 0] });
  });

  it('endpoint-id-reused-after-delete: a deleted endpoint id stays gone when another is created', async () => {
    const seen = await both('endpoint-id-reused-after-delete', async (c) => {
      const ws = await c.workspace();
      const first = all.receiver.url();
      const second = all.receiver.url();
      const { id } = await c.endpoint(ws.id, first.url);
      await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      await c.endpoint(ws.id, second.url);
      const page = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      return [page.status, page.json?.url === second.url];
    });
    expect(seen.clean).toEqual([404, false]);
    expect(seen.faulted).toEqual([200, true]);
  });

  it('fanout-stops-at-failure: an endpoint gets the event though an endpoint before it fails', async () => {
    const seen = await both('fanout-stops-at-failure', async (c) => {
      const ws = await c.workspace();
      const failing = all.receiver.url(500);
      const healthy = all.receiver.url();
      await c.endpoint(ws.id, failing.url);
      await c.endpoint(ws.id, healthy.url);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(failing.path)[0]);
      await sleep(500);
      return [Math.min(all.receiver.at(failing.path).length, 1), all.receiver.at(healthy.path).length];
    });
    expect(seen).toEqual({ clean: [1, 1], faulted: [1, 0] });
  });

  it('subscription-filter-hoisted: an endpoint subscribed to one type gets only that type', async () => {
    const seen = await both('subscription-filter-hoisted', async (c) => {
      const ws = await c.workspace();
      const wildcard = all.receiver.url();
      const narrow = all.receiver.url();
      await c.endpoint(ws.id, wildcard.url, ['*']);
      await c.endpoint(ws.id, narrow.url, ['mailer.email.sent']);
      await c.fire(ws.id, 'workspace.plan.upgraded');
      await c.fire(ws.id, 'mailer.email.sent');
      await eventually(() => all.receiver.at(wildcard.path)[1]);
      await sleep(300);
      return all.receiver.at(narrow.path).map((d) => d.event.type);
    });
    expect(seen.clean).toEqual(['mailer.email.sent']);
    expect([...seen.faulted].sort()).toEqual(['mailer.email.sent', 'workspace.plan.upgraded']);
  });

  it('replay-to-deleted-endpoint: a deleted endpoint gets no replay', async () => {
    const seen = await both('replay-to-deleted-endpoint', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: endpoint.id,
      });
      await sleep(400);
      return [replay.status >= 400 && replay.status < 500, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [true, 1], faulted: [false, 2] });
  });

  it('completed-metadata-over-fields: a metadata key named outcome leaves the call outcome alone', async () => {
    const seen = await both('completed-metadata-over-fields', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '', { outcome: 'interested', lead_id: 'lead_1' });
      await c.progress(ws.id, placed.json.call_id, { state: 'started' });
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 42 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const data = delivery?.event.data ?? {};
      return [data.outcome, data.to, data.metadata];
    });
    const metadata = { outcome: 'interested', lead_id: 'lead_1' };
    expect(seen).toEqual({
      clean: ['answered', '+14155550100', metadata],
      faulted: ['interested', '+14155550100', metadata],
    });
  });

  it('workspace-delete-reinstatable: a deleted workspace stays gone after a reinstatement', async () => {
    const seen = await both('workspace-delete-reinstatable', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const deleted = await c.control('DELETE', `/workspaces/${ws.id}`);
      const reinstated = await c.control('POST', `/workspaces/${ws.id}/reinstate`);
      await sleep(700);
      const whoami = await c.api('GET', '/v1/whoami', token);
      return [deleted.status, reinstated.status >= 400 && reinstated.status < 500, whoami.status];
    });
    expect(seen).toEqual({ clean: [204, true, 401], faulted: [204, false, 200] });
  });

  it('token-answer-read-back-by-label: a rotation keeps the new token working when both share a label', async () => {
    const seen = await both('token-answer-read-back-by-label', async (c) => {
      const ws = await c.workspace();
      const old = await c.token(ws.id, { label: 'ci' });
      const fresh = await c.token(ws.id, { label: 'ci' });
      await c.control('DELETE', `/workspaces/${ws.id}/tokens/${old.id}`);
      await sleep(700);
      const whoami = await c.api('GET', '/v1/whoami', fresh.token);
      return [fresh.token === old.token, whoami.status];
    });
    expect(seen).toEqual({ clean: [false, 200], faulted: [true, 401] });
  });

  it('retry-sent-to-last-endpoint: a failed delivery is retried to the endpoint that failed', async () => {
    const seen = await both('retry-sent-to-last-endpoint', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const failing = all.receiver.url(500);
      const healthy = all.receiver.url();
      await c.endpoint(ws.id, failing.url);
      await c.endpoint(ws.id, healthy.url);
      await c.fire(ws.id);
      // The first retry comes 1 min / 3600 = 17 ms after the first failure.
      await eventually(() => all.receiver.at(failing.path)[0]);
      await sleep(400);
      return [Math.min(all.receiver.at(failing.path).length, 2), Math.min(all.receiver.at(healthy.path).length, 2)];
    });
    expect(seen).toEqual({ clean: [2, 1], faulted: [1, 2] });
  });
});
