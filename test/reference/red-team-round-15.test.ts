import { createHmac } from 'node:crypto';
import { createServer } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSelfSignedCert } from '../../reference/dev/self-signed-cert.js';
import { listen, stop } from './servers.js';
import { eventually, redTeamRound, sessionSetup, sleep } from './red-team-support.js';

// Red team, round 15: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

/** A receiver whose every path answers 500 to its first delivery and 204 to the later ones. */
let failFirst: { url: (name: string) => string; count: (name: string) => number; close: () => Promise<void> };
beforeAll(async () => {
  const counts = new Map<string, number>();
  const server = createServer(makeSelfSignedCert(), (req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      const seen = (counts.get(path) ?? 0) + 1;
      counts.set(path, seen);
      res.statusCode = seen === 1 ? 500 : 204;
      res.end();
    });
  });
  const base = `https://127.0.0.1:${await listen(server)}`;
  failFirst = {
    url: (name) => `${base}/${name}`,
    count: (name) => counts.get(`/${name}`) ?? 0,
    close: () => stop(server),
  };
});
afterAll(async () => {
  await failFirst?.close();
});

describe('red team round 15', () => {
  it('scopeless-credential-invalid: a token holding no scope is refused on whoami', async () => {
    const seen = await both('scopeless-credential-invalid', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id, { label: 'no scope', scopes: [] });
      const who = await c.api('GET', '/v1/whoami', token);
      return [who.status, who.json?.error?.code ?? null];
    });
    expect(seen).toEqual({ clean: [200, null], faulted: [401, 'invalid_token'] });
  });

  it('member-subject-lowercased: a member whose subject has capitals cannot sign in', async () => {
    const subject = 'user_2NxQ7KpLm';
    const seen = await both('member-subject-lowercased', async (c) => {
      const ws = await c.workspace();
      const { issuer } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      await c.control('POST', `/workspaces/${ws.id}/members`, { subject, scopes: ['voice:read'] });
      const jwt = await all.keys.sign({
        iss: issuer,
        aud: 'svc',
        sub: subject,
        exp: Math.floor(Date.now() / 1000) + 60,
      });
      const agents = await c.api('GET', '/v1/voice/agents', jwt);
      return [agents.status, agents.json?.error?.code ?? null];
    });
    expect(seen).toEqual({ clean: [200, null], faulted: [401, 'invalid_token'] });
  });

  it('jwt-exp-fractional-refused: a session JWT whose exp has a fraction is refused', async () => {
    const seen = await both('jwt-exp-fractional-refused', async (c) => {
      const ws = await c.workspace();
      const { issuer } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const exp = Math.floor(Date.now() / 1000) + 60.5;
      const jwt = await all.keys.sign({ iss: issuer, aud: 'svc', sub: 'u1', exp });
      const who = await c.api('GET', '/v1/whoami', jwt);
      return [who.status, who.json?.error?.code ?? null];
    });
    expect(seen).toEqual({ clean: [200, null], faulted: [401, 'invalid_token'] });
  });

  it('token-unlicensed-scope-granted: a token gets a scope the workspace is not licensed for', async () => {
    const seen = await both('token-unlicensed-scope-granted', async (c) => {
      const ws = await c.workspace({ licensed_scopes: ['voice:read'] });
      const created = await c.control('POST', `/workspaces/${ws.id}/tokens`, {
        label: 'wide',
        scopes: ['voice:read', 'voice:write'],
      });
      if (created.status !== 201) return [created.status, null];
      const placed = await c.placeCall(created.json.token, ws.agents[0] ?? '');
      return [created.status, placed.status < 300 ? 'placed' : placed.json?.error?.code];
    });
    expect(seen.clean[0]).toBeGreaterThanOrEqual(400);
    expect(seen.clean[0]).toBeLessThan(500);
    expect(seen.faulted).toEqual([201, 'placed']);
  });

  it('revoked-token-revived-by-create: a token revoked just before a creation works again', async () => {
    const seen = await both('revoked-token-revived-by-create', async (c) => {
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

  it('endpoint-localhost-port-accepted: a localhost URL with a port is registered', async () => {
    const seen = await both('endpoint-localhost-port-accepted', async (c) => {
      const ws = await c.workspace();
      const register = (url: string) =>
        c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, { url, events: ['*'] });
      const bare = await register('https://localhost/hooks');
      const withPort = await register('https://localhost:8443/hooks');
      return [bare.status >= 400 && bare.status < 500, withPort.status >= 400 && withPort.status < 500];
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('retry-ack-not-recorded: a retry answered 204 is retried again', async () => {
    const seen = await both('retry-ack-not-recorded', async (c, prefix) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const name = `ack-${prefix ? 'faulted' : 'clean'}`;
      await c.endpoint(ws.id, failFirst.url(name));
      await c.fire(ws.id);
      await eventually(() => (failFirst.count(name) >= 2 ? true : undefined));
      await sleep(1200);
      return Math.min(failFirst.count(name), 3);
    });
    expect(seen).toEqual({ clean: 2, faulted: 3 });
  });

  it('body-ascii-escaped-signed-utf8: a non-ASCII event does not verify', async () => {
    const reply = 'Très bien — merci';
    const seen = await both('body-ascii-escaped-signed-utf8', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { secret } = await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.reply.received', { reply, sentiment: 'positive' });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const expected = createHmac('sha256', secret)
        .update(delivery?.body ?? '')
        .digest('hex');
      return [delivery?.headers['x-service-signature'] === expected, delivery?.event.data.reply];
    });
    expect(seen).toEqual({ clean: [true, reply], faulted: [false, reply] });
  });

  it("replay-data-json-text: a replay's data is a JSON string", async () => {
    const data = { reply: 'yes', sentiment: 'positive' };
    const seen = await both('replay-data-json-text', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { id } = await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.reply.received', data);
      const first = await eventually(() => all.receiver.at(path)[0]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: first?.event.id,
        endpoint_id: id,
      });
      const second = await eventually(() => all.receiver.at(path)[1]);
      return [replay.status, first?.event.data, second?.event.id === first?.event.id, second?.event.data];
    });
    expect(seen).toEqual({
      clean: [202, data, true, data],
      faulted: [202, data, true, JSON.stringify(data)],
    });
  });

  it('metadata-arrays-objectified: an array in metadata comes back as an object', async () => {
    const metadata = { lead_id: 'lead_7', tags: ['vip', 'q4'] };
    const seen = await both('metadata-arrays-objectified', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '', metadata);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 4 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.metadata;
    });
    expect(seen).toEqual({ clean: metadata, faulted: { lead_id: 'lead_7', tags: { 0: 'vip', 1: 'q4' } } });
  });

  it('fired-data-floats-2dp: a fired sentiment of 0.875 is delivered as 0.88', async () => {
    const seen = await both('fired-data-floats-2dp', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.reply.received', { reply: 'sure', sentiment: 0.875, count: 3 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return [delivery?.event.data.sentiment, delivery?.event.data.count];
    });
    expect(seen).toEqual({ clean: [0.875, 3], faulted: [0.88, 3] });
  });

  it('suspension-cached-per-credential: a token used just before a suspension is still served', async () => {
    const seen = await both('suspension-cached-per-credential', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const before = await c.api('GET', '/v1/whoami', token);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const after = await c.api('GET', '/v1/whoami', token);
      return [before.status, after.json?.error?.code ?? after.status];
    });
    expect(seen).toEqual({ clean: [200, 'workspace_disabled'], faulted: [200, 200] });
  });
});
