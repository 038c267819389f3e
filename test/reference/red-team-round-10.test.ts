import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup, sleep, tokenLabelAnswered } from './red-team-support.js';

// Red team, round 10: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

const errorCode = (json: unknown): unknown => (json as { error?: { code?: unknown } } | null)?.error?.code;

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

const hmacHex = (secret: string, body: string): string => createHmac('sha256', secret).update(body).digest('hex');

describe('red team round 10', () => {
  it('missing-scope-code-insufficient: a token lacking the scope gets insufficient_scope', async () => {
    const seen = await both('missing-scope-code-insufficient', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id, { label: 'reader', scopes: ['voice:read'] });
      const call = await c.placeCall(token, ws.agents[0] ?? '');
      return [call.status, errorCode(call.json)];
    });
    expect(seen).toEqual({ clean: [403, 'missing_scope'], faulted: [403, 'insufficient_scope'] });
  });

  it('idp-issuer-first-workspace-only: the second workspace sharing an issuer has its JWTs refused', async () => {
    const seen = await both('idp-issuer-first-workspace-only', async (c) => {
      const first = await c.workspace();
      const second = await c.workspace();
      const issuer = `https://idp.example/shared-${first.id}`;
      for (const [ws, audience] of [
        [first.id, 'aud-first'],
        [second.id, 'aud-second'],
      ] as const)
        await c.control('PUT', `/workspaces/${ws}/identity-provider`, { issuer, jwks_uri: all.keys.url, audience });
      await c.control('POST', `/workspaces/${first.id}/members`, { subject: 'u0', scopes: ['voice:read'] });
      await c.control('POST', `/workspaces/${second.id}/members`, { subject: 'u1', scopes: ['voice:read'] });
      const exp = Math.floor(Date.now() / 1000) + 60;
      const forFirst = await all.keys.sign({ iss: issuer, aud: 'aud-first', sub: 'u0', exp });
      const forSecond = await all.keys.sign({ iss: issuer, aud: 'aud-second', sub: 'u1', exp });
      const a = await c.api('GET', '/v1/whoami', forFirst);
      const b = await c.api('GET', '/v1/whoami', forSecond);
      return [a.status, b.status, b.json?.workspace_id === second.id];
    });
    expect(seen).toEqual({ clean: [200, 200, true], faulted: [200, 401, false] });
  });

  it("token-default-scopes-from-previous: a token without scopes gets the previous token's", async () => {
    const seen = await both('token-default-scopes-from-previous', async (c) => {
      const ws = await c.workspace();
      await c.token(ws.id, { label: 'reader', scopes: ['voice:read'] });
      const second = await c.token(ws.id, { label: 'default' });
      const call = await c.placeCall(second.token, ws.agents[0] ?? '');
      return [[...second.scopes].sort(), call.status === 201];
    });
    expect(seen).toEqual({
      clean: [['mailer:read', 'mailer:write', 'voice:read', 'voice:write', 'webhooks:write'], true],
      faulted: [['voice:read'], false],
    });
  });

  it('token-label-html-escaped: a label with & < > " comes back escaped', async () => {
    const label = 'Ops & <billing> "nightly"';
    const seen = await both('token-label-html-escaped', (c) => tokenLabelAnswered(c, label));
    expect(seen).toEqual({
      clean: [201, label],
      faulted: [201, 'Ops &amp; &lt;billing&gt; &quot;nightly&quot;'],
    });
  });

  it('enable-revives-deleted: re-enabling a deleted endpoint brings it back', async () => {
    const seen = await both('enable-revives-deleted', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const sentinel = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      await c.endpoint(ws.id, sentinel.url);
      const base = `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`;
      const deleted = await c.control('DELETE', base);
      const enabled = await c.control('POST', `${base}/enable`);
      const read = await c.control('GET', base);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(sentinel.path)[0]);
      await sleep(300);
      return [deleted.status, enabled.status, read.status, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [204, 404, 404, 0], faulted: [204, 204, 200, 1] });
  });

  it('sign-sha256-prefix: X-Service-Signature is sha256=<hex>', async () => {
    const seen = await both('sign-sha256-prefix', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { secret } = await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const signature = header(delivery?.headers['x-service-signature']) ?? '';
      return [/^[0-9a-f]{64}$/.test(signature), signature.endsWith(hmacHex(secret, delivery?.body ?? ''))];
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [false, true] });
  });

  it('retry-429-after-1s: a 429 is retried after 1 s, not 1 min', async () => {
    const seen = await both('retry-429-after-1s', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url(429);
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      await sleep(1600);
      return Math.min(all.receiver.at(path).length, 2);
    });
    expect(seen).toEqual({ clean: 1, faulted: 2 });
  });

  it("replay-data-latest-of-type: a replay carries the latest same-type event's data", async () => {
    const seen = await both('replay-data-latest-of-type', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const first = await c.fire(ws.id, 'mailer.email.sent', { n: 1 });
      await c.fire(ws.id, 'mailer.email.sent', { n: 2 });
      await eventually(() => all.receiver.at(path)[1]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: first.json.event_id,
        endpoint_id: endpoint.id,
      });
      const replayed = await eventually(() => all.receiver.at(path)[2]);
      return [replay.status, replayed?.event.id === first.json.event_id, replayed?.event.data];
    });
    expect(seen).toEqual({ clean: [202, true, { n: 1 }], faulted: [202, true, { n: 2 }] });
  });

  it('to-15-digits-refused: a 15-digit international number is refused', async () => {
    const seen = await both('to-15-digits-refused', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const statuses = [];
      for (const to of ['+14155550100', '+861012345678901'])
        statuses.push((await c.api('POST', '/v1/voice/calls', token, { agent_id: ws.agents[0], to })).status);
      return statuses;
    });
    expect(seen).toEqual({ clean: [201, 201], faulted: [201, 422] });
  });

  it("call-event-id-from-call: a call's three events carry one id", async () => {
    const seen = await both('call-event-id-from-call', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      const placed = await c.placeCall(token, ws.agents[0] ?? '');
      await eventually(() => all.receiver.at(path)[0]);
      await c.progress(ws.id, placed.json.call_id, { state: 'started' });
      await eventually(() => all.receiver.at(path)[1]);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 7 });
      await eventually(() => all.receiver.at(path)[2]);
      const deliveries = all.receiver.at(path);
      return [deliveries.length, new Set(deliveries.map((d) => d.event.id)).size];
    });
    expect(seen).toEqual({ clean: [3, 3], faulted: [3, 1] });
  });

  it('fired-data-omitted-null: an event fired without data carries data null', async () => {
    const seen = await both('fired-data-omitted-null', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      const fired = await c.control('POST', `/workspaces/${ws.id}/events`, { type: 'workspace.plan.upgraded' });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return [fired.status, delivery?.event.data];
    });
    expect(seen).toEqual({ clean: [201, {}], faulted: [201, null] });
  });

  it("delete-workspace-session-alive: a deleted workspace's session tokens keep working", async () => {
    const seen = await both('delete-workspace-session-alive', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const token = await jwt();
      const before = await c.api('GET', '/v1/whoami', token);
      const deleted = await c.control('DELETE', `/workspaces/${ws.id}`);
      const after = await c.api('GET', '/v1/whoami', token);
      return [before.status, deleted.status, after.status];
    });
    expect(seen).toEqual({ clean: [200, 204, 401], faulted: [200, 204, 200] });
  });

  it("secret-cached-by-url: another workspace's registration of the URL changes the signing key", async () => {
    const seen = await both('secret-cached-by-url', async (c) => {
      const mine = await c.workspace();
      const theirs = await c.workspace();
      const { url, path } = all.receiver.url();
      const { secret } = await c.endpoint(mine.id, url);
      const other = await c.endpoint(theirs.id, url);
      await c.fire(mine.id);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const signature = header(delivery?.headers['x-service-signature']);
      const body = delivery?.body ?? '';
      return [signature === hmacHex(secret, body), signature === hmacHex(other.secret, body)];
    });
    expect(seen).toEqual({ clean: [true, false], faulted: [false, true] });
  });
});
