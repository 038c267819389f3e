import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup } from './red-team-support.js';

// Red team, round 21: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

describe('red team round 21', () => {
  it('endpoint-events-read-first-only: an endpoint reads back both of its event types', async () => {
    const seen = await both('endpoint-events-read-first-only', async (c) => {
      const ws = await c.workspace();
      const { url } = all.receiver.url();
      const { id } = await c.endpoint(ws.id, url, ['voice.call.started', 'voice.call.completed']);
      const page = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      return page.json.events;
    });
    expect(seen).toEqual({
      clean: ['voice.call.started', 'voice.call.completed'],
      faulted: ['voice.call.started'],
    });
  });

  it('endpoint-create-state-missing: an endpoint creation answers state active', async () => {
    const seen = await both('endpoint-create-state-missing', async (c) => {
      const ws = await c.workspace();
      const { url } = all.receiver.url();
      const created = await c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, { url, events: ['*'] });
      return [created.status, created.json.state];
    });
    expect(seen).toEqual({ clean: [201, 'active'], faulted: [201, undefined] });
  });

  it('fire-answered-200: a fired event is answered 201', async () => {
    const seen = await both('fire-answered-200', async (c) => {
      const ws = await c.workspace();
      return (await c.fire(ws.id)).status;
    });
    expect(seen).toEqual({ clean: 201, faulted: 200 });
  });

  it('member-id-numeric: a member creation answers member_id as a string', async () => {
    const seen = await both('member-id-numeric', async (c) => {
      const ws = await c.workspace();
      await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const added = await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u2', scopes: ['voice:read'] });
      return [added.status, typeof added.json.member_id];
    });
    expect(seen).toEqual({ clean: [201, 'string'], faulted: [201, 'number'] });
  });

  it('progress-answered-200: a call progress is answered 204', async () => {
    const seen = await both('progress-answered-200', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const placed = await c.placeCall(token, ws.agents[0] ?? '');
      return (await c.progress(ws.id, placed.json.call_id, { state: 'started' })).status;
    });
    expect(seen).toEqual({ clean: 204, faulted: 200 });
  });

  it('suspend-answered-200: a suspension is answered 204', async () => {
    const seen = await both('suspend-answered-200', async (c) => {
      const ws = await c.workspace();
      return (await c.control('POST', `/workspaces/${ws.id}/suspend`)).status;
    });
    expect(seen).toEqual({ clean: 204, faulted: 200 });
  });

  it('reinstate-answered-200: a reinstatement is answered 204', async () => {
    const seen = await both('reinstate-answered-200', async (c) => {
      const ws = await c.workspace();
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      return (await c.control('POST', `/workspaces/${ws.id}/reinstate`)).status;
    });
    expect(seen).toEqual({ clean: 204, faulted: 200 });
  });

  it('token-revoke-answered-200: a token revocation is answered 204', async () => {
    const seen = await both('token-revoke-answered-200', async (c) => {
      const ws = await c.workspace();
      const { id } = await c.token(ws.id);
      return (await c.control('DELETE', `/workspaces/${ws.id}/tokens/${id}`)).status;
    });
    expect(seen).toEqual({ clean: 204, faulted: 200 });
  });

  it('endpoint-delete-answered-200: an endpoint deletion is answered 204', async () => {
    const seen = await both('endpoint-delete-answered-200', async (c) => {
      const ws = await c.workspace();
      const { url } = all.receiver.url();
      const { id } = await c.endpoint(ws.id, url);
      return (await c.control('DELETE', `/workspaces/${ws.id}/webhook-endpoints/${id}`)).status;
    });
    expect(seen).toEqual({ clean: 204, faulted: 200 });
  });

  it('token-id-numeric: a token creation answers token_id as a string', async () => {
    const seen = await both('token-id-numeric', async (c) => {
      const ws = await c.workspace();
      const created = await c.control('POST', `/workspaces/${ws.id}/tokens`, { label: 'a' });
      return [created.status, typeof created.json.token_id];
    });
    expect(seen).toEqual({ clean: [201, 'string'], faulted: [201, 'number'] });
  });

  it('replay-type-enum-key: a replay carries the same event type as the first delivery', async () => {
    const seen = await both('replay-type-enum-key', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id, 'mailer.email.sent', {});
      await eventually(() => all.receiver.at(path)[0]);
      await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: endpoint.id,
      });
      const replayed = await eventually(() => all.receiver.at(path)[1]);
      return [all.receiver.at(path)[0]?.event.type, replayed?.event.type];
    });
    expect(seen).toEqual({
      clean: ['mailer.email.sent', 'mailer.email.sent'],
      faulted: ['mailer.email.sent', 'MAILER_EMAIL_SENT'],
    });
  });
});
