import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sleep, tokenLabelAnswered } from './red-team-support.js';
import { listen, stop } from './servers.js';

// Red team, round 12: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

const errorCode = (json: unknown): unknown => (json as { error?: { code?: unknown } } | null)?.error?.code;

describe('red team round 12', () => {
  it('suspended-revoked-disabled: a revoked token of a suspended workspace is not answered invalid_token', async () => {
    const seen = await both('suspended-revoked-disabled', async (c) => {
      const ws = await c.workspace();
      const { id, token } = await c.token(ws.id);
      await c.control('DELETE', `/workspaces/${ws.id}/tokens/${id}`);
      let refused = await c.api('GET', '/v1/whoami', token);
      for (let i = 0; i < 40 && refused.status !== 401; i++) {
        await sleep(100);
        refused = await c.api('GET', '/v1/whoami', token);
      }
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const suspended = await c.api('GET', '/v1/whoami', token);
      return [refused.status, suspended.status === 401, errorCode(suspended.json)];
    });
    expect(seen).toEqual({ clean: [401, true, 'invalid_token'], faulted: [401, false, 'workspace_disabled'] });
  });

  it('jwt-kid-required: a session JWT without kid is refused though the JWKS key verifies it', async () => {
    const pair = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'only', alg: 'ES256', use: 'sig' };
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    const jwksUri = `http://127.0.0.1:${await listen(server)}/jwks.json`;
    try {
      const seen = await both('jwt-kid-required', async (c) => {
        const ws = await c.workspace();
        const issuer = `https://idp.example/${ws.id}`;
        await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, {
          issuer,
          jwks_uri: jwksUri,
          audience: 'svc',
        });
        await c.control('POST', `/workspaces/${ws.id}/members`, { subject: 'u1', scopes: ['voice:read'] });
        const claims = { iss: issuer, aud: 'svc', sub: 'u1', exp: Math.floor(Date.now() / 1000) + 60 };
        const withKid = await new SignJWT(claims)
          .setProtectedHeader({ alg: 'ES256', kid: 'only' })
          .sign(pair.privateKey);
        const withoutKid = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).sign(pair.privateKey);
        const a = await c.api('GET', '/v1/whoami', withKid);
        const b = await c.api('GET', '/v1/whoami', withoutKid);
        return [a.status, b.status];
      });
      expect(seen).toEqual({ clean: [200, 200], faulted: [200, 401] });
    } finally {
      await stop(server);
    }
  });

  it('token-label-whitespace-collapsed: a label with two spaces and a tab comes back collapsed', async () => {
    const label = 'deploy  bot\tnightly';
    const seen = await both('token-label-whitespace-collapsed', (c) => tokenLabelAnswered(c, label));
    expect(seen).toEqual({ clean: [201, label], faulted: [201, 'deploy bot nightly'] });
  });

  it('endpoint-url-trailing-slash: an endpoint URL gains a trailing slash, and deliveries go there', async () => {
    const seen = await both('endpoint-url-trailing-slash', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { id } = await c.endpoint(ws.id, url);
      const read = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0] ?? all.receiver.at(`${path}/`)[0]);
      return [read.json.url === url, all.receiver.at(path).length, all.receiver.at(`${path}/`).length];
    });
    expect(seen).toEqual({ clean: [true, 1, 0], faulted: [false, 0, 1] });
  });

  it('endpoint-limit-distinct-urls: a 26th active endpoint with the same URL is accepted', async () => {
    const seen = await both('endpoint-limit-distinct-urls', async (c) => {
      const ws = await c.workspace();
      const { url } = all.receiver.url();
      const statuses: number[] = [];
      for (let i = 0; i < 26; i++) {
        const created = await c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, { url, events: ['*'] });
        statuses.push(created.status);
      }
      return [statuses.slice(0, 25).every((s) => s === 201), statuses[25] === 201 ? 201 : 'refused'];
    });
    expect(seen).toEqual({ clean: [true, 'refused'], faulted: [true, 201] });
  });

  it('retry-new-event-id: a retry carries another event id than its first attempt', async () => {
    const seen = await both('retry-new-event-id', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[1]);
      all.receiver.answer(path, 204);
      const [first, retry] = all.receiver.at(path);
      return [first?.event.id === fired.json.event_id, retry?.event.id === fired.json.event_id];
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('replay-body-newline-unsigned: a replay body carries a newline its signature does not cover', async () => {
    const seen = await both('replay-body-newline-unsigned', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { id, secret } = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: id,
      });
      await eventually(() => all.receiver.at(path)[1]);
      const verifies = all.receiver
        .at(path)
        .map((d) => createHmac('sha256', secret).update(d.body).digest('hex') === d.headers['x-service-signature']);
      return [replay.status, ...verifies];
    });
    expect(seen).toEqual({ clean: [202, true, true], faulted: [202, true, false] });
  });

  it('outcome-lowercased: a call completed with outcome Voicemail_Left is reported lower-cased', async () => {
    const seen = await both('outcome-lowercased', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '');
      await c.progress(ws.id, placed.json.call_id, {
        state: 'completed',
        outcome: 'Voicemail_Left',
        duration_seconds: 7,
      });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.outcome;
    });
    expect(seen).toEqual({ clean: 'Voicemail_Left', faulted: 'voicemail_left' });
  });

  it('metadata-nested-flattened: nested call metadata comes back with dotted keys', async () => {
    const metadata = { lead_id: 'lead_1', crm: { id: 7, stage: 'new' } };
    const seen = await both('metadata-nested-flattened', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '', metadata);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 3 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.metadata;
    });
    expect(seen).toEqual({
      clean: metadata,
      faulted: { lead_id: 'lead_1', 'crm.id': 7, 'crm.stage': 'new' },
    });
  });

  it('wildcard-missing-workspace-events: an endpoint subscribed to * gets no workspace.plan.upgraded', async () => {
    const seen = await both('wildcard-missing-workspace-events', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'workspace.plan.upgraded');
      await c.fire(ws.id, 'mailer.email.sent');
      await eventually(() => all.receiver.at(path).find((d) => d.event.type === 'mailer.email.sent'));
      await sleep(300);
      return all.receiver
        .at(path)
        .map((d) => d.event.type)
        .sort();
    });
    expect(seen).toEqual({
      clean: ['mailer.email.sent', 'workspace.plan.upgraded'],
      faulted: ['mailer.email.sent'],
    });
  });

  it('delete-workspace-retries-sent: a failing delivery is retried after its workspace was deleted', async () => {
    const seen = await both('delete-workspace-retries-sent', async (c) => {
      const ws = await c.workspace({ time_scale: 60 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      const deleted = await c.control('DELETE', `/workspaces/${ws.id}`);
      await sleep(1600);
      return [deleted.status, all.receiver.at(path).length];
    });
    expect(seen).toEqual({ clean: [204, 1], faulted: [204, 2] });
  });

  it('time-scale-max-refused: a workspace at time_scale max_time_scale is refused', async () => {
    const seen = await both('time-scale-max-refused', async (c) => {
      const capabilities = await c.control('GET', '/capabilities');
      const max = capabilities.json.max_time_scale as number;
      const below = await c.control('POST', '/workspaces', { time_scale: max - 1 });
      const at = await c.control('POST', '/workspaces', { time_scale: max });
      return [below.status, at.status >= 400 && at.status < 500 ? 'refused' : at.status];
    });
    expect(seen).toEqual({ clean: [201, 201], faulted: [201, 'refused'] });
  });
});
