import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup, sleep } from './red-team-support.js';

// Red team, round 19: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

describe('red team round 19', () => {
  it('missing-scope-errors-array: a missing_scope answer has the error object of the spec', async () => {
    const seen = await both('missing-scope-errors-array', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id, { label: 'mailer only', scopes: ['mailer:read'] });
      const agents = await c.api('GET', '/v1/voice/agents', token);
      return [agents.json?.error?.code ?? null, /^req_/.test(agents.json?.error?.request_id ?? '')];
    });
    expect(seen).toEqual({ clean: ['missing_scope', true], faulted: [null, false] });
  });

  it('jwt-sub-trimmed: a session JWT whose sub is "u1 " is not member u1', async () => {
    const seen = await both('jwt-sub-trimmed', async (c) => {
      const ws = await c.workspace();
      const { issuer } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const jwt = await all.keys.sign({ iss: issuer, aud: 'svc', sub: 'u1 ', exp: Math.floor(Date.now() / 1000) + 60 });
      const whoami = await c.api('GET', '/v1/whoami', jwt);
      return [whoami.status, whoami.json?.error?.code ?? null];
    });
    expect(seen).toEqual({ clean: [401, 'invalid_token'], faulted: [200, null] });
  });

  it('token-empty-label-defaulted: an empty label is stored and answered as given', async () => {
    const seen = await both('token-empty-label-defaulted', async (c) => {
      const ws = await c.workspace();
      const created = await c.control('POST', `/workspaces/${ws.id}/tokens`, { label: '' });
      return [created.status, created.json.label];
    });
    expect(seen).toEqual({ clean: [201, ''], faulted: [201, 'Untitled token'] });
  });

  it('endpoint-localhost-trailing-dot: https://localhost./ is refused like https://localhost/', async () => {
    const seen = await both('endpoint-localhost-trailing-dot', async (c) => {
      const ws = await c.workspace();
      const create = (url: string) =>
        c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, { url, events: ['*'] });
      const plain = await create('https://localhost/hook');
      const dotted = await create('https://localhost./hook');
      return [plain.status < 500 && plain.status >= 400, dotted.status < 500 && dotted.status >= 400];
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('retry-schedule-starts-at-5m: the first retry comes after 1 (scaled) minute, not 5', async () => {
    const seen = await both('retry-schedule-starts-at-5m', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      // At scale 3600 the delays are 17, 83, 500 and 2000 ms: attempts at about 0, 17, 100 and 600 ms;
      // read one late, at 0, 83, 583 and 2583 ms.
      await sleep(1500);
      return Math.min(all.receiver.at(path).length, 4);
    });
    expect(seen).toEqual({ clean: 4, faulted: 3 });
  });

  it('retry-timestamp-scaled: a retry carries the wall-clock delivery time', async () => {
    const seen = await both('retry-timestamp-scaled', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      await eventually(() => (all.receiver.at(path).length >= 4 ? true : undefined));
      const skews = all.receiver
        .at(path)
        .slice(0, 4)
        .map((d) => Math.abs(Number(d.headers['x-service-timestamp']) - d.at / 1000));
      return [skews.length, Math.max(...skews) <= 5];
    });
    expect(seen).toEqual({ clean: [4, true], faulted: [4, false] });
  });

  it('replay-stamped-with-created-at: a replay carries a fresh timestamp, not the event time', async () => {
    const seen = await both('replay-stamped-with-created-at', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { id } = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      const first = await eventually(() => all.receiver.at(path)[0]);
      await sleep(2100);
      await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: id,
      });
      const replay = await eventually(() => all.receiver.at(path)[1]);
      if (!first || !replay) return 'missing delivery';
      const stamp = (d: typeof first) => Number(d.headers['x-service-timestamp']);
      return [replay.event.id === first.event.id, stamp(replay) - stamp(first) >= 2];
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('metadata-floats-truncated: a fractional metadata number comes back whole', async () => {
    const metadata = { lead_id: 'lead_7', score: 0.75, attempts: 3 };
    const seen = await both('metadata-floats-truncated', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '', metadata);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 4 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.metadata;
    });
    expect(seen).toEqual({ clean: metadata, faulted: { lead_id: 'lead_7', score: 0, attempts: 3 } });
  });

  it('fired-data-false-dropped: a false member of fired data is delivered', async () => {
    const data = { campaign: 'spring', paused: false, leads: 0 };
    const seen = await both('fired-data-false-dropped', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.campaign.completed', data);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data;
    });
    expect(seen).toEqual({ clean: data, faulted: { campaign: 'spring', leads: 0 } });
  });

  it('suspension-stamped-on-tokens: a token created while the workspace is suspended is refused too', async () => {
    const seen = await both('suspension-stamped-on-tokens', async (c) => {
      const ws = await c.workspace();
      const old = await c.token(ws.id, { label: 'old' });
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const fresh = await c.token(ws.id, { label: 'new' });
      const codeOf = async (token: string) => (await c.api('GET', '/v1/whoami', token)).json?.error?.code ?? null;
      return [await codeOf(old.token), await codeOf(fresh.token)];
    });
    expect(seen).toEqual({
      clean: ['workspace_disabled', 'workspace_disabled'],
      faulted: ['workspace_disabled', null],
    });
  });

  it('retry-body-pretty-printed: every attempt is signed over the body it carries', async () => {
    const seen = await both('retry-body-pretty-printed', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      const { secret } = await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      await eventually(() => (all.receiver.at(path).length >= 2 ? true : undefined));
      return all.receiver
        .at(path)
        .slice(0, 2)
        .map((d) => createHmac('sha256', secret).update(d.body).digest('hex') === d.headers['x-service-signature']);
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('metadata-dollar-keys-dropped: a metadata key starting with $ comes back', async () => {
    const metadata = { lead_id: 'lead_9', $source: 'crm-import' };
    const seen = await both('metadata-dollar-keys-dropped', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '', metadata);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 5 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.metadata;
    });
    expect(seen).toEqual({ clean: metadata, faulted: { lead_id: 'lead_9' } });
  });
});
