import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup, sleep, startKeySet } from './red-team-support.js';

// Red team, round 17: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

/** A second identity provider whose keys carry the same kids (k1, k2) as the round's. */
let otherKeys: Awaited<ReturnType<typeof startKeySet>> | undefined;
beforeAll(async () => {
  otherKeys = await startKeySet();
});
afterAll(async () => {
  await otherKeys?.close();
});

const hmacHex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe('red team round 17', () => {
  it('timestamp-fractional-seconds: X-Service-Timestamp is whole Unix seconds', async () => {
    const seen = await both('timestamp-fractional-seconds', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return /^\d+$/.test(String(delivery?.headers['x-service-timestamp']));
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('fired-data-strings-trimmed: fired data is delivered with its white space', async () => {
    const data = { reply: '  Sounds good.\n', sentiment: 'positive', quote: { text: ' hi ' } };
    const seen = await both('fired-data-strings-trimmed', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.reply.received', data);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data;
    });
    expect(seen).toEqual({
      clean: data,
      faulted: { reply: 'Sounds good.', sentiment: 'positive', quote: { text: 'hi' } },
    });
  });

  it('metadata-numeric-strings-coerced: a numeric-looking metadata string comes back a string', async () => {
    const metadata = { lead_id: 'lead_7', crm_id: '00123' };
    const seen = await both('metadata-numeric-strings-coerced', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '', metadata);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 4 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.metadata;
    });
    expect(seen).toEqual({ clean: metadata, faulted: { lead_id: 'lead_7', crm_id: 123 } });
  });

  it('duration-fencepost-plus-one: a 42-second call is reported as 42 seconds', async () => {
    const seen = await both('duration-fencepost-plus-one', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '');
      await c.progress(ws.id, placed.json.call_id, { state: 'started' });
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 42 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.duration_seconds;
    });
    expect(seen).toEqual({ clean: 42, faulted: 43 });
  });

  it('token-create-lifts-suspension: a token created while suspended leaves the workspace suspended', async () => {
    const seen = await both('token-create-lifts-suspension', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id, { label: 'before' });
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const suspended = await c.api('GET', '/v1/voice/agents', token);
      await c.token(ws.id, { label: 'during' });
      const after = await c.api('GET', '/v1/voice/agents', token);
      return [suspended.json?.error?.code ?? suspended.status, after.json?.error?.code ?? after.status];
    });
    expect(seen).toEqual({
      clean: ['workspace_disabled', 'workspace_disabled'],
      faulted: ['workspace_disabled', 200],
    });
  });

  it('revocation-list-single-slot: a revoked token stays revoked when another is revoked', async () => {
    const seen = await both('revocation-list-single-slot', async (c) => {
      const ws = await c.workspace();
      const first = await c.token(ws.id, { label: 'first' });
      await c.token(ws.id, { label: 'kept' });
      await c.control('DELETE', `/workspaces/${ws.id}/tokens/${first.id}`);
      const second = await c.token(ws.id, { label: 'second' });
      await c.control('DELETE', `/workspaces/${ws.id}/tokens/${second.id}`);
      await sleep(400);
      const [a, b] = await Promise.all([
        c.api('GET', '/v1/whoami', first.token),
        c.api('GET', '/v1/whoami', second.token),
      ]);
      return [a.status, b.status];
    });
    expect(seen).toEqual({ clean: [401, 401], faulted: [200, 401] });
  });

  it('invalid-token-message-echoes-token: the invalid_token error does not carry the token', async () => {
    const seen = await both('invalid-token-message-echoes-token', async (c) => {
      const ws = await c.workspace();
      const { id, token } = await c.token(ws.id);
      await c.control('DELETE', `/workspaces/${ws.id}/tokens/${id}`);
      await sleep(400);
      const revoked = await c.api('GET', '/v1/whoami', token);
      const unknown = `svc_test_${'x'.repeat(40)}`;
      const stranger = await c.api('GET', '/v1/whoami', unknown);
      return [
        revoked.status,
        revoked.json?.error?.code,
        JSON.stringify(revoked.json).includes(token),
        JSON.stringify(stranger.json).includes(unknown),
      ];
    });
    expect(seen).toEqual({
      clean: [401, 'invalid_token', false, false],
      faulted: [401, 'invalid_token', true, true],
    });
  });

  it('replay-signed-with-first-receiver-secret: a replay verifies with the secret of the endpoint named', async () => {
    const seen = await both('replay-signed-with-first-receiver-secret', async (c) => {
      const ws = await c.workspace();
      const first = all.receiver.url();
      const second = all.receiver.url();
      await c.endpoint(ws.id, first.url);
      const named = await c.endpoint(ws.id, second.url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(second.path)[0]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: named.id,
      });
      const replayed = await eventually(() => all.receiver.at(second.path)[1]);
      if (!replayed) return [replay.status, 'no replay'];
      return [replay.status, replayed.headers['x-service-signature'] === hmacHex(named.secret, replayed.body)];
    });
    expect(seen).toEqual({ clean: [202, true], faulted: [202, false] });
  });

  it('endpoint-url-read-normalised: an endpoint URL reads back as it was registered', async () => {
    const url = 'https://127.0.0.1:443/hooks/Inbound';
    const seen = await both('endpoint-url-read-normalised', async (c) => {
      const ws = await c.workspace();
      const { id } = await c.endpoint(ws.id, url);
      const page = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      return page.json.url;
    });
    expect(seen).toEqual({ clean: url, faulted: 'https://127.0.0.1/hooks/Inbound' });
  });

  it('token-secret-from-active-count: a revoked token stays revoked when the next one is created', async () => {
    const seen = await both('token-secret-from-active-count', async (c) => {
      const ws = await c.workspace();
      const old = await c.token(ws.id, { label: 'old' });
      await c.control('DELETE', `/workspaces/${ws.id}/tokens/${old.id}`);
      await sleep(400);
      const before = await c.api('GET', '/v1/whoami', old.token);
      await c.token(ws.id, { label: 'new' });
      await sleep(400);
      const after = await c.api('GET', '/v1/whoami', old.token);
      return [before.status, after.status];
    });
    expect(seen).toEqual({ clean: [401, 401], faulted: [401, 200] });
  });

  it('fired-data-single-item-arrays-unwrapped: a one-item array in fired data stays an array', async () => {
    const data = { to: ['ana@example.com'], tags: ['warm', 'q4'] };
    const seen = await both('fired-data-single-item-arrays-unwrapped', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.email.sent', data);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data;
    });
    expect(seen).toEqual({ clean: data, faulted: { to: 'ana@example.com', tags: ['warm', 'q4'] } });
  });

  it("jwks-keys-cached-by-kid: a session JWT is verified against its own workspace's keys", async () => {
    const seen = await both('jwks-keys-cached-by-kid', async (c) => {
      const other = otherKeys;
      if (!other) throw new Error('the second key set has not started');
      const wsA = await c.workspace();
      const wsB = await c.workspace();
      const a = await sessionSetup(c, all.keys, wsA.id, ['voice:read']);
      const b = await sessionSetup(c, other, wsB.id, ['voice:read']);
      const first = await c.api('GET', '/v1/whoami', await a.jwt());
      const second = await c.api('GET', '/v1/whoami', await b.jwt());
      return [first.status, second.status];
    });
    expect(seen).toEqual({ clean: [200, 200], faulted: [200, 401] });
  });
});
