import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup } from './red-team-support.js';

// Red team, round 20: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

describe('red team round 20', () => {
  it('member-second-replaces-first: adding member u2 keeps member u1', async () => {
    const seen = await both('member-second-replaces-first', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const before = await c.api('GET', '/v1/whoami', await jwt());
      await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u2', scopes: ['voice:read'] });
      const after = await c.api('GET', '/v1/whoami', await jwt());
      return [before.status, after.status];
    });
    expect(seen).toEqual({ clean: [200, 200], faulted: [200, 401] });
  });

  it('endpoint-limit-500: a 26th active endpoint is refused with a 4xx', async () => {
    const seen = await both('endpoint-limit-500', async (c) => {
      const ws = await c.workspace();
      const { url } = all.receiver.url();
      for (let i = 0; i < 25; i++) await c.endpoint(ws.id, url);
      const extra = await c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, { url, events: ['*'] });
      return extra.status >= 400 && extra.status < 500;
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('fired-data-integers-int32: an integer over 2^31 is delivered as fired', async () => {
    const seen = await both('fired-data-integers-int32', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'workspace.plan.upgraded', { seats: 3_000_000_000, small: 7 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data;
    });
    expect(seen).toEqual({
      clean: { seats: 3_000_000_000, small: 7 },
      faulted: { seats: -1_294_967_296, small: 7 },
    });
  });

  it('to-cached-per-agent: each completed call carries its own to', async () => {
    const seen = await both('to-cached-per-agent', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      // The second call is placed once the first has completed, so the first is the agent's first.
      for (const [i, to] of ['+14155550100', '+14155550101'].entries()) {
        await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to });
        await eventually(() => (all.receiver.at(path).length > i ? true : undefined), 6000);
      }
      return all.receiver
        .at(path)
        .map((d) => d.event.data.to)
        .sort();
    });
    expect(seen).toEqual({
      clean: ['+14155550100', '+14155550101'],
      faulted: ['+14155550100', '+14155550100'],
    });
  });

  it('envelope-data-id-hoisted: the envelope id is the event id whatever the data holds', async () => {
    const seen = await both('envelope-data-id-hoisted', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id, 'mailer.reply.received', { id: 'lead_7', sentiment: 'positive' });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return [delivery?.event.id === fired.json.event_id, /^evt_/.test(delivery?.event.id ?? '')];
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [false, false] });
  });

  it('token-label-json-escaped: a label with quotes is answered as given', async () => {
    const seen = await both('token-label-json-escaped', async (c) => {
      const ws = await c.workspace();
      const created = await c.control('POST', `/workspaces/${ws.id}/tokens`, { label: 'say "hi"' });
      return [created.status, created.json.label];
    });
    expect(seen).toEqual({ clean: [201, 'say "hi"'], faulted: [201, 'say \\"hi\\"'] });
  });

  it('endpoint-create-lifts-suspension: an endpoint created while suspended leaves the workspace suspended', async () => {
    const seen = await both('endpoint-create-lifts-suspension', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const suspended = await c.api('GET', '/v1/whoami', token);
      await c.endpoint(ws.id, all.receiver.url().url);
      const after = await c.api('GET', '/v1/whoami', token);
      return [suspended.json?.error?.code ?? suspended.status, after.json?.error?.code ?? after.status];
    });
    expect(seen).toEqual({
      clean: ['workspace_disabled', 'workspace_disabled'],
      faulted: ['workspace_disabled', 200],
    });
  });
  it('request-id-beside-error: the request id is error.request_id', async () => {
    const seen = await both('request-id-beside-error', async (c) => {
      const whoami = await c.api('GET', '/v1/whoami', 'svc_test_not-a-token');
      return [whoami.status, whoami.json?.error?.code, /^req_/.test(whoami.json?.error?.request_id ?? '')];
    });
    expect(seen).toEqual({ clean: [401, 'invalid_token', true], faulted: [401, 'invalid_token', false] });
  });

  it('replay-answered-200: an accepted replay is answered 202', async () => {
    const seen = await both('replay-answered-200', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: endpoint.id,
      });
      return replay.status;
    });
    expect(seen).toEqual({ clean: 202, faulted: 200 });
  });
  it('endpoint-state-read-uppercase: an endpoint page shows the state "active"', async () => {
    const seen = await both('endpoint-state-read-uppercase', async (c) => {
      const ws = await c.workspace();
      const created = await c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, {
        url: all.receiver.url().url,
        events: ['*'],
      });
      const page = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${created.json.endpoint_id}`);
      return [created.json.state, page.json.state];
    });
    expect(seen).toEqual({ clean: ['active', 'active'], faulted: ['active', 'ACTIVE'] });
  });

  it('token-scopes-answered-as-string: a token creation answers its scopes as a list', async () => {
    const seen = await both('token-scopes-answered-as-string', async (c) => {
      const ws = await c.workspace();
      const created = await c.control('POST', `/workspaces/${ws.id}/tokens`, {
        label: 'two scopes',
        scopes: ['voice:read', 'mailer:read'],
      });
      return [created.status, created.json.scopes];
    });
    expect(seen).toEqual({
      clean: [201, ['voice:read', 'mailer:read']],
      faulted: [201, 'voice:read mailer:read'],
    });
  });
});
