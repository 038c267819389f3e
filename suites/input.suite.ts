/**
 * The public operations with good and bad input (Endpoints): good input works; input that
 * cannot be a call is never accepted, and should get a 4xx; where the spec leaves parsing
 * and payload size open, what the service chose is recorded.
 */
import { RESERVED_TEST_NUMBER, STATUS_ONLY } from '../src/api/service.js';
import { HttpError } from '../src/errors.js';
import type { HttpResponse } from '../src/http/client.js';
import { findAllIds, findFirstId, ID_PATTERNS } from '../src/ids.js';
import {
  assert,
  certifySuite,
  check,
  describeResponse,
  expect2xx,
  is2xx,
  is4xx,
  type CheckContext,
} from '../src/suite/index.js';
import invalidCalls from '../fixtures/bad-input/call-bodies.json' with { type: 'json' };

function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : [];
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]));
  return typeof value;
}

/** The oversized body's answer when the server closed the connection mid-upload (a refusal too, if it serves on). */
const CLOSED_DURING_UPLOAD = 'connection closed during upload';

interface OddAnswer {
  name: string;
  /** True when the request cannot be a call placement or carries a malformed credential: it must not be accepted. */
  carriesNoCall: boolean;
  /** The HTTP status, CLOSED_DURING_UPLOAD, or why there was no answer. */
  status: number | string;
}

/**
 * Requests the spec gives no rule for beyond "bodies are JSON" (which binds the caller):
 * ones that carry no call must not be accepted; the others (lenient parsing, no stated
 * payload limit, a duplicated header) may go either way.
 */
async function sendOddRequests(t: CheckContext, agentId: string, token: string): Promise<OddAnswer[]> {
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const valid = JSON.stringify({ agent_id: agentId, to: RESERVED_TEST_NUMBER });
  const call = (headers: Record<string, string>, body: string | Buffer, timeoutMs?: number) => () =>
    t.api.raw({
      method: 'POST',
      path: '/v1/voice/calls',
      headers,
      body,
      ...STATUS_ONLY,
      ...(timeoutMs ? { timeoutMs } : {}),
    });
  const cases: Array<[name: string, carriesNoCall: boolean, send: () => Promise<HttpResponse>]> = [
    ['malformed JSON', true, call(json, '{"agent_id": "agt_')],
    ['empty body', true, call(json, '')],
    ['JSON array body', true, call(json, `[${valid}]`)],
    ['form body', true, call({ ...auth, 'content-type': 'application/x-www-form-urlencoded' }, 'agent_id=x&to=%2B1')],
    ['invalid UTF-8', true, call(json, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]))],
    [
      'non-ASCII token',
      true,
      () =>
        t.api.raw({
          path: '/v1/whoami',
          headers: { authorization: Buffer.from('Bearer svc_test_\u00e9\u00e8', 'latin1').toString('latin1') },
        }),
    ],
    ['valid JSON as text/plain', false, call({ ...auth, 'content-type': 'text/plain' }, valid)],
    [
      '2 MB valid body',
      false,
      call(
        json,
        JSON.stringify({ agent_id: agentId, to: RESERVED_TEST_NUMBER, metadata: { pad: 'x'.repeat(2_000_000) } }),
        20_000,
      ),
    ],
    [
      'two Authorization headers',
      false,
      () => t.api.raw({ path: '/v1/whoami', headers: { authorization: [`Bearer ${token}`, 'Bearer svc_test_other'] } }),
    ],
    // The spec writes one space; RFC 6750 allows several.
    [
      'two spaces after Bearer',
      false,
      () => t.api.raw({ path: '/v1/whoami', headers: { authorization: `Bearer  ${token}` } }),
    ],
  ];
  const answers: OddAnswer[] = [];
  for (const [name, carriesNoCall, send] of cases) {
    try {
      answers.push({ name, carriesNoCall, status: (await send()).status });
    } catch (error) {
      // A server may answer 413 early and close while the client still writes (EPIPE, reset).
      const closed = error instanceof HttpError && error.kind === 'network' && name.startsWith('2 MB');
      const huge = error instanceof HttpError && error.kind === 'too-large';
      answers.push({
        name,
        carriesNoCall,
        status: closed
          ? CLOSED_DURING_UPLOAD
          : huge
            ? 'answered with a body over the 1 MB cap'
            : `no answer (${(error as Error).message})`,
      });
    }
  }
  return answers;
}

/** The bad-input corpus (fixtures/bad-input/call-bodies.json): well-formed JSON that is no valid call. */
async function sendInvalidCalls(t: CheckContext, agentId: string, token: string): Promise<OddAnswer[]> {
  const answers: OddAnswer[] = [];
  for (const { name, body } of invalidCalls.cases) {
    const filled = JSON.parse(JSON.stringify(body).replaceAll('$AGENT', agentId)) as Record<string, unknown>;
    try {
      const res = await t.api.raw({
        method: 'POST',
        path: '/v1/voice/calls',
        headers: { authorization: `Bearer ${token}` },
        json: filled,
        ...STATUS_ONLY,
      });
      answers.push({ name: `call body "${name}"`, carriesNoCall: true, status: res.status });
    } catch (error) {
      answers.push({
        name: `call body "${name}"`,
        carriesNoCall: true,
        status: `no answer (${(error as Error).message})`,
      });
    }
  }
  return answers;
}

function statusByCase(answers: readonly OddAnswer[]): Record<string, number | string> {
  return Object.fromEntries(answers.map((answer) => [answer.name, answer.status]));
}

async function expectRefused(t: CheckContext, what: string, send: () => Promise<HttpResponse>): Promise<number> {
  let res: HttpResponse;
  try {
    res = await send();
  } catch (error) {
    t.fail(`${what}: no answer (${(error as Error).message}); expected a 4xx`);
  }
  assert(is4xx(res.status), `${what}: expected a 4xx, got ${describeResponse(res)}`, res);
  return res.status;
}

/** 15 digits after the +, the longest an E.164 number may be: Vienna (+43 1), an extension of a fictional line. */
const LONGEST_NUMBER = '+431555012345678';

certifySuite('input', () => {
  check('INPUT-CALL-AGENTS-LIST', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const res = await t.api.listAgents(token.token);
    expect2xx(res, 'listing agents');
    const agents = findAllIds(res.json, ID_PATTERNS.agent);
    assert(agents.length > 0, `the agent list holds no agt_ id: ${describeResponse(res)}`, res);
    assert(
      workspace.agentIds.every((agent) => agents.includes(agent)),
      `the agent list lacks the workspace's agents ${workspace.agentIds.join(', ')}`,
    );
  });

  check('INPUT-CALL-PLACED', async (t) => {
    // Manual progress: the calls stay queued, so placing one per agent causes nothing more.
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'manual' });
    // Every agent id the workspace was handed out with is one a client will place calls with, not only the first.
    const callIds: string[] = [];
    for (const agentId of workspace.agentIds) {
      const res = await t.api.placeCall(token.token, {
        agent_id: agentId,
        to: RESERVED_TEST_NUMBER,
        metadata: { lead_id: 'lead_certify1' },
      });
      expect2xx(
        res,
        `placing a call with agent ${agentId} (of ${workspace.agentIds.length} the workspace was created with)`,
      );
      const callId = findFirstId(res.json, ID_PATTERNS.call);
      assert(callId, `call creation answered no call_ id: ${describeResponse(res)}`, res);
      callIds.push(callId);
      t.measure('status', res.status);
    }
    assert(
      new Set(callIds).size === callIds.length,
      `${callIds.length} calls placed one after another were given ${new Set(callIds).size} distinct call ids`,
    );
    t.detail(`a call placed with each of the workspace's ${workspace.agentIds.length} agents`);
  });

  // "International format" is E.164, whose numbers run to 15 digits: a validator one digit short
  // refuses real destinations (long Austrian and German extensions).
  check('INPUT-CALL-LONGEST-NUMBER', async (t) => {
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'manual' });
    const res = await t.api.placeCall(token.token, { agent_id: workspace.agentId, to: LONGEST_NUMBER });
    t.measure('status', res.status);
    assert(
      is2xx(res.status),
      `placing a call to ${LONGEST_NUMBER} (15 digits, the most E.164's international format allows) got ${describeResponse(res)}; ${RESERVED_TEST_NUMBER} is placed (INPUT-CALL-PLACED)`,
      res,
    );
    t.detail(`a call to a 15-digit number in international format placed (${res.status})`);
  });

  // Validation errors are "not shown": any refusal holds the rule; INPUT-MALFORMED-4XX asks for a 4xx.
  check('INPUT-CALL-INVALID', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const answers = await sendInvalidCalls(t, workspace.agentId, token.token);
    const accepted = answers.filter((answer) => typeof answer.status === 'number' && is2xx(answer.status));
    assert(
      accepted.length === 0,
      `accepted invalid call bodies: ${accepted.map((a) => `${a.name} -> ${a.status}`).join('; ')}`,
    );
    const unanswered = answers.filter((answer) => typeof answer.status !== 'number');
    assert(unanswered.length === 0, `no answer to ${unanswered.map((a) => `${a.name} (${a.status})`).join('; ')}`);
    t.measure('status_by_case', statusByCase(answers));
    t.detail(`${answers.length} invalid bodies refused`);
  });

  // Ids are opaque strings handed out by the service: one that differs by a character, a case or
  // white space names no agent, whatever normalising a lookup might do.
  check('CALL-AGENT-NEAR-MISS', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const real = workspace.agentId;
    // The agt_ prefix kept: a service may check the id's shape first, and the lookup behind it is what is tried.
    const prefix = real.startsWith('agt_') ? 'agt_' : '';
    const swapped =
      prefix +
      [...real.slice(prefix.length)]
        .map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()))
        .join('');
    const last = real.at(-1)!;
    const nearMisses: ReadonlyArray<readonly [string, string]> = [
      ['every letter after agt_ in the other case', swapped],
      ['white space around it', ` ${real} `],
      ['one character more', `${real}0`],
      ['one character less', real.slice(0, -1)],
      ['the last character changed', `${real.slice(0, -1)}${last === 'a' ? 'b' : 'a'}`],
    ];
    const placed: string[] = [];
    const statuses: Record<string, number | string> = {};
    for (const [what, agentId] of nearMisses) {
      if (agentId === real) continue;
      const res = await t.api.placeCall(token.token, { agent_id: agentId, to: RESERVED_TEST_NUMBER });
      statuses[what] = res.status;
      if (is2xx(res.status)) placed.push(`${what}: ${describeResponse(res)}`);
    }
    t.measure('status_by_near_miss', statuses);
    assert(placed.length === 0, `an agent_id one step from the workspace's agent placed a call: ${placed.join('; ')}`);
    t.detail(
      `${Object.keys(statuses).length} near misses of the workspace's agent id placed no call (${Object.values(statuses).join(', ')})`,
    );
  });

  check('INPUT-MALFORMED-REQUEST', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const answers = await sendOddRequests(t, workspace.agentId, token.token);
    const accepted = answers.filter(
      (answer) => answer.carriesNoCall && typeof answer.status === 'number' && is2xx(answer.status),
    );
    assert(
      accepted.length === 0,
      `accepted what carries no call or a malformed credential: ${accepted.map((a) => `${a.name} -> ${a.status}`).join('; ')}`,
    );
    const unanswered = answers.filter((answer) => answer.carriesNoCall && typeof answer.status !== 'number');
    assert(unanswered.length === 0, `no answer to ${unanswered.map((a) => `${a.name} (${a.status})`).join('; ')}`);
    const alive = await t.api.whoami(token.token, { fresh: true });
    assert(
      alive.status === 200,
      `after the odd requests the service answered whoami ${describeResponse(alive)}: expected it still serving`,
      alive,
    );
    t.measure('status_by_case', statusByCase(answers));
    t.detail(
      `${answers.filter((a) => a.carriesNoCall).length} requests that carry no call refused; still serving after all ${answers.length}`,
    );
  });

  check('INPUT-MALFORMED-4XX', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const answers = [
      ...(await sendOddRequests(t, workspace.agentId, token.token)),
      ...(await sendInvalidCalls(t, workspace.agentId, token.token)),
    ];
    const not4xx = answers.filter(
      (answer) =>
        answer.carriesNoCall &&
        !(typeof answer.status === 'number' && is4xx(answer.status)) &&
        answer.status !== CLOSED_DURING_UPLOAD,
    );
    const errors = answers.filter((answer) => typeof answer.status === 'number' && answer.status >= 500);
    assert(
      not4xx.length === 0,
      `refused otherwise than with a 4xx: ${not4xx.map((a) => `${a.name} -> ${a.status}`).join('; ')}`,
    );
    assert(
      errors.length === 0,
      `a server error for a client's request: ${errors.map((a) => `${a.name} -> ${a.status}`).join('; ')}`,
    );
    t.measure('status_by_case', statusByCase(answers));
    t.detail(`every malformed request refused with a 4xx; no 5xx among ${answers.length} odd requests`);
  });

  // The spec binds the caller to application/json and states no payload limit: a lenient
  // server, or one that takes 2 MB, breaks no rule. What it did is recorded.
  check('INPUT-LENIENT-PARSING', async (t) => {
    const { workspace, token } = await t.workspaceWithToken();
    const answers = (await sendOddRequests(t, workspace.agentId, token.token)).filter(
      (answer) => !answer.carriesNoCall,
    );
    const seen = answers.map(
      (a) =>
        `${a.name}: ${typeof a.status === 'number' ? (is2xx(a.status) ? `accepted (${a.status})` : `refused (${a.status})`) : a.status}`,
    );
    t.measure('status_by_case', statusByCase(answers));
    t.detail(seen.join('; '));
  });

  check('INPUT-UNKNOWN-PATH', async (t) => {
    const { token } = await t.workspaceWithToken();
    for (const path of [
      '/v1/no-such-thing',
      '/v1/voice/agents/extra/segments',
      '/v1/voice/calls/call_nope/transcript/more',
    ]) {
      await expectRefused(t, `GET ${path}`, () =>
        t.api.raw({ path, headers: { authorization: `Bearer ${token.token}` } }),
      );
    }
  });

  check('INPUT-ERROR-SHAPE', async (t) => {
    const { token } = await t.workspaceWithToken();
    const res = await t.api.raw({
      method: 'POST',
      path: '/v1/voice/calls',
      headers: { authorization: `Bearer ${token.token}` },
      json: { agent_id: 'agt_doesnotexist', to: 'not-a-number' },
      ...STATUS_ONLY,
    });
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
