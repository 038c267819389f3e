import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionSetup, eventually, sleep, redTeamRound } from './red-team-support.js';

// Red team, round 7: each fault, observed directly against the reference, breaks its rule
// under its prefix and keeps it without (so a fault the harness misses is the harness's miss).

const all = redTeamRound();
const both = all.both;

const errorCode = (json: unknown): unknown => (json as { error?: { code?: unknown } } | null)?.error?.code;

describe('red team round 7', () => {
  it('malformed-token-code: a credential of no known shape gets code malformed_token', async () => {
    const seen = await both('malformed-token-code', async (c) => {
      const answers = [];
      for (const credential of ['not-a-token', 'svc_test_abc-def']) {
        const answer = await c.api('GET', '/v1/whoami', credential);
        answers.push([answer.status, errorCode(answer.json)]);
      }
      return answers;
    });
    expect(seen).toEqual({
      clean: [
        [401, 'invalid_token'],
        [401, 'invalid_token'],
      ],
      faulted: [
        [401, 'malformed_token'],
        [401, 'malformed_token'],
      ],
    });
  });

  it('missing-scope-no-request-id: a missing_scope error lacks error.request_id', async () => {
    const seen = await both('missing-scope-no-request-id', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id, { label: 'mailer', scopes: ['mailer:read'] });
      const refused = await c.api('GET', '/v1/voice/agents', token);
      const invalid = await c.api('GET', '/v1/whoami', 'svc_test_0000000000000000000000000000000000000000');
      const id = (json: unknown) => (json as { error?: { request_id?: unknown } }).error?.request_id;
      return [
        errorCode(refused.json),
        /^req_/.test(String(id(refused.json))),
        errorCode(invalid.json),
        /^req_/.test(String(id(invalid.json))),
      ];
    });
    expect(seen).toEqual({
      clean: ['missing_scope', true, 'invalid_token', true],
      faulted: ['missing_scope', false, 'invalid_token', true],
    });
  });

  it('idp-audience-not-updated: after a second PUT the first audience stays in force', async () => {
    const seen = await both('idp-audience-not-updated', async (c) => {
      const ws = await c.workspace();
      const { issuer, jwt } = await sessionSetup(c, all.keys, ws.id, ['voice:read'], 'svc');
      const put = await c.control('PUT', `/workspaces/${ws.id}/identity-provider`, {
        issuer,
        jwks_uri: all.keys.url,
        audience: 'svc-two',
      });
      const fresh = await c.api('GET', '/v1/whoami', await jwt('svc-two'));
      const old = await c.api('GET', '/v1/whoami', await jwt('svc'));
      return [put.status, fresh.status, old.status];
    });
    expect(seen).toEqual({ clean: [204, 200, 401], faulted: [204, 401, 200] });
  });

  it('revoked-slot-held-until-propagated: a token right after a revocation is refused 409', async () => {
    const seen = await both('revoked-slot-held-until-propagated', async (c) => {
      const ws = await c.workspace();
      const old = await c.token(ws.id, { label: 'old' });
      await c.token(ws.id, { label: 'current' });
      const revoked = (await c.control('DELETE', `/workspaces/${ws.id}/tokens/${old.id}`)).status;
      const next = await c.control('POST', `/workspaces/${ws.id}/tokens`, { label: 'next' });
      return [revoked, next.status];
    });
    expect(seen).toEqual({ clean: [204, 201], faulted: [204, 409] });
  });

  it('endpoint-limit-25th-refused: the 25th active endpoint is refused', async () => {
    const seen = await both('endpoint-limit-25th-refused', async (c) => {
      const ws = await c.workspace();
      const statuses: number[] = [];
      for (let i = 1; i <= 26; i++) {
        const created = await c.control('POST', `/workspaces/${ws.id}/webhook-endpoints`, {
          url: `https://127.0.0.1:9/limit-${i}`,
          events: ['mailer.email.sent'],
        });
        statuses.push(created.status);
      }
      return [statuses.slice(0, 24).every((s) => s === 201), statuses[24], statuses[25]];
    });
    expect(seen).toEqual({ clean: [true, 201, 409], faulted: [true, 409, 409] });
  });

  it("signature-cached-per-event: an event's second endpoint gets the first endpoint's signature", async () => {
    const seen = await both('signature-cached-per-event', async (c) => {
      const ws = await c.workspace();
      const first = all.receiver.url();
      const second = all.receiver.url();
      const endpoints = [await c.endpoint(ws.id, first.url), await c.endpoint(ws.id, second.url)];
      await c.fire(ws.id);
      const deliveries = await Promise.all(
        [first.path, second.path].map((path) => eventually(() => all.receiver.at(path)[0])),
      );
      return deliveries.map((delivery, i) => {
        const expected = createHmac('sha256', endpoints[i]!.secret)
          .update(delivery?.body ?? '')
          .digest('hex');
        return delivery !== undefined && delivery.headers['x-service-signature'] === expected;
      });
    });
    expect(seen).toEqual({ clean: [true, true], faulted: [true, false] });
  });

  it('replay-once-per-endpoint: a second replay to the same endpoint is never sent', async () => {
    const seen = await both('replay-once-per-endpoint', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      const endpoint = await c.endpoint(ws.id, url);
      const fired = await c.fire(ws.id);
      await eventually(() => all.receiver.at(path)[0]);
      const replay = async (n: number) => {
        const status = (
          await c.control('POST', `/workspaces/${ws.id}/deliveries/replay`, {
            event_id: fired.json.event_id,
            endpoint_id: endpoint.id,
          })
        ).status;
        await eventually(() => all.receiver.at(path)[n], 1500);
        return status;
      };
      const statuses = [await replay(1), await replay(2)];
      return [...statuses, all.receiver.at(path).filter((d) => d.event.id === fired.json.event_id).length];
    });
    expect(seen).toEqual({ clean: [202, 202, 3], faulted: [202, 202, 2] });
  });

  it('metadata-keys-snake-cased: voice.call.completed carries metadata keys snake_cased', async () => {
    const seen = await both('metadata-keys-snake-cased', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const placed = await c.placeCall(token, ws.agents[0]!, { crmLeadId: 'L-7', lead_id: 'lead_1' });
      const delivery = await eventually(() =>
        all.receiver.at(path).find((d) => d.event.data.call_id === placed.json.call_id),
      );
      return delivery?.event.data.metadata;
    });
    expect(seen).toEqual({
      clean: { crmLeadId: 'L-7', lead_id: 'lead_1' },
      faulted: { crm_lead_id: 'L-7', lead_id: 'lead_1' },
    });
  });

  it('duration-billed-minutes: a call reported at 42 s is carried as 60 s', async () => {
    const seen = await both('duration-billed-minutes', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const durations: unknown[] = [];
      for (const seconds of [42, 120]) {
        const callId = (await c.placeCall(token, ws.agents[0]!)).json.call_id as string;
        await c.progress(ws.id, callId, { state: 'started' });
        await c.progress(ws.id, callId, { state: 'completed', outcome: 'answered', duration_seconds: seconds });
        const delivery = await eventually(() => all.receiver.at(path).find((d) => d.event.data.call_id === callId));
        durations.push(delivery?.event.data.duration_seconds);
      }
      return durations;
    });
    expect(seen).toEqual({ clean: [42, 120], faulted: [60, 120] });
  });

  it('wildcard-and-type-delivered-twice: an endpoint subscribed to * and a type gets the event twice', async () => {
    const seen = await both('wildcard-and-type-delivered-twice', async (c) => {
      const ws = await c.workspace();
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['*', 'workspace.plan.upgraded']);
      const fired = await c.fire(ws.id);
      await c.fire(ws.id, 'mailer.email.sent');
      await eventually(() => (all.receiver.at(path).length >= 2 ? true : undefined));
      await sleep(500);
      const ids = all.receiver.at(path).map((d) => d.event.id);
      return [ids.length, ids.filter((id) => id === fired.json.event_id).length];
    });
    expect(seen).toEqual({ clean: [2, 1], faulted: [3, 2] });
  });

  it('progress-repeat-reemits: completing a completed call fires a second voice.call.completed', async () => {
    const seen = await both('progress-repeat-reemits', async (c) => {
      const ws = await c.workspace({ call_progress: 'manual' });
      const { token } = await c.token(ws.id);
      const { url, path } = all.receiver.url();
      await c.endpoint(ws.id, url, ['voice.call.completed']);
      const callId = (await c.placeCall(token, ws.agents[0]!)).json.call_id as string;
      await c.progress(ws.id, callId, { state: 'started' });
      const completion = { state: 'completed', outcome: 'answered', duration_seconds: 30 };
      const first = (await c.progress(ws.id, callId, completion)).status;
      const again = (await c.progress(ws.id, callId, completion)).status;
      await eventually(() => all.receiver.at(path)[0]);
      await sleep(500);
      const ids = new Set(all.receiver.at(path).map((d) => d.event.id));
      return [first, again, ids.size];
    });
    expect(seen.clean[0]).toBe(204);
    expect(seen.clean[1]).toBeGreaterThanOrEqual(400);
    expect(seen.clean[2]).toBe(1);
    expect(seen.faulted).toEqual([204, 204, 2]);
  });

  it('suspend-toggles: suspending a suspended workspace reinstates it', async () => {
    const seen = await both('suspend-toggles', async (c) => {
      const ws = await c.workspace();
      const { token } = await c.token(ws.id);
      await c.control('POST', `/workspaces/${ws.id}/suspend`);
      const once = await c.api('GET', '/v1/whoami', token);
      const again = (await c.control('POST', `/workspaces/${ws.id}/suspend`)).status;
      const twice = await c.api('GET', '/v1/whoami', token);
      return [errorCode(once.json), again, errorCode(twice.json) ?? twice.status];
    });
    expect(seen).toEqual({
      clean: ['workspace_disabled', 204, 'workspace_disabled'],
      faulted: ['workspace_disabled', 204, 200],
    });
  });

  it("member-scopes-keyed-by-subject: adding u1 to another workspace changes u1's scopes here", async () => {
    const seen = await both('member-scopes-keyed-by-subject', async (c) => {
      const a = await c.workspace();
      const b = await c.workspace();
      const { jwt } = await sessionSetup(c, all.keys, a.id, ['voice:read']);
      const before = await c.api('GET', '/v1/voice/agents', await jwt());
      await c.control('POST', `/workspaces/${b.id}/members`, { subject: 'u1', scopes: ['mailer:read'] });
      const after = await c.api('GET', '/v1/voice/agents', await jwt());
      return [before.status, errorCode(after.json) ?? after.status];
    });
    expect(seen).toEqual({ clean: [200, 200], faulted: [200, 'missing_scope'] });
  });
});
