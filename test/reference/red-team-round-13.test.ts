import { describe, expect, it } from 'vitest';
import { eventually, redTeamRound, sessionSetup, sleep, tokenLabelAnswered } from './red-team-support.js';

// Red team, round 13: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

const errorCode = (json: unknown): unknown => (json as { error?: { code?: unknown } } | null)?.error?.code;

describe('red team round 13', () => {
  it('token-label-emoji-dropped: a label holding an emoji comes back without it', async () => {
    const label = 'deploy \u{1F680} bot';
    const seen = await both('token-label-emoji-dropped', (c) => tokenLabelAnswered(c, label));
    expect(seen).toEqual({ clean: [201, label], faulted: [201, 'deploy  bot'] });
  });

  it("member-last-scope-dropped: a member's session token lacks the last of its scopes", async () => {
    const seen = await both('member-last-scope-dropped', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read', 'voice:write']);
      const token = await jwt();
      const agents = await c.api('GET', '/v1/voice/agents', token);
      const placed = await c.placeCall(token, ws.agents[0] ?? '');
      return [agents.status, placed.status < 300 ? 'placed' : errorCode(placed.json)];
    });
    expect(seen).toEqual({ clean: [200, 'placed'], faulted: [200, 'missing_scope'] });
  });

  it('revoked-code-uppercase: a revoked token is answered with code INVALID_TOKEN', async () => {
    const seen = await both('revoked-code-uppercase', async (c) => {
      const ws = await c.workspace();
      const { id, token } = await c.token(ws.id);
      const unknown = await c.api('GET', '/v1/whoami', 'svc_test_0000000000000000000000000000000000000000');
      await c.control('DELETE', `/workspaces/${ws.id}/tokens/${id}`);
      let refused = await c.api('GET', '/v1/whoami', token);
      for (let i = 0; i < 40 && refused.status !== 401; i++) {
        await sleep(100);
        refused = await c.api('GET', '/v1/whoami', token);
      }
      return [errorCode(unknown.json), refused.status, errorCode(refused.json)];
    });
    expect(seen).toEqual({
      clean: ['invalid_token', 401, 'invalid_token'],
      faulted: ['invalid_token', 401, 'INVALID_TOKEN'],
    });
  });

  it('suspended-scope-checked-first: a suspended workspace lacking the scope is answered missing_scope', async () => {
    const seen = await both('suspended-scope-checked-first', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id, { label: 'read-only', scopes: ['voice:read'] });
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const agents = await c.api('GET', '/v1/voice/agents', token);
      const placed = await c.placeCall(token, ws.agents[0] ?? '');
      return [errorCode(agents.json), errorCode(placed.json)];
    });
    expect(seen).toEqual({
      clean: ['workspace_disabled', 'workspace_disabled'],
      faulted: ['workspace_disabled', 'missing_scope'],
    });
  });

  it('envelope-workspace-id-unprefixed: workspace_id lacks its ws_ prefix', async () => {
    const seen = await both('envelope-workspace-id-unprefixed', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      const id = (delivery?.event as { workspace_id?: string } | undefined)?.workspace_id;
      return [id === ws.id, id === ws.id.slice(3)];
    });
    expect(seen).toEqual({ clean: [true, false], faulted: [false, true] });
  });

  it('fired-data-depth-capped: data nested three levels deep comes back as "[Object]"', async () => {
    const data = { account: { plan: { limits: { calls: 100 } } }, tier: 'pro' };
    const seen = await both('fired-data-depth-capped', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url);
      await c.fire(ws.id, 'workspace.plan.upgraded', data);
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data;
    });
    expect(seen).toEqual({
      clean: data,
      faulted: { account: { plan: { limits: '[Object]' } }, tier: 'pro' },
    });
  });

  it('metadata-lead-id-only: call metadata keeps its lead_id entry only', async () => {
    const metadata = { lead_id: 'lead_1', campaign: 'spring', attempt: 2 };
    const seen = await both('metadata-lead-id-only', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0] ?? '', metadata);
      await c.progress(ws.id, placed.json.call_id, { state: 'completed', outcome: 'answered', duration_seconds: 3 });
      const delivery = await eventually(() => all.receiver.at(path)[0]);
      return delivery?.event.data.metadata;
    });
    expect(seen).toEqual({ clean: metadata, faulted: { lead_id: 'lead_1' } });
  });

  it('endpoint-url-percent-decoded: a %2F in the URL path is decoded, and deliveries go to the decoded path', async () => {
    const seen = await both('endpoint-url-percent-decoded', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { id } = await c.endpoint(ws.id, `${url}%2Fa`);
      const read = await c.control('GET', `/workspaces/${ws.id}/webhook-endpoints/${id}`);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(`${path}%2Fa`)[0] ?? all.receiver.at(`${path}/a`)[0]);
      return [
        read.json.url === `${url}%2Fa`,
        all.receiver.at(`${path}%2Fa`).length,
        all.receiver.at(`${path}/a`).length,
      ];
    });
    expect(seen).toEqual({ clean: [true, 1, 0], faulted: [false, 0, 1] });
  });

  it('retry-content-type-dropped: a retry comes without Content-Type application/json', async () => {
    const seen = await both('retry-content-type-dropped', async (c) => {
      const ws = await c.workspace({ time_scale: 3600 });
      const { url, path } = all.receiver.url(500);
      await c.endpoint(ws.id, url);
      await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[1]);
      all.receiver.answer(path, 204);
      return all.receiver
        .at(path)
        .slice(0, 2)
        .map((d) => d.headers['content-type'] ?? 'none');
    });
    expect(seen).toEqual({ clean: ['application/json', 'application/json'], faulted: ['application/json', 'none'] });
  });

  it("replay-workspace-id-missing: a replay's envelope lacks workspace_id", async () => {
    const seen = await both('replay-workspace-id-missing', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const { id } = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      const replay = await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
        event_id: fired.json.event_id,
        endpoint_id: id,
      });
      await eventually(() => all.receiver.at(path)[1]);
      const ids = all.receiver.at(path).map((d) => (d.event as { workspace_id?: string }).workspace_id ?? 'none');
      return [replay.status, ...ids.map((w) => w === ws.id)];
    });
    expect(seen).toEqual({ clean: [202, true, true], faulted: [202, true, false] });
  });

  it('default-scopes-missing-webhooks: a token created without scopes lacks webhooks:write', async () => {
    const seen = await both('default-scopes-missing-webhooks', async (c) => {
      const ws = await c.workspace();
      const created = await c.token(ws.id, { label: 'default' });
      return [...created.scopes].sort();
    });
    const licensed = ['mailer:read', 'mailer:write', 'voice:read', 'voice:write', 'webhooks:write'];
    expect(seen).toEqual({ clean: licensed, faulted: licensed.slice(0, 4) });
  });

  it('jwt-aud-case-insensitive: a session JWT for SVC is accepted where the audience is svc', async () => {
    const seen = await both('jwt-aud-case-insensitive', async (c) => {
      const ws = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read']);
      const right = await c.api('GET', '/v1/whoami', await jwt());
      const upper = await c.api('GET', '/v1/whoami', await jwt('SVC'));
      const other = await c.api('GET', '/v1/whoami', await jwt('other'));
      return [right.status, upper.status, other.status];
    });
    expect(seen).toEqual({ clean: [200, 401, 401], faulted: [200, 200, 401] });
  });
});
