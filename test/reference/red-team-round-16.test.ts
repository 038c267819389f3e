import { createServer } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSelfSignedCert } from '../../reference/dev/self-signed-cert.js';
import { listen, stop } from './servers.js';
import { eventually, redTeamRound, sessionSetup, sleep } from './red-team-support.js';

// Red team, round 16: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

/**
 * A receiver whose every path answers its first delivery 503 with Retry-After: 0 and the later
 * ones 204, recording each delivery's body.
 */
let throttling: {
  url: (name: string) => string;
  bodies: (name: string) => Array<{ created_at: unknown }>;
  close: () => Promise<void>;
};
beforeAll(async () => {
  const bodies = new Map<string, Array<{ created_at: unknown }>>();
  const server = createServer(makeSelfSignedCert(), (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const seen = bodies.get(path) ?? [];
      seen.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      bodies.set(path, seen);
      if (seen.length === 1) {
        res.statusCode = 503;
        res.setHeader('retry-after', '0');
      } else res.statusCode = 204;
      res.end();
    });
  });
  const base = `https://127.0.0.1:${await listen(server)}`;
  throttling = {
    url: (name) => `${base}/${name}`,
    bodies: (name) => bodies.get(`/${name}`) ?? [],
    close: () => stop(server),
  };
});
afterAll(async () => {
  await throttling?.close();
});

describe('red team round 16', () => {
  it('retry-created-at-refreshed: a retry carries the event created_at of its first attempt', async () => {
    const seen = await both('retry-created-at-refreshed', async (c, prefix) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const name = `created-at${prefix.replaceAll('/', '-')}`;
      await c.endpoint(ws.id, throttling.url(name));
      await c.fire(ws.id);
      const attempts = await eventually(() => {
        const got = throttling.bodies(name);
        return got.length >= 2 ? got : undefined;
      });
      return attempts ? attempts[0]!.created_at === attempts[1]!.created_at : 'no retry';
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('timestamp-header-duplicated: X-Service-Timestamp is one Unix-seconds value', async () => {
    const seen = await both('timestamp-header-duplicated', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return /^\d+$/.test(String(delivery?.headers['x-service-timestamp']));
    });
    expect(seen).toEqual({ clean: true, faulted: false });
  });

  it('retry-after-header-obeyed: a 503 with Retry-After: 0 is retried on the 1-minute schedule', async () => {
    const seen = await both('retry-after-header-obeyed', async (c, prefix) => {
      const ws = await c.workspace();
      const name = `retry-after${prefix.replaceAll('/', '-')}`;
      await c.endpoint(ws.id, throttling.url(name));
      await c.fire(ws.id);
      await eventually(() => (throttling.bodies(name).length >= 1 ? true : undefined));
      await sleep(1500);
      return throttling.bodies(name).length;
    });
    expect(seen).toEqual({ clean: 1, faulted: 2 });
  });

  it('replay-acknowledged-skipped: a replay of an acknowledged delivery is sent', async () => {
    const seen = await both('replay-acknowledged-skipped', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      await sleep(200);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: endpoint.id,
      });
      await sleep(1000);
      return [replay.status, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [202, 2], faulted: [202, 1] });
  });

  it('fired-data-dates-revived: a date-time string in fired data is delivered as given', async () => {
    const seen = await both('fired-data-dates-revived', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'mailer.reply.received', { received_at: '2026-11-28T10:00:00Z', sentiment: 'positive' });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.received_at;
    });
    expect(seen).toEqual({ clean: '2026-11-28T10:00:00Z', faulted: '2026-11-28T10:00:00.000Z' });
  });

  it('fire-unknown-type-delivered: an event type outside the spec is refused, not delivered', async () => {
    const seen = await both('fire-unknown-type-delivered', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id, 'mailer.lead.bounced', {});
      await sleep(800);
      return [fired.status >= 400 && fired.status < 500, all.receiver.at(path).map((d) => d.event.type)];
    });
    expect(seen).toEqual({ clean: [true, []], faulted: [false, ['mailer.lead.bounced']] });
  });

  it('endpoint-flagged-omitted-when-false: an endpoint reads flagged false', async () => {
    const seen = await both('endpoint-flagged-omitted-when-false', async (c) => {
      const ws = await c.workspace();
      const endpoint = await c.endpoint(ws.id, all.receiver.url().url);
      const read = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${endpoint.id}`);
      return [read.status, 'flagged' in read.json ? read.json.flagged : 'absent'];
    });
    expect(seen).toEqual({ clean: [200, false], faulted: [200, 'absent'] });
  });

  it("endpoint-read-any-workspace: another workspace's endpoint is not found", async () => {
    const seen = await both('endpoint-read-any-workspace', async (c) => {
      const a = await c.workspace();
      const b = await c.workspace();
      const endpoint = await c.endpoint(a.id, all.receiver.url().url);
      const own = await c.control('GET', `/workspaces/${a.id}/webhook-endpoints/${endpoint.id}`);
      const foreign = await c.control('GET', `/workspaces/${b.id}/webhook-endpoints/${endpoint.id}`);
      return [own.status, foreign.status];
    });
    expect(seen).toEqual({ clean: [200, 404], faulted: [200, 200] });
  });

  it("progress-call-any-workspace: another workspace's call cannot be moved", async () => {
    const seen = await both('progress-call-any-workspace', async (c) => {
      const a = await c.workspace({ call_progress: 'manual' });
      const b = await c.workspace({ call_progress: 'manual' });
      const { url, path } = all.receiver.url();
      await c.endpoint(a.id, url, ['voice.call.started']);
      const { token } = await c.token(a.id);
      const placed = await c.placeCall(token, a.agents[0] ?? '');
      const moved = await c.progress(b.id, placed.json.call_id, { state: 'started' });
      await sleep(800);
      return [moved.status, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [404, 0], faulted: [204, 1] });
  });

  it('jwt-nbf-leeway-inverted: a session JWT whose nbf passed 2 s ago is accepted', async () => {
    const seen = await both('jwt-nbf-leeway-inverted', async (c) => {
      const ws = await c.workspace();
      const { issuer } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const now = Math.floor(Date.now() / 1000);
      const jwt = await all.keys.sign({ iss: issuer, aud: 'svc', sub: 'u1', nbf: now - 2, exp: now + 60 });
      const who = await c.api('GET', '/v1/whoami', jwt);
      return [who.status, who.json?.error?.code ?? null];
    });
    expect(seen).toEqual({ clean: [200, null], faulted: [401, 'invalid_token'] });
  });

  it('metadata-dotted-keys-nested: a metadata key holding a dot comes back as given', async () => {
    const seen = await both('metadata-dotted-keys-nested', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const { token } = await c.token(ws.id);
      await c.placeCall(token, ws.agents[0] ?? '', { 'crm.id': 7, lead_id: 'lead_1' });
      const delivery = await eventually(() => all.receiver.at(path)[0], 5000);
      return delivery?.event.data.metadata;
    });
    expect(seen).toEqual({
      clean: { 'crm.id': 7, lead_id: 'lead_1' },
      faulted: { crm: { id: 7 }, lead_id: 'lead_1' },
    });
  });

  it('token-revoke-hits-newest: revoking the older of two tokens revokes that one', async () => {
    const seen = await both('token-revoke-hits-newest', async (c) => {
      const ws = await c.workspace();
      const old = await c.token(ws.id, { label: 'old' });
      const fresh = await c.token(ws.id, { label: 'new' });
      const revoked = await c.control('DELETE', `/workspaces/${ws.id}/tokens/${old.id}`);
      await sleep(500);
      const [oldWho, newWho] = await Promise.all([
        c.api('GET', '/v1/whoami', old.token),
        c.api('GET', '/v1/whoami', fresh.token),
      ]);
      return [revoked.status, oldWho.status, newWho.status];
    });
    expect(seen).toEqual({ clean: [204, 401, 200], faulted: [204, 200, 401] });
  });
});
