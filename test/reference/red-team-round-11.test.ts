import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup, tokenLabelAnswered } from './red-team-support.js';

// Red team, round 11: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

const errorCode = (json: unknown): unknown => (json as { error?: { code?: unknown } } | null)?.error?.code;

describe('red team round 11', () => {
  it('token-limit-429: a third active token is refused with 429, not 409', async () => {
    const seen = await both('token-limit-429', async (c) => {
      const ws = await c.workspace();
      await c.token(ws.id, { label: 'one' });
      await c.token(ws.id, { label: 'two' });
      const third = await c.control('POST', `/workspaces/${ws.id}/tokens`, { label: 'three' });
      return third.status;
    });
    expect(seen).toEqual({ clean: 409, faulted: 429 });
  });

  it('token-label-nfkc: a label with a ligature and full-width letters comes back normalised', async () => {
    const label = '\uFB01le \uFF2F\uFF50\uFF53 caf\u0065\u0301';
    const seen = await both('token-label-nfkc', async (c) => {
      const [status, answered] = await tokenLabelAnswered(c, label);
      return [status, answered === label];
    });
    expect(seen).toEqual({ clean: [201, true], faulted: [201, false] });
  });

  it('suspended-call-placed: a suspended workspace still places calls', async () => {
    const seen = await both('suspended-call-placed', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const whoami = await c.api('GET', '/v1/whoami', token);
      const call = await c.placeCall(token, ws.agents[0] ?? '');
      return [errorCode(whoami.json), errorCode(call.json) ?? call.status];
    });
    expect(seen).toEqual({
      clean: ['workspace_disabled', 'workspace_disabled'],
      faulted: ['workspace_disabled', 201],
    });
  });

  it('jwt-iat-required: a session JWT without iat is refused', async () => {
    const seen = await both('jwt-iat-required', async (c) => {
      const ws = await c.workspace();
      const { issuer, jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const now = Math.floor(Date.now() / 1000);
      const withIat = await all.keys.sign({ iss: issuer, aud: 'svc', sub: 'u1', exp: now + 60, iat: now });
      const a = await c.api('GET', '/v1/whoami', withIat);
      const b = await c.api('GET', '/v1/whoami', await jwt());
      return [a.status, b.status, errorCode(b.json) ?? null];
    });
    expect(seen).toEqual({ clean: [200, 200, null], faulted: [200, 401, 'invalid_token'] });
  });

  it('jwt-lifetime-over-60s-refused: a session JWT valid for 5 minutes is refused', async () => {
    const seen = await both('jwt-lifetime-over-60s-refused', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const a = await c.api('GET', '/v1/whoami', await jwt('svc', 60));
      const b = await c.api('GET', '/v1/whoami', await jwt('svc', 300));
      return [a.status, b.status, errorCode(b.json) ?? null];
    });
    expect(seen).toEqual({ clean: [200, 200, null], faulted: [200, 401, 'invalid_token'] });
  });

  it('outcome-forced-answered: a call completed with outcome voicemail is reported answered', async () => {
    const seen = await both('outcome-forced-answered', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '');
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'voicemail', duration_seconds: 7 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.outcome;
    });
    expect(seen).toEqual({ clean: 'voicemail', faulted: 'answered' });
  });

  it('fired-data-empty-string-null: an empty string in fired data is delivered as null', async () => {
    const seen = await both('fired-data-empty-string-null', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.reply.received', { body: '', sentiment: 'neutral' });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data;
    });
    expect(seen).toEqual({
      clean: { body: '', sentiment: 'neutral' },
      faulted: { body: null, sentiment: 'neutral' },
    });
  });

  it('api-version-datetime: api_version is a full date-time', async () => {
    const seen = await both('api-version-datetime', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const version = (delivery?.event as { api_version?: unknown } | undefined)?.api_version;
      return /^\d{4}-\d{2}-\d{2}$/.test(String(version));
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('request-id-no-prefix: error.request_id lacks the req_ prefix', async () => {
    const seen = await both('request-id-no-prefix', async (c) => {
      const answer = await c.api('GET', '/v1/whoami', 'svc_test_not-a-real-token');
      const id = (answer.json as { error?: { request_id?: unknown } }).error?.request_id;
      return [answer.status, errorCode(answer.json), typeof id === 'string' && /^req_[A-Za-z0-9]+$/.test(id)];
    });
    expect(seen).toEqual({ clean: [401, 'invalid_token', true], faulted: [401, 'invalid_token', false] });
  });

  it('endpoint-https-uppercase-refused: an HTTPS://… endpoint URL is refused', async () => {
    const seen = await both('endpoint-https-uppercase-refused', async (c) => {
      const ws = await c.workspace();
      const { url } = all.receiver.url();
      const created = await c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, {
        url: url.replace(/^https:/, 'HTTPS:'),
        events: ['*'],
      });
      return created.status >= 400 && created.status < 500 ? 'refused' : created.status;
    });
    expect(seen).toEqual({ clean: 201, faulted: 'refused' });
  });
  it("duration-cached-per-agent: an agent's second call reports the first call's duration", async () => {
    const seen = await both('duration-cached-per-agent', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const agent = ws.agents[0] ?? '';
      for (const duration_seconds of [7, 42]) {
        const placed = await c.placeCall(token, agent);
        await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds });
      }
      await eventually(() => all.receiver.at(path)[1]);
      return all.receiver
        .at(path)
        .map((d) => d.event.data.duration_seconds)
        .sort((a, b) => Number(a) - Number(b));
    });
    expect(seen).toEqual({ clean: [7, 42], faulted: [7, 7] });
  });

  it('replay-to-first-subscriber: a replay naming the second endpoint goes to the first', async () => {
    const seen = await both('replay-to-first-subscriber', async (c) => {
      const ws = await c.workspace();
      const first = all.receiver.url();
      const second = all.receiver.url();
      await c.endpoint(ws.id, first.url);
      const named = await c.endpoint(ws.id, second.url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(first.path)[0] && all.receiver.at(second.path)[0]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: named.id,
      });
      await eventually(() => all.receiver.at(first.path)[1] ?? all.receiver.at(second.path)[1]);
      return [replay.status, all.receiver.at(first.path).length, all.receiver.at(second.path).length];
    });
    expect(seen).toEqual({ clean: [202, 1, 2], faulted: [202, 2, 1] });
  });
});
