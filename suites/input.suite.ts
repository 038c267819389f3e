/**
 * The public operations with good and bad input: good input works, bad input of every
 * kind gets a 4xx, never a 2xx, a 5xx or a dropped connection (Endpoints).
 */
import { RESERVED_TEST_NUMBER } from '../src/api/service.js';
import { HttpError } from '../src/errors.js';
import type { HttpResponse } from '../src/http/client.js';
import { findAllIds, findFirstId, ID_PATTERNS } from '../src/ids.js';
import { assert, certifySuite, check, describeResponse, expect2xx, is4xx, type CheckContext } from '../src/suite/index.js';
import invalidCalls from '../fixtures/bad-input/call-bodies.json' with { type: 'json' };

function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : [];
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]));
  return typeof value;
}

async function expectRefused(t: CheckContext, what: string, send: () => Promise<HttpResponse>): Promise<number> {
  let res: HttpResponse;
  try {
    res = await send();
  } catch (error) {
    t.fail(`${what}: no answer (${(error as Error).message}); expected a 4xx`);
  }
  assert(is4xx(res.status), `${what}: expected a 4xx, got ${describeResponse(res)}`);
  return res.status;
}

/**
 * A server may answer 413 before the body is fully sent and close the connection; the
 * client, still writing, can then lose that answer (EPIPE, reset), notably through port
 * forwarding. That is a refusal too, provided the server is still serving afterwards:
 * a crash would take the next request down with it.
 */
async function expectOversizedRefused(t: CheckContext, what: string, send: () => Promise<HttpResponse>, alive: () => Promise<HttpResponse>): Promise<number | string> {
  let res: HttpResponse;
  try {
    res = await send();
  } catch (error) {
    if (!(error instanceof HttpError) || error.kind !== 'network') t.fail(`${what}: no answer (${(error as Error).message}); expected a 4xx`);
    const after = await alive();
    assert(after.status === 200, `${what}: the connection dropped (${error.message}) and the service then answered ${describeResponse(after)}: expected it still serving`);
    return 'connection closed during upload';
  }
  assert(is4xx(res.status), `${what}: expected a 4xx, got ${describeResponse(res)}`);
  return res.status;
}

certifySuite('input', () => {
  check('INPUT-CALL-AGENTS-LIST', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const res = await t.api.listAgents(token.token);
    expect2xx(res, 'listing agents');
    const agents = findAllIds(res.json, ID_PATTERNS.agent);
    assert(agents.length > 0, `the agent list holds no agt_ id: ${describeResponse(res)}`);
    assert(workspace.agentIds.every((agent) => agents.includes(agent)), `the agent list lacks the workspace's agents ${workspace.agentIds.join(', ')}`);
  });

  check('INPUT-CALL-PLACED', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const res = await t.api.placeCall(token.token, { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER, metadata: { lead_id: 'lead_certify1' } });
    expect2xx(res, 'placing a call');
    const callId = findFirstId(res.json, ID_PATTERNS.call);
    assert(callId, `call creation answered no call_ id: ${describeResponse(res)}`);
    t.measure('status', res.status);
  });

  check('INPUT-CALL-INVALID', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const statuses: Record<string, number> = {};
    for (const { name, body } of invalidCalls.cases) {
      const filled = JSON.parse(JSON.stringify(body).replaceAll('$AGENT', workspace.agentId)) as Record<string, unknown>;
      statuses[name] = await expectRefused(t, `call body "${name}"`, () =>
        t.api.raw({ method: 'POST', path: '/v1/voice/calls', headers: { authorization: `Bearer ${token.token}` }, json: filled }),
      );
    }
    t.measure('status_by_case', statuses);
    t.detail(`${invalidCalls.cases.length} invalid bodies refused`);
  });

  check('INPUT-MALFORMED-REQUEST', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const auth = { authorization: `Bearer ${token.token}` };
    const valid = JSON.stringify({ agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER });
    const cases: Array<[string, () => Promise<HttpResponse>]> = [
      ['malformed JSON', () => t.api.raw({ method: 'POST', path: '/v1/voice/calls', headers: { ...auth, 'content-type': 'application/json' }, body: '{"agent_id": "agt_' })],
      ['empty body', () => t.api.raw({ method: 'POST', path: '/v1/voice/calls', headers: { ...auth, 'content-type': 'application/json' }, body: '' })],
      ['JSON array body', () => t.api.raw({ method: 'POST', path: '/v1/voice/calls', headers: { ...auth, 'content-type': 'application/json' }, body: `[${valid}]` })],
      ['text/plain content type', () => t.api.raw({ method: 'POST', path: '/v1/voice/calls', headers: { ...auth, 'content-type': 'text/plain' }, body: valid })],
      ['form content type', () => t.api.raw({ method: 'POST', path: '/v1/voice/calls', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, body: 'agent_id=x&to=%2B1' })],
      ['2 MB body', () => t.api.raw({ method: 'POST', path: '/v1/voice/calls', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER, metadata: { pad: 'x'.repeat(2_000_000) } }), timeoutMs: 20_000 })],
      ['invalid UTF-8', () => t.api.raw({ method: 'POST', path: '/v1/voice/calls', headers: { ...auth, 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) })],
      ['two Authorization headers', () => t.api.raw({ path: '/v1/whoami', headers: { authorization: [`Bearer ${token.token}`, 'Bearer svc_test_other'] } })],
      ['non-ASCII token', () => t.api.raw({ path: '/v1/whoami', headers: { authorization: Buffer.from('Bearer svc_test_\u00e9\u00e8', 'latin1').toString('latin1') } })],
    ];
    const statuses: Record<string, number | string> = {};
    for (const [name, send] of cases) {
      if (name === '2 MB body') statuses[name] = await expectOversizedRefused(t, name, send, () => t.api.whoami(token.token, { fresh: true }));
      else statuses[name] = await expectRefused(t, name, send);
    }
    t.measure('status_by_case', statuses);
    t.detail(`${cases.length} malformed requests refused with a 4xx${typeof statuses['2 MB body'] === 'string' ? ' (the 2 MB body by closing the connection mid-upload)' : ''}`);
  });

  check('INPUT-UNKNOWN-PATH', async (t) => {
    const { token } = await t.workspaceWithToken();
    for (const path of ['/v1/no-such-thing', '/v1/voice/agents/extra/segments', '/v1/voice/calls/call_nope/transcript/more']) {
      await expectRefused(t, `GET ${path}`, () => t.api.raw({ path, headers: { authorization: `Bearer ${token.token}` } }));
    }
  });

  check('INPUT-ERROR-SHAPE', async (t) => {
    const { token } = await t.workspaceWithToken();
    const res = await t.api.raw({ method: 'POST', path: '/v1/voice/calls', headers: { authorization: `Bearer ${token.token}` }, json: { agent_id: 'agt_doesnotexist', to: 'not-a-number' } });
    t.measure('status', res.status);
    t.measure('body_shape', shapeOf(res.json ?? res.text.slice(0, 100)));
    t.detail(`invalid call body answered ${res.status} with ${res.json === undefined ? 'a non-JSON body' : 'JSON'}`);
  });

  check('INPUT-RESPONSE-SHAPES', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const agents = await t.api.listAgents(token.token);
    const call = await t.api.placeCall(token.token, { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER });
    t.measure('agents', { status: agents.status, shape: shapeOf(agents.json) });
    t.measure('call', { status: call.status, shape: shapeOf(call.json) });
    t.detail(`agents ${agents.status}, call creation ${call.status}`);
  });
});
