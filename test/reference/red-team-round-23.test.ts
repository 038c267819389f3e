import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup, sleep } from './red-team-support.js';

// Red team, round 23: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

describe('red team round 23', () => {
  it('retry-body-of-latest-event: a retry carries the id of the event that failed', async () => {
    const seen = await both('retry-body-of-latest-event', async (c) => {
      // time_scale 60: the first retry comes 1 s after each failure, the second 5 s after.
      const ws = await c.workspace({ time_scale: 60 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.email.sent', { n: 1 });
      await eventually(() => all.receiver.at(path)[0]);
      await sleep(300);
      await c.fire(ws.id, 'mailer.email.sent', { n: 2 });
      await eventually(() => all.receiver.at(path)[3], 4000);
      return all.receiver
        .at(path)
        .slice(0, 4)
        .map((d) => d.event.data['n']);
    });
    expect(seen.clean).toEqual([1, 2, 1, 2]);
    expect(seen.faulted).toEqual([1, 2, 2, 2]);
  });

  it("ack-cancels-other-retries: one endpoint's acknowledgement does not cancel another's retry", async () => {
    const seen = await both('ack-cancels-other-retries', async (c) => {
      const ws = await c.workspace({ time_scale: 60 });
      const taking = all.receiver.url(204);
      const failing = all.receiver.url(500);
      await c.endpoint(ws.id, taking.url);
      await c.endpoint(ws.id, failing.url);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(failing.path)[0]);
      await sleep(1800);
      return [all.receiver.at(taking.path).length, all.receiver.at(failing.path).length];
    });
    expect(seen).toEqual({ clean: [1, 2], faulted: [1, 1] });
  });

  it("endpoint-delete-cancels-workspace-retries: deleting one endpoint keeps another's retries", async () => {
    const seen = await both('endpoint-delete-cancels-workspace-retries', async (c) => {
      const ws = await c.workspace({ time_scale: 60 });
      const failing = all.receiver.url(500);
      const other = all.receiver.url(204);
      await c.endpoint(ws.id, failing.url);
      const { id } = await c.endpoint(ws.id, other.url);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(failing.path)[0]);
      await sleep(100);
      const deleted = await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      await sleep(1700);
      return [deleted.status, all.receiver.at(failing.path).length];
    });
    expect(seen).toEqual({ clean: [204, 2], faulted: [204, 1] });
  });

  it('replay-call-event-latest-of-call: a replay of voice.call.queued is that event again', async () => {
    const seen = await both('replay-call-event-latest-of-call', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      await c.placeCall(token, ws.agents[0] ?? '');
      await eventually(() => all.receiver.at(path).find((d) => d.event.type === 'voice.call.completed'), 5000);
      const queued = all.receiver.at(path).find((d) => d.event.type === 'voice.call.queued');
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: queued?.event.id,
        endpoint_id: endpoint.id,
      });
      const replayed = await eventually(() => all.receiver.at(path)[3]);
      return [replay.status, replayed?.event.type, replayed?.event.id === queued?.event.id];
    });
    expect(seen.clean).toEqual([202, 'voice.call.queued', true]);
    expect(seen.faulted).toEqual([202, 'voice.call.completed', false]);
  });

  it('subscription-workspace-type-unmatched: an endpoint subscribed to workspace.plan.upgraded gets it', async () => {
    const seen = await both('subscription-workspace-type-unmatched', async (c) => {
      const ws = await c.workspace();
      const named = all.receiver.url();
      const wildcard = all.receiver.url();
      await c.endpoint(ws.id, named.url, ['workspace.plan.upgraded']);
      await c.endpoint(ws.id, wildcard.url, ['*']);
      await c.fire(ws.id, 'workspace.plan.upgraded', { plan: 'pro' });
      await eventually(() => all.receiver.at(wildcard.path)[0]);
      await sleep(300);
      return [all.receiver.at(named.path).length, all.receiver.at(wildcard.path).length];
    });
    expect(seen).toEqual({ clean: [1, 1], faulted: [0, 1] });
  });

  it("transcript-url-lowercased: the completed event's transcript_url serves the transcript", async () => {
    const seen = await both('transcript-url-lowercased', async (c, prefix) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      await c.placeCall(token, ws.agents[0] ?? '');
      const completed = await eventually(() => all.receiver.at(path)[0], 5000);
      const transcriptUrl = String(completed?.event.data['transcript_url']);
      const base = `${all.reference.baseUrl}${prefix}`;
      const read = await c.api('GET', transcriptUrl.slice(base.length), token);
      return [transcriptUrl.startsWith(base), read.status];
    });
    expect(seen).toEqual({ clean: [true, 200], faulted: [true, 404] });
  });

  it('token-limit-refusal-revokes-oldest: a refused third token leaves both active tokens working', async () => {
    const seen = await both('token-limit-refusal-revokes-oldest', async (c) => {
      const ws = await c.workspace();
      const first = await c.token(ws.id, { label: 'first' });
      await c.token(ws.id, { label: 'second' });
      const third = await c.control('POST', `/workspaces/${ws.id}/tokens`, { label: 'third' });
      await sleep(700);
      const whoami = await c.api('GET', '/v1/whoami', first.token);
      return [third.status, whoami.status];
    });
    expect(seen).toEqual({ clean: [409, 200], faulted: [409, 401] });
  });

  it("idp-audience-shared-by-jwks-uri: another workspace's audience does not change this one's", async () => {
    const seen = await both('idp-audience-shared-by-jwks-uri', async (c) => {
      const ws = await c.workspace();
      const other = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read'], 'svc-first');
      await c.control('PUT', `/workspaces/${other.id}/identity-provider`, {
        issuer: `https://idp.example/${other.id}`,
        jwks_uri: all.keys.url,
        audience: 'svc-second',
      });
      const whoami = await c.api('GET', '/v1/whoami', await jwt());
      return whoami.status;
    });
    expect(seen).toEqual({ clean: 200, faulted: 401 });
  });

  it('reinstate-first-token-only: a reinstated workspace serves both its tokens', async () => {
    const seen = await both('reinstate-first-token-only', async (c) => {
      const ws = await c.workspace();
      const first = await c.token(ws.id, { label: 'first' });
      const second = await c.token(ws.id, { label: 'second' });
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      await c.control('POST', `/workspaces/${ws.id}/reinstate`);
      const one = await c.api('GET', '/v1/whoami', first.token);
      const two = await c.api('GET', '/v1/whoami', second.token);
      return [one.status, two.status, two.json?.error?.code];
    });
    expect(seen.clean).toEqual([200, 200, undefined]);
    expect(seen.faulted[0]).toBe(200);
    expect(seen.faulted[2]).toBe('workspace_disabled');
  });

  it("session-suspended-invalid-token: a suspended workspace's member is answered workspace_disabled", async () => {
    const seen = await both('session-suspended-invalid-token', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const whoami = await c.api('GET', '/v1/whoami', await jwt());
      return whoami.json?.error?.code;
    });
    expect(seen).toEqual({ clean: 'workspace_disabled', faulted: 'invalid_token' });
  });

  it("workspace-delete-removes-shared-url-endpoints: deleting a workspace keeps another's endpoint at the same URL", async () => {
    const seen = await both('workspace-delete-removes-shared-url-endpoints', async (c) => {
      const doomed = await c.workspace();
      const kept = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(doomed.id, url);
      const endpoint = await c.endpoint(kept.id, url);
      const deleted = await c.control('DELETE', `/workspaces/${doomed.id}`);
      const page = await c.control('GET', `/workspaces/${kept.id}/webhook-endpoints/${endpoint.id}`);
      await c.fire(kept.id);
      await eventually(() => all.receiver.at(path)[0], 1000);
      return [deleted.status, page.status, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [204, 200, 1], faulted: [204, 404, 0] });
  });

  it('session-call-metadata-dropped: a call placed with a session token carries its metadata', async () => {
    const seen = await both('session-call-metadata-dropped', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:write']);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(await jwt(), ws.agents[0] ?? '', { lead_id: 'lead_23', stage: 'demo' });
      const completed = await eventually(() => all.receiver.at(path)[0], 5000);
      return [placed.status, completed?.event.data['metadata']];
    });
    expect(seen.clean).toEqual([201, { lead_id: 'lead_23', stage: 'demo' }]);
    expect(seen.faulted).toEqual([201, {}]);
  });
});
