import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup, sleep } from './red-team-support.js';

// Red team, round 24: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

describe('red team round 24', () => {
  it("retry-signature-uppercase: a retry's signature is lower-case hex like the first attempt's", async () => {
    const seen = await both('retry-signature-uppercase', async (c) => {
      // time_scale 3600: the first retry comes 17 ms after the failure.
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.email.sent', { n: 1 });
      await eventually(() => all.receiver.at(path)[1]);
      all.receiver.answer(path, 204);
      return all.receiver
        .at(path)
        .slice(0, 2)
        .map((d) => /^[0-9a-f]{64}$/.test(String(d.headers['x-service-signature'])));
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('duration-zero-defaulted: a call completed with duration_seconds 0 reports 0', async () => {
    const seen = await both('duration-zero-defaulted', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '');
      const callId = String(placed.json.call_id);
      await c.progress(ws.id, callId, { state: 'started' });
      await c.progress(ws.id, callId, { state: 'completed', outcome: 'answered', duration_seconds: 0 });
      const completed = await eventually(() => all.receiver.at(path)[0]);
      return completed?.event.data['duration_seconds'];
    });
    expect(seen).toEqual({ clean: 0, faulted: 1 });
  });

  it('mailer-envelope-workspace-id-cached: a mailer event names its own workspace', async () => {
    const seen = await both('mailer-envelope-workspace-id-cached', async (c) => {
      const first = await c.workspace();
      const second = await c.workspace();
      const one = all.receiver.url();
      const two = all.receiver.url();
      await c.endpoint(first.id, one.url);
      await c.endpoint(second.id, two.url);
      await c.fire(first.id, 'mailer.reply.received', { body: 'yes' });
      await eventually(() => all.receiver.at(one.path)[0]);
      await c.fire(second.id, 'mailer.reply.received', { body: 'no' });
      const got = await eventually(() => all.receiver.at(two.path)[0]);
      return got?.event['workspace_id' as 'id'] === second.id;
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it("endpoint-url-read-port-dropped: an endpoint's page reads back the URL registered", async () => {
    const seen = await both('endpoint-url-read-port-dropped', async (c) => {
      const ws = await c.workspace();
      const { url } = all.receiver.url();
      const { id } = await c.endpoint(ws.id, url);
      const page = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      return page.json.url === url;
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it("session-scopes-of-latest-member: each member's session gets that member's scopes", async () => {
    const seen = await both('session-scopes-of-latest-member', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u2', scopes: ['mailer:read'] });
      const agents = await c.api('GET', '/v1/voice/agents', await jwt());
      return [agents.status, agents.json?.error?.code];
    });
    expect(seen.clean).toEqual([200, undefined]);
    expect(seen.faulted[1]).toBe('missing_scope');
  });

  it('completed-call-id-of-agent-current-call: a completion names the call that ended', async () => {
    const seen = await both('completed-call-id-of-agent-current-call', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const first = String((await c.placeCall(token, ws.agents[0] ?? '')).json.call_id);
      const second = String((await c.placeCall(token, ws.agents[0] ?? '')).json.call_id);
      await c.progress(ws.id, first, { state: 'started' });
      await c.progress(ws.id, first, { state: 'completed', outcome: 'answered', duration_seconds: 42 });
      const completed = await eventually(() => all.receiver.at(path)[0]);
      const id = completed?.event.data['call_id'];
      return [id === first, id === second];
    });
    expect(seen).toEqual({ clean: [true, false], faulted: [false, true] });
  });

  it("suspended-agents-listed: a suspended workspace's agents list answers workspace_disabled", async () => {
    const seen = await both('suspended-agents-listed', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const agents = await c.api('GET', '/v1/voice/agents', token);
      return [agents.json?.error?.code, JSON.stringify(agents.json).includes(ws.agents[0] ?? 'none')];
    });
    expect(seen).toEqual({ clean: ['workspace_disabled', false], faulted: [undefined, true] });
  });

  it('workspace-disabled-no-request-id: a workspace_disabled error carries its request_id', async () => {
    const seen = await both('workspace-disabled-no-request-id', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const whoami = await c.api('GET', '/v1/whoami', token);
      return [whoami.json?.error?.code, /^req_/.test(String(whoami.json?.error?.request_id))];
    });
    expect(seen).toEqual({ clean: ['workspace_disabled', true], faulted: ['workspace_disabled', false] });
  });

  it('reply-body-html-escaped: a reply body arrives as fired', async () => {
    const body = 'Yes <b>please</b> & "soon"';
    const seen = await both('reply-body-html-escaped', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.reply.received', { body, sentiment: 'positive' });
      const got = await eventually(() => all.receiver.at(path)[0]);
      return got?.event.data['body'];
    });
    expect(seen).toEqual({ clean: body, faulted: 'Yes &lt;b&gt;please&lt;/b&gt; &amp; &quot;soon&quot;' });
  });

  it("replay-cancels-pending-retries: a replay leaves the original delivery's retries scheduled", async () => {
    const seen = await both('replay-cancels-pending-retries', async (c) => {
      // time_scale 60: the first retry comes 1 s after each failure.
      const ws = await c.workspace({ time_scale: 60 });
      const { url, path } = all.receiver.url(500);
      const endpoint = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id, 'mailer.campaign.completed', { campaign: 'q4' });
      await eventually(() => all.receiver.at(path)[0]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: endpoint.id,
      });
      await eventually(() => all.receiver.at(path)[1]);
      await sleep(1600);
      all.receiver.answer(path, 204);
      return [replay.status, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [202, 4], faulted: [202, 3] });
  });

  it("event-id-workspace-sequence: two workspaces' events have distinct ids", async () => {
    const seen = await both('event-id-workspace-sequence', async (c) => {
      const first = await c.workspace();
      const second = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(first.id, url);
      await c.endpoint(second.id, url);
      await c.fire(first.id, 'mailer.email.sent', { lead_id: 'lead_1' });
      await c.fire(second.id, 'mailer.email.sent', { lead_id: 'lead_2' });
      await eventually(() => all.receiver.at(path)[1]);
      return new Set(all.receiver.at(path).map((d) => d.event.id)).size;
    });
    expect(seen).toEqual({ clean: 2, faulted: 1 });
  });

  it('subscription-keyed-by-url: two endpoints at one URL each keep their own event types', async () => {
    const seen = await both('subscription-keyed-by-url', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['mailer.email.sent']);
      await c.endpoint(ws.id, url, ['workspace.plan.upgraded']);
      await c.fire(ws.id, 'mailer.email.sent', { lead_id: 'lead_1' });
      await c.fire(ws.id, 'workspace.plan.upgraded', { plan: 'pro' });
      await eventually(() => all.receiver.at(path)[1]);
      await sleep(200);
      return all.receiver
        .at(path)
        .map((d) => d.event.type)
        .sort();
    });
    expect(seen.clean).toEqual(['mailer.email.sent', 'workspace.plan.upgraded']);
    expect(seen.faulted).toEqual(['workspace.plan.upgraded', 'workspace.plan.upgraded']);
  });
});
