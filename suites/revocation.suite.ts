/**
 * Revocation propagation: a revoked token fails with 401 invalid_token within one
 * minute, on every connection, and never succeeds again (Authentication > Rotation
 * without downtime, 3; Errors > Rules, 2; Limits).
 *
 * The spec bounds propagation, not its shape: between the first 401 and the last 200
 * backends may disagree. So the observation polls until no 200 has been seen for a
 * while (or the limit passes), and the checks judge the last 200, not the first 401.
 */
import {
  assert,
  certifySuite,
  check,
  describeResponse,
  errorShapeProblem,
  type CheckContext,
} from '../src/suite/index.js';
import { pollUntil, sleep } from '../src/clock/wait.js';
import { randomBytes } from 'node:crypto';
import { RESERVED_TEST_NUMBER, STATUS_ONLY } from '../src/api/service.js';
import type { HttpResponse, OwnConnection } from '../src/http/client.js';
import { findFirstId, ID_PATTERNS } from '../src/ids.js';
import { REVOCATION_LIMIT_MS } from '../src/limits.js';

const POLL_INTERVAL_MS = 200;
/** No 200 for this long after a 401 means propagation has settled. */
const SETTLED_AFTER_MS = 5_000;
/** After settling, requests spread over every endpoint and both kinds of connection: enough to meet a backend hit one time in ten. */
const CONFIRM_REQUESTS = 64;
/** How long the tokens that were not revoked are watched once the revoked one is refused. */
const OTHERS_WATCH_MS = 5_000;

interface Poll {
  atMs: number;
  connection: 'fresh' | 'kept-alive';
  /** 0 when the poll got no answer (time-out, reset). */
  status: number;
  code?: string;
  error?: string;
}

interface Observation {
  polls: Poll[];
  firstRejectionMs?: number;
  lastAcceptedMs?: number;
  token: string;
  /** An agent of the workspace and a call placed with the token before revocation, for the other endpoints. */
  agentId: string;
  callId?: string;
  problem?: string;
  /**
   * The answer that decided: the poll with the wrong answer, else the last answered poll. Both
   * checks judge this one observation, whose requests ran in whichever check started it, so each
   * hands this answer over with its failure (its own exchanges may hold none of the polls).
   */
  decisive?: HttpResponse;
}

async function observeRevocation(t: CheckContext): Promise<Observation> {
  // The kept-alive polls go over one connection of the observation's own, which accepted the token
  // before the revocation: a service that remembers a credential per connection shows it there,
  // where the shared pool may hand a poll to a connection the token never used.
  const keptAlive = t.api.ownConnection();
  try {
    return await observeOver(t, keptAlive);
  } finally {
    await keptAlive.close();
  }
}

async function observeOver(t: CheckContext, keptAlive: OwnConnection): Promise<Observation> {
  const workspace = await t.sharedWorkspace();
  const token = await workspace.createToken('certify revoke');
  // Warm every backend: an implementation that caches tokens shows its worst case.
  for (let i = 0; i < 6; i++)
    await t.api.whoami(token.token, i % 2 === 0 ? { fresh: true } : { connection: keptAlive });
  const placed = await t.api.placeCall(token.token, { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER });
  const callId = findFirstId(placed.json, ID_PATTERNS.call);
  const revokedAt = performance.now();
  await workspace.revokeToken(token);
  const observation: Observation = {
    polls: [],
    token: token.token,
    agentId: workspace.agentId,
    ...(callId ? { callId } : {}),
  };
  let round = 0;
  while (true) {
    const elapsed = performance.now() - revokedAt;
    const quietSince = observation.lastAcceptedMs ?? observation.firstRejectionMs;
    if (
      observation.firstRejectionMs !== undefined &&
      quietSince !== undefined &&
      elapsed > quietSince + SETTLED_AFTER_MS
    )
      break;
    if (elapsed > REVOCATION_LIMIT_MS + SETTLED_AFTER_MS) break;
    if (observation.problem) break; // a wrong answer already decides both checks
    // 1 to 3 fresh connections a round, so that no round-robin period of a load balancer
    // can line up with the polls and hide a backend.
    const connections: Array<Poll['connection']> = [
      'kept-alive',
      ...Array.from({ length: 1 + (round % 3) }, () => 'fresh' as const),
    ];
    round += 1;
    const answers = await Promise.all(
      connections.map(async (connection) => {
        try {
          const over = connection === 'fresh' ? { fresh: true } : { connection: keptAlive };
          const res = await t.api.whoami(token.token, { ...over, timeoutMs: 5_000, timed: true });
          return { res, connection, atMs: Math.round(performance.now() - revokedAt) };
        } catch (error) {
          // A poll without an answer says nothing about the token: record it and poll on.
          return { error: (error as Error).message, connection, atMs: Math.round(performance.now() - revokedAt) };
        }
      }),
    );
    for (const answer of answers) {
      const { connection, atMs } = answer;
      const res = 'res' in answer ? answer.res : undefined;
      if (!res) {
        observation.polls.push({ atMs, connection, status: 0, error: 'error' in answer ? answer.error : 'no answer' });
        continue;
      }
      const code = (res.json as { error?: { code?: string } } | undefined)?.error?.code;
      observation.polls.push({ atMs, connection, status: res.status, ...(code ? { code } : {}) });
      if (!observation.problem) observation.decisive = res;
      const rejected = res.status === 401 && code === 'invalid_token' && errorShapeProblem(res) === undefined;
      if (rejected) observation.firstRejectionMs ??= atMs;
      else if (res.status === 200) observation.lastAcceptedMs = atMs;
      else
        observation.problem ??= `a poll ${atMs} ms after revocation answered neither 200 nor 401 invalid_token with the error shape: ${describeResponse(res)}`;
    }
    await sleep(POLL_INTERVAL_MS);
  }
  return observation;
}

certifySuite('revocation', () => {
  let observed: Promise<Observation> | undefined;
  // Both checks judge one observation: revoking twice would double the suite's time for no new fact.
  const observation = (t: CheckContext) => (observed ??= observeRevocation(t));

  check(
    'REVOKE-PROPAGATION',
    async (t) => {
      const { polls, firstRejectionMs, lastAcceptedMs, problem, decisive } = await observation(t);
      t.measure('polls', polls);
      if (problem) t.fail(problem, decisive);
      assert(
        firstRejectionMs !== undefined,
        `the revoked token was never rejected in ${(REVOCATION_LIMIT_MS + SETTLED_AFTER_MS) / 1000} s (${polls.length} polls)`,
        decisive,
      );
      t.measure('propagation_ms', firstRejectionMs);
      t.measure('last_accepted_ms', lastAcceptedMs ?? null);
      assert(
        firstRejectionMs < REVOCATION_LIMIT_MS,
        `first 401 invalid_token after ${(firstRejectionMs / 1000).toFixed(1)} s: over the 60 s limit`,
      );
      assert(
        lastAcceptedMs === undefined || lastAcceptedMs < REVOCATION_LIMIT_MS,
        `the revoked token was still accepted ${((lastAcceptedMs ?? 0) / 1000).toFixed(1)} s after revocation: over the 60 s limit`,
        decisive,
      );
      const unanswered = polls.filter((poll) => poll.status === 0).length;
      t.measure('unanswered_polls', unanswered);
      const last =
        lastAcceptedMs === undefined
          ? 'no 200 after revocation'
          : `last 200 at ${(lastAcceptedMs / 1000).toFixed(1)} s`;
      t.detail(
        `first 401 after ${(firstRejectionMs / 1000).toFixed(1)} s; ${last}; ${polls.length} polls on fresh and kept-alive connections${unanswered > 0 ? `, ${unanswered} without an answer` : ''}`,
      );
    },
    { timeoutMs: 90_000 },
  );

  check(
    'REVOKE-STAYS-REVOKED',
    async (t) => {
      const { token, firstRejectionMs, agentId, callId, problem, decisive } = await observation(t);
      // The observation's wrong answer was to the revoked token after revocation: it decides this rule too.
      if (problem) t.fail(problem, decisive);
      assert(firstRejectionMs !== undefined, 'the revoked token was never rejected', decisive);
      const endpoints: Array<[string, (fresh: boolean) => Promise<HttpResponse>]> = [
        ['whoami', (fresh) => t.api.whoami(token, { fresh })],
        ['agents', (fresh) => t.api.listAgents(token, { fresh })],
        [
          'calls',
          (fresh) => t.api.placeCall(token, { agent_id: agentId, to: RESERVED_TEST_NUMBER }, { fresh, ...STATUS_ONLY }),
        ],
        // "Its requests" whatever their body: a service that reads the body before the credential answers these 400 or 415.
        [
          'calls with a malformed JSON body',
          (fresh) =>
            t.api.raw({
              method: 'POST',
              path: '/v1/voice/calls',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: '{"agent_id": "agt_',
              fresh,
              idempotent: true,
            }),
        ],
        [
          'calls with a text body',
          (fresh) =>
            t.api.raw({
              method: 'POST',
              path: '/v1/voice/calls',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
              body: 'certify',
              fresh,
              idempotent: true,
            }),
        ],
        ...(callId
          ? [
              ['transcript', (fresh: boolean) => t.api.transcript(token, callId, { fresh })] as [
                string,
                (fresh: boolean) => Promise<HttpResponse>,
              ],
            ]
          : []),
      ];
      const wrong: string[] = [];
      let firstWrong: HttpResponse | undefined;
      for (let i = 0; i < CONFIRM_REQUESTS; i++) {
        if (i > 0 && i % 16 === 0) await sleep(500);
        const [name, send] = endpoints[i % endpoints.length]!;
        const fresh = Math.floor(i / endpoints.length) % 2 === 0;
        const res = await send(fresh);
        const problem = refusalProblem(res);
        if (problem) wrong.push(`${name} (${fresh ? 'fresh' : 'kept-alive'}): ${problem}`);
        if (problem) firstWrong ??= res;
      }
      t.measure('confirm_requests', CONFIRM_REQUESTS);
      t.measure(
        'endpoints',
        endpoints.map(([name]) => name),
      );
      assert(
        wrong.length === 0,
        `after propagation settled, ${wrong.length} of ${CONFIRM_REQUESTS} requests were not refused with 401 invalid_token; first: ${wrong[0]}`,
        firstWrong,
      );
      t.detail(
        `${CONFIRM_REQUESTS} requests after settling over ${endpoints.map(([name]) => name).join(', ')} on fresh and kept-alive connections, all 401 invalid_token`,
      );
    },
    { timeoutMs: 90_000 },
  );

  check(
    'REVOKE-ONE-TOKEN',
    async (t) => {
      // One label for all three: the dashboard shows labels, and a revocation must name the token, not what it shows.
      const label = `certify ${t.spec.id} ${randomBytes(4).toString('hex')}`;
      const [a, b] = [await t.workspace(), await t.workspace()];
      const revoked = await a.createToken(label);
      const kept = [
        { name: "the same workspace's other token", token: await a.createToken(label) },
        { name: "another workspace's token", token: await b.createToken(label) },
      ];
      for (const { name, token } of kept) {
        const res = await t.api.whoami(token.token);
        assert(
          res.status === 200,
          `whoami with ${name} before the revocation: expected 200, got ${describeResponse(res)}`,
          res,
        );
      }
      const revokedAt = performance.now();
      await a.revokeToken(revoked);
      const refused = await pollUntil(
        () => t.api.whoami(revoked.token, { fresh: true }),
        (res) => res.status === 401,
        { timeoutMs: REVOCATION_LIMIT_MS, intervalMs: POLL_INTERVAL_MS },
      );
      assert(
        refused.ok,
        `the revoked token was not refused within ${REVOCATION_LIMIT_MS / 1000} s (REVOKE-PROPAGATION judges that), so what else the revocation reached cannot be judged`,
        refused.last,
      );
      t.measure('revoked_refused_after_ms', Math.round(performance.now() - revokedAt));
      // A revocation that reached further shows on every node once the revoked token's own has: watched a while on both kinds of connection.
      const wrong: string[] = [];
      let requests = 0;
      for (
        const watchEnd = performance.now() + OTHERS_WATCH_MS;
        performance.now() < watchEnd;
        await sleep(POLL_INTERVAL_MS)
      ) {
        for (const { name, token } of kept) {
          for (const fresh of [true, false]) {
            const res = await t.api.whoami(token.token, { fresh });
            requests += 1;
            if (res.status !== 200 && res.status !== 429)
              wrong.push(`${name} (${fresh ? 'fresh' : 'kept-alive'}): ${describeResponse(res)}`);
          }
        }
      }
      t.measure('requests_after', requests);
      assert(
        wrong.length === 0,
        `after one token was revoked, ${wrong.length} of ${requests} requests with tokens that were not revoked (same label) failed; first: ${wrong[0]}`,
      );
      t.detail(
        `the revoked token refused; its workspace's other token and another workspace's token, all labelled alike, answered 200 for ${OTHERS_WATCH_MS / 1000} s after (${requests} requests)`,
      );
    },
    { timeoutMs: 90_000 },
  );

  // A revoked token is no credential of any workspace: once its workspace is suspended too, it is
  // still an invalid token, not a credential of a disabled workspace (which would say it was one).
  check(
    'REVOKE-SUSPENDED-STILL-INVALID',
    async (t) => {
      const { workspace, token } = await t.workspaceWithToken();
      const kept = await workspace.createToken('certify kept through the suspension');
      await workspace.revokeToken(token);
      const code = (res: HttpResponse) => (res.json as { error?: { code?: string } } | undefined)?.error?.code;
      const revoked = await pollUntil(
        () => t.api.whoami(token.token),
        (res) => res.status === 401 && code(res) === 'invalid_token',
        { timeoutMs: REVOCATION_LIMIT_MS, intervalMs: POLL_INTERVAL_MS },
      );
      if (!revoked.ok)
        t.skip(
          `the revoked token answered ${describeResponse(revoked.last)} after ${REVOCATION_LIMIT_MS / 1000} s (REVOKE-PROPAGATION judges it)`,
        );
      await workspace.suspend();
      const suspended = await pollUntil(
        () => t.api.whoami(kept.token),
        (res) => code(res) === 'workspace_disabled',
        { timeoutMs: REVOCATION_LIMIT_MS, intervalMs: POLL_INTERVAL_MS },
      );
      if (!suspended.ok)
        t.skip(
          `the workspace's other token answered ${describeResponse(suspended.last)} after the suspension (WS-SUSPENDED-CODE judges it)`,
        );
      const after = await t.api.whoami(token.token);
      t.measure('revoked_after_suspension', `${after.status} ${code(after) ?? ''}`.trim());
      assert(
        after.status === 401 && code(after) === 'invalid_token',
        `a revoked token, once its workspace was suspended too, got ${describeResponse(after)}: a revoked token is answered 401 invalid_token`,
        after,
      );
      t.detail(
        'a revoked token stayed 401 invalid_token once its workspace was suspended (its other token: workspace_disabled)',
      );
    },
    { timeoutMs: 150_000 },
  );
});

/** Undefined when `res` is 401 invalid_token with the error shape, else what it was. */
function refusalProblem(res: HttpResponse): string | undefined {
  const code = (res.json as { error?: { code?: string } } | undefined)?.error?.code;
  if (res.status === 401 && code === 'invalid_token' && errorShapeProblem(res) === undefined) return undefined;
  return describeResponse(res);
}
