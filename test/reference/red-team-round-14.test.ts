import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../reference/webhooks/event-types.js';
import { eventually, redTeamRound, sessionSetup, sleep, tokenLabelAnswered } from './red-team-support.js';

// Red team, round 14: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

describe('red team round 14', () => {
  it('created-at-epoch-seconds: created_at is a number, not an ISO 8601 string', async () => {
    const seen = await both('created-at-epoch-seconds', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return typeof (delivery?.event as { created_at?: unknown } | undefined)?.created_at;
    });
    expect(seen).toEqual({ clean: 'string', faulted: 'number' });
  });

  it('endpoint-wildcard-read-expanded: a ["*"] endpoint reads back as every type', async () => {
    const seen = await both('endpoint-wildcard-read-expanded', async (c) => {
      const ws = await c.workspace();
      const { id } = await c.endpoint(ws.id, all.receiver.url().url, ['*']);
      const read = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      return read.json.events;
    });
    expect(seen).toEqual({ clean: ['*'], faulted: [...EVENT_TYPES] });
  });

  it('invalid-token-no-message: an invalid_token error lacks error.message', async () => {
    const seen = await both('invalid-token-no-message', async (c) => {
      const res = await c.api('GET', '/v1/whoami', 'svc_test_0000000000000000000000000000000000000000');
      return [res.status, res.json?.error?.code, typeof res.json?.error?.message];
    });
    expect(seen).toEqual({ clean: [401, 'invalid_token', 'string'], faulted: [401, 'invalid_token', 'undefined'] });
  });

  it('token-label-lowercased: a label comes back lower-cased', async () => {
    const label = 'CI Deploy Bot';
    const seen = await both('token-label-lowercased', (c) => tokenLabelAnswered(c, label));
    expect(seen).toEqual({ clean: [201, label], faulted: [201, 'ci deploy bot'] });
  });

  it('to-truncated-12: the completed event cuts a 13-character number to 12', async () => {
    const to = '+442071838750';
    const seen = await both('to-truncated-12', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to });
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 5 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.to;
    });
    expect(seen).toEqual({ clean: to, faulted: to.slice(0, 12) });
  });

  it('session-post-refused: a session token with voice:write cannot place a call', async () => {
    const seen = await both('session-post-refused', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read', 'voice:write']);
      const token = await jwt();
      const agents = await c.api('GET', '/v1/voice/agents', token);
      const placed = await c.placeCall(token, ws.agents[0] ?? '');
      return [agents.status, placed.status < 300 ? 'placed' : placed.json?.error?.code];
    });
    expect(seen).toEqual({ clean: [200, 'placed'], faulted: [200, 'invalid_token'] });
  });

  it('manual-progress-ignored-with-time-scale: a scaled manual workspace progresses its calls', async () => {
    const seen = await both('manual-progress-ignored-with-time-scale', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual', time_scale: 60 });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.placeCall(token, ws.agents[0] ?? '');
      await sleep(2500);
      return all.receiver
        .at(path)
        .map((d) => d.event.type)
        .sort();
    });
    expect(seen).toEqual({
      clean: ['voice.call.queued'],
      faulted: ['voice.call.completed', 'voice.call.queued', 'voice.call.started'],
    });
  });

  it("fired-data-first-of-type: a second event of a type carries the first one's data", async () => {
    const seen = await both('fired-data-first-of-type', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.reply.received', { reply: 'yes please' });
      await c.fire(ws.id, 'mailer.reply.received', { reply: 'not now' });
      await eventually(() => all.receiver.at(path)[1]);
      return all.receiver
        .at(path)
        .map((d) => d.event.data.reply)
        .sort();
    });
    expect(seen).toEqual({ clean: ['not now', 'yes please'], faulted: ['yes please', 'yes please'] });
  });

  it('replay-call-metadata-dropped: a replayed completed call event lacks its metadata', async () => {
    const metadata = { lead_id: 'lead_42' };
    const seen = await both('replay-call-metadata-dropped', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      const { id } = await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '', metadata);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 3 });
      const first = await eventually(() => all.receiver.at(path)[0]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: first?.event.id,
        endpoint_id: id,
      });
      const second = await eventually(() => all.receiver.at(path)[1]);
      return [
        replay.status,
        first?.event.data.metadata,
        second?.event.id === first?.event.id,
        second?.event.data.metadata,
      ];
    });
    expect(seen).toEqual({
      clean: [202, metadata, true, metadata],
      faulted: [202, metadata, true, {}],
    });
  });
});
