import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup, sleep } from './red-team-support.js';

// Red team, round 18: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

const ALL_FIVE = ['mailer:read', 'mailer:write', 'voice:read', 'voice:write', 'webhooks:write'];

describe('red team round 18', () => {
  it('request-id-from-client-header: error.request_id is a req_ id, whatever X-Request-Id the caller sends', async () => {
    const seen = await both('request-id-from-client-header', async (_c, prefix) => {
      const dispatcher = new Agent({ pipelining: 0 });
      try {
        const res = await request(`${all.reference.baseUrl}${prefix}/v1/whoami`, {
          headers: { authorization: `Bearer svc_test_${'x'.repeat(40)}`, 'x-request-id': 'trace-7f3a-0001' },
          dispatcher,
        });
        const body = (await res.body.json()) as { error: { code: string; request_id: string } };
        return [res.statusCode, body.error.code, /^req_[A-Za-z0-9]+$/.test(body.error.request_id)];
      } finally {
        await dispatcher.close();
      }
    });
    expect(seen).toEqual({ clean: [401, 'invalid_token', true], faulted: [401, 'invalid_token', false] });
  });

  it('jwt-typ-required: a valid session JWT without a typ header is accepted', async () => {
    const seen = await both('jwt-typ-required', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const whoami = await c.api('GET', '/v1/whoami', await jwt());
      return [whoami.status, whoami.json?.error?.code ?? null];
    });
    expect(seen).toEqual({ clean: [200, null], faulted: [401, 'invalid_token'] });
  });

  it('token-answer-shows-licensed-scopes: a narrowed token is answered with its own scopes', async () => {
    const seen = await both('token-answer-shows-licensed-scopes', async (c) => {
      const ws = await c.workspace();
      const { scopes } = await c.token(ws.id, { label: 'reader', scopes: ['voice:read'] });
      return [...scopes].sort();
    });
    expect(seen).toEqual({ clean: ['voice:read'], faulted: ALL_FIVE });
  });

  it('endpoint-http-uppercase-accepted: an HTTP:// endpoint URL is refused like http://', async () => {
    const seen = await both('endpoint-http-uppercase-accepted', async (c) => {
      const ws = await c.workspace();
      const create = (url: string) =>
        c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, { url, events: ['*'] });
      const lower = await create('http://127.0.0.1:9/hook');
      const upper = await create('HTTP://127.0.0.1:9/hook');
      return [lower.status, upper.status];
    });
    expect(seen).toEqual({ clean: [422, 422], faulted: [422, 201] });
  });

  it('auto-disable-after-24-failures: 24 quick failures do not disable an endpoint before 24 (scaled) hours', async () => {
    const seen = await both('auto-disable-after-24-failures', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      const { id } = await c.endpoint(ws.id, url);
      for (let i = 0; i < 24; i++) await c.fire(ws.id);
      await eventually(() => (all.receiver.at(path).length >= 24 ? true : undefined));
      await sleep(200);
      const page = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      return page.json.state;
    });
    // 24 h at scale 3600 is 24 s; the failures all came within about a second.
    expect(seen).toEqual({ clean: 'active', faulted: 'disabled' });
  });

  it('fanout-deduped-by-url: two subscribed endpoints with one URL each get the event', async () => {
    const seen = await both('fanout-deduped-by-url', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      await sleep(500);
      return all.receiver.at(path).length;
    });
    expect(seen).toEqual({ clean: 2, faulted: 1 });
  });

  it('replay-stamp-cached-per-endpoint: a second replay carries a fresh timestamp', async () => {
    const seen = await both('replay-stamp-cached-per-endpoint', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { id } = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      const replay = () =>
        c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, { event_id: fired.json.event_id, endpoint_id: id });
      await replay();
      const first = await eventually(() => all.receiver.at(path)[1]);
      await sleep(1100);
      await replay();
      const second = await eventually(() => all.receiver.at(path)[2]);
      if (!first || !second) return 'missing replay';
      const stamp = (d: typeof first) => Number(d.headers['x-service-timestamp']);
      return [second.event.id === first.event.id, stamp(second) - stamp(first) >= 1];
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('call-events-created-at-placement: a call event is stamped when it happens, not when the call was placed', async () => {
    const seen = await both('call-events-created-at-placement', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.queued', 'voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '');
      await sleep(1100);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 7 });
      await eventually(() => (all.receiver.at(path).length >= 2 ? true : undefined));
      const at = (type: string) => {
        const created = all.receiver.at(path).find((d) => d.event.type === type)?.event as
          | { created_at?: string }
          | undefined;
        return Date.parse(created?.created_at ?? '');
      };
      return at('voice.call.completed') - at('voice.call.queued') >= 1000;
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('metadata-strings-truncated-255: a long metadata string comes back whole', async () => {
    const metadata = { lead_id: 'lead_42', notes: 'n'.repeat(300) };
    const seen = await both('metadata-strings-truncated-255', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '', metadata);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 3 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.metadata;
    });
    expect(seen).toEqual({ clean: metadata, faulted: { lead_id: 'lead_42', notes: 'n'.repeat(255) } });
  });

  it('fired-data-nfc-normalised: fired data strings keep their exact code points', async () => {
    const data = { reply: 'Rene\u0301e says yes', sentiment: 'positive' };
    const seen = await both('fired-data-nfc-normalised', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.reply.received', data);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data;
    });
    expect(seen).toEqual({ clean: data, faulted: { reply: 'Ren\u00e9e says yes', sentiment: 'positive' } });
  });

  it('licensed-scopes-shared-default: a workspace created without licensed_scopes is licensed all five', async () => {
    const seen = await both('licensed-scopes-shared-default', async (c) => {
      await c.workspace({ licensed_scopes: ['voice:read'] });
      const ws = await c.workspace();
      const { scopes } = await c.token(ws.id);
      return [...scopes].sort();
    });
    expect(seen).toEqual({ clean: ALL_FIVE, faulted: ['voice:read'] });
  });

  it("retry-scale-of-latest-workspace: a workspace's retries run at its own time scale", async () => {
    const seen = await both('retry-scale-of-latest-workspace', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      await c.workspace();
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      // The first retry is due 1 min / 3600 = 17 ms after the failure; unscaled, 60 s.
      await sleep(1000);
      return Math.min(all.receiver.at(path).length, 2);
    });
    expect(seen).toEqual({ clean: 2, faulted: 1 });
  });
});
