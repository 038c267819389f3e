/**
 * Tenant isolation: a credential is valid for one workspace only, so nothing of another
 * workspace is visible or usable through it (What the service does, 2; Bearer tokens, 1).
 */
import { RESERVED_TEST_NUMBER, STATUS_ONLY } from '../src/api/service.js';
import { findAllIds, findFirstId, ID_PATTERNS } from '../src/ids.js';
import {
  assert,
  certifySuite,
  check,
  describeResponse,
  doneOrRefused,
  is2xx,
  is4xx,
  type CheckContext,
} from '../src/suite/index.js';
import { pollUntil } from '../src/clock/wait.js';
import {
  DELIVERY_TIMEOUT_MS,
  TRANSCRIPT_READY_MS,
  callIdOf,
  firedData,
  idOf,
  settle,
} from '../src/suite/webhook-observation/events.js';
import { ControlError } from '../src/errors.js';
import { sleep } from '../src/clock/wait.js';
import type { HookedEndpoint } from '../src/suite/webhooks.js';
import { verifiesWith } from '../src/suite/webhook-observation/signature.js';
import type { TestWorkspace } from '../src/suite/workspace.js';

const REPLAY_TYPE = 'mailer.reply.received';
/** After a cross-workspace replay was asked for, how long its delivery is watched for. */
const CROSS_REPLAY_WATCH_MS = 2_000;
/** After another workspace's dashboard named a token, how long the token is watched (past the propagation a revocation takes). */
const FOREIGN_WATCH_MS = 5_000;

async function twoTenants(t: CheckContext) {
  const a = await t.workspaceWithToken();
  const b = await t.workspaceWithToken();
  return { a, b };
}

/** Places a call with the tenant's token (workspace `name`) and answers its call id; fails the check otherwise. */
async function placedCall(t: CheckContext, tenant: Awaited<ReturnType<typeof twoTenants>>['a'], name: string) {
  const placed = await t.api.placeCall(tenant.token.token, {
    agent_id: tenant.workspace.agentId,
    to: RESERVED_TEST_NUMBER,
  });
  assert(
    is2xx(placed.status),
    `placing a call in workspace ${name}: expected a 2xx, got ${describeResponse(placed)}`,
    placed,
  );
  const callId = findFirstId(placed.json, ID_PATTERNS.call);
  assert(callId, `call creation answered no call_ id: ${describeResponse(placed)}`, placed);
  return callId;
}

/** TENANT-CONTROL-IDS: the answer recorded for workspace B's deletion. */
const B_DELETED = "workspace B, with an endpoint at the URL of A's, deleted";

certifySuite('isolation', () => {
  check('TENANT-TRANSCRIPT', async (t) => {
    const { a, b } = await twoTenants(t);
    const callId = await placedCall(t, b, 'B');
    // B must read it first, so that A's refusal is about tenancy, not timing or a transcript that never exists.
    const { last: own } = await pollUntil(
      () => t.api.transcript(b.token.token, callId),
      (res) => is2xx(res.status),
      { timeoutMs: TRANSCRIPT_READY_MS, intervalMs: 250 },
    );
    assert(
      is2xx(own.status),
      `workspace B reading its own call's transcript: expected a 2xx within ${TRANSCRIPT_READY_MS / 1000} s, got ${describeResponse(own)}`,
      own,
    );
    const foreign = await t.api.transcript(a.token.token, callId);
    t.measure('foreign_transcript_status', foreign.status);
    // A redirect is no refusal: it may lead to the transcript (a signed URL, another host).
    assert(
      is4xx(foreign.status),
      `workspace A reading workspace B's transcript: expected a 4xx refusal, got ${describeResponse(foreign)}`,
      foreign,
    );
    t.detail(`own transcript ${own.status}; other workspace's ${foreign.status}`);
  });

  check('TENANT-REPLAY', async (t) => {
    const [a, b] = [await t.workspace(), await t.workspace()];
    const [hookA, hookB] = [await t.hookEndpoint(a, [REPLAY_TYPE]), await t.hookEndpoint(b, [REPLAY_TYPE])];
    // Each workspace's endpoint first gets its own event, so that silence later is about tenancy.
    const delivered = async (workspace: TestWorkspace, hook: HookedEndpoint, name: string) => {
      const eventId = await workspace.fireEvent(REPLAY_TYPE, firedData(REPLAY_TYPE));
      const got = await settle(
        hook.inbox,
        (ds) => ds.some((d) => idOf(d) === eventId),
        DELIVERY_TIMEOUT_MS,
        `${eventId} at workspace ${name}'s endpoint`,
      );
      assert(
        !got.timedOut,
        `workspace ${name}'s endpoint did not receive its own event ${eventId} within ${DELIVERY_TIMEOUT_MS} ms, so no replay can be judged`,
      );
      return eventId;
    };
    const [eventA, eventB] = [await delivered(a, hookA, 'A'), await delivered(b, hookB, 'B')];
    const attempts = [
      {
        what: "A's replay of B's event to A's endpoint",
        send: () => a.replay(eventB, hookA.registered.endpointId),
        leak: () => hookA.inbox.deliveries.filter((d) => idOf(d) === eventB).length,
      },
      {
        what: "A's replay of A's event to B's endpoint",
        send: () => a.replay(eventA, hookB.registered.endpointId),
        leak: () => hookB.inbox.deliveries.filter((d) => idOf(d) === eventA).length,
      },
    ];
    const answers: Record<string, string> = {};
    for (const { what, send } of attempts) {
      try {
        await send();
        answers[what] = 'accepted';
      } catch (error) {
        if (!(error instanceof ControlError) || !error.refused) throw error;
        answers[what] = `refused ${error.status}`;
      }
    }
    await sleep(CROSS_REPLAY_WATCH_MS);
    t.measure('answers', answers);
    const leaked = attempts.filter(({ leak }) => leak() > 0).map(({ what }) => what);
    assert(
      leaked.length === 0,
      `a replay crossed workspaces: ${leaked.join('; ')} was delivered (answered ${leaked.map((what) => answers[what]).join(', ')})`,
    );
    t.detail(
      Object.entries(answers)
        .map(([what, answer]) => `${what}: ${answer}, nothing sent`)
        .join('; '),
    );
  });

  // Two tenants may hand the service one URL (a shared gateway, a SaaS receiver routing on the
  // envelope's workspace_id): each workspace's events are signed with its own endpoint's secret.
  check('TENANT-SAME-URL-OWN-SECRET', async (t) => {
    const [a, b] = [await t.workspace(), await t.workspace()];
    const hookA = await t.hookEndpoint(a, [REPLAY_TYPE]);
    const url = hookA.registered.url ?? hookA.inbox.url;
    let endpointB: Awaited<ReturnType<typeof b.createEndpoint>>;
    try {
      endpointB = await b.createEndpoint(url, [REPLAY_TYPE]);
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      t.measure('same_url_other_workspace', `refused ${error.status}`);
      return t.detail(
        `another workspace's endpoint at the same URL was refused with ${error.status}: nothing to sign apart`,
      );
    }
    t.measure('same_url_other_workspace', 'created');
    const secrets = { A: hookA.registered.secret, B: endpointB.secret };
    const fired = {
      A: await a.fireEvent(REPLAY_TYPE, firedData(REPLAY_TYPE)),
      B: await b.fireEvent(REPLAY_TYPE, firedData(REPLAY_TYPE)),
    };
    const got = await settle(
      hookA.inbox,
      (ds) => Object.values(fired).every((eventId) => ds.some((d) => idOf(d) === eventId)),
      DELIVERY_TIMEOUT_MS,
      `${fired.A} and ${fired.B} at the shared URL`,
    );
    const arrivals = (name: 'A' | 'B') => hookA.inbox.deliveries.filter((d) => idOf(d) === fired[name]);
    assert(
      !got.timedOut,
      `one URL registered by workspaces A and B: within ${DELIVERY_TIMEOUT_MS} ms A's ${fired.A} arrived ${arrivals('A').length} time(s), B's ${fired.B} ${arrivals('B').length} time(s); each workspace's event goes to its endpoint`,
    );
    // Compared here, never printed.
    const missigned = (['A', 'B'] as const).filter(
      (name) => !arrivals(name).every((d) => verifiesWith(secrets[name], d)),
    );
    t.measure('missigned', missigned);
    assert(
      missigned.length === 0,
      `one URL registered by workspaces A and B: ${missigned.map((name) => `${name}'s event ${fired[name]} was not signed with ${name}'s endpoint secret${arrivals(name).some((d) => verifiesWith(secrets[name === 'A' ? 'B' : 'A'], d)) ? ` (it verifies with the other workspace's)` : ''}`).join('; ')}: each endpoint has its own signing secret`,
    );
    t.detail(
      `one URL registered by two workspaces: each workspace's event arrived signed with its own endpoint's secret`,
    );
  });

  check('TENANT-CONTROL-IDS', async (t) => {
    const { a, b } = await twoTenants(t);
    const hook = await t.hookEndpoint(a.workspace, [REPLAY_TYPE]);
    // B's dashboard names A's token and A's endpoint: what it does must stay in B.
    const answers: Record<string, string> = {};
    const attempt = async (what: string, send: () => Promise<void>) => {
      try {
        await send();
        answers[what] = 'accepted';
      } catch (error) {
        if (!(error instanceof ControlError) || !error.refused) throw error;
        answers[what] = `refused ${error.status}`;
      }
    };
    await attempt("revoking A's token under B's path", () => t.control.revokeToken(b.workspace.id, a.token.tokenId));
    await attempt("deleting A's endpoint under B's path", () =>
      t.control.deleteEndpoint(b.workspace.id, hook.registered.endpointId),
    );
    // B's integrator serves both workspaces at one receiver URL, and B is deleted: A's endpoint at
    // that URL is A's (round 23 deleted a workspace's endpoints by URL, in every workspace).
    await t.control.createEndpoint(b.workspace.id, hook.inbox.url, [REPLAY_TYPE]);
    const deletedB = await t.control.deleteWorkspace(b.workspace.id);
    answers[B_DELETED] = deletedB === false ? 'not supported' : 'deleted';
    t.measure('answers', answers);
    // A revocation that reached A's token shows within the propagation a real one takes here; watched on fresh connections (every node).
    const wrong: string[] = [];
    for (const watchEnd = performance.now() + FOREIGN_WATCH_MS; performance.now() < watchEnd; await sleep(250)) {
      const res = await t.api.whoami(a.token.token, { fresh: true });
      if (res.status !== 200 && res.status !== 429) wrong.push(describeResponse(res));
    }
    assert(
      wrong.length === 0,
      `A's token was refused after B's dashboard revoked it by id (${answers["revoking A's token under B's path"]}): ${wrong[0]}`,
    );
    const eventId = await a.workspace.fireEvent(REPLAY_TYPE, firedData(REPLAY_TYPE));
    const got = await settle(
      hook.inbox,
      (ds) => ds.some((d) => idOf(d) === eventId),
      DELIVERY_TIMEOUT_MS,
      `${eventId} at A's endpoint`,
    );
    assert(
      !got.timedOut,
      `A's endpoint received no event within ${DELIVERY_TIMEOUT_MS} ms after B's dashboard deleted it by id (${answers["deleting A's endpoint under B's path"]}) and ${B_DELETED} (${answers[B_DELETED]})`,
    );
    t.detail(
      `${Object.entries(answers)
        .map(([what, answer]) => `${what}: ${answer}`)
        .join('; ')}; A's token kept working for ${FOREIGN_WATCH_MS / 1000} s and A's endpoint kept receiving`,
    );
  });

  // The dashboard of one workspace reads and moves its own things only: another workspace's endpoint
  // read, or its call moved, under this workspace's path is refused and changes nothing (the red
  // team's round 16 looked both up by id alone).
  check('TENANT-CONTROL-READS', async (t) => {
    const a = await t.workspaceWithToken({ callProgress: 'manual' });
    const b = await t.workspace();
    const hook = await t.hookEndpoint(a.workspace, ['voice.call.started']);
    const read = await doneOrRefused(() => t.control.getEndpoint(b.id, hook.registered.endpointId), 'answered 2xx');
    t.measure('read', read);
    assert(
      read !== 'answered 2xx',
      `reading workspace A's endpoint under workspace B's path (GET /workspaces/${b.id}/webhook-endpoints/${hook.registered.endpointId}) answered 2xx: a workspace's dashboard shows its own endpoints only`,
    );
    const callId = await placedCall(t, a, 'A');
    const startedOf = () =>
      settle(
        hook.inbox,
        (ds) => ds.some((d) => callIdOf(d) === callId),
        CROSS_REPLAY_WATCH_MS,
        `voice.call.started of ${callId}`,
      );
    // A manual call that starts by itself would be blamed on the move: HOOK-PROGRESS-ONE-CALL judges that.
    if (!(await startedOf()).timedOut)
      t.skip(
        `A's call ${callId} started by itself under call_progress manual (see HOOK-PROGRESS-ONE-CALL): no move to judge`,
      );
    const moved = await doneOrRefused(() => t.control.progressCall(b.id, callId, { state: 'started' }), 'answered 2xx');
    t.measure('moved', moved);
    // A move that reached A's call shows as its voice.call.started at A's endpoint.
    assert(
      (await startedOf()).timedOut,
      `moving workspace A's call ${callId} to started under workspace B's path (${moved}) started it: its voice.call.started reached A's endpoint; a workspace's dashboard moves its own calls only`,
    );
    t.detail(
      `under workspace B's path, reading A's endpoint was ${read} and moving A's call was ${moved}; A's call stayed queued`,
    );
  });

  check('TENANT-AGENTS', async (t) => {
    const { a, b } = await twoTenants(t);
    const listed = await t.api.listAgents(a.token.token);
    assert(is2xx(listed.status), `listing A's agents: expected a 2xx, got ${describeResponse(listed)}`, listed);
    const visible = findAllIds(listed.json, ID_PATTERNS.agent);
    const leaked = b.workspace.agentIds.filter((agent) => visible.includes(agent));
    assert(leaked.length === 0, `A's agent list shows B's agents: ${leaked.join(', ')}`);
    const call = await t.api.placeCall(
      a.token.token,
      { agent_id: b.workspace.agentId, to: RESERVED_TEST_NUMBER },
      STATUS_ONLY,
    );
    assert(
      is4xx(call.status),
      `placing a call in A with B's agent: expected a 4xx, got ${describeResponse(call)}`,
      call,
    );
    t.measure('foreign_agent_call_status', call.status);
  });

  check('TENANT-KEPT-ALIVE', async (t) => {
    const { a, b } = await twoTenants(t);
    const tenants = { A: a, B: b };
    // A, then B, then A again, one after the other over one connection of the check's own: a
    // service that keeps a connection's first workspace answers B's request with A's agents.
    const connection = t.api.ownConnection();
    t.defer(() => connection.close());
    const seen: string[] = [];
    for (const [name, otherName] of [
      ['A', 'B'],
      ['B', 'A'],
      ['A', 'B'],
    ] as const) {
      const listed = await t.api.listAgents(tenants[name].token.token, { connection });
      assert(
        is2xx(listed.status),
        `listing ${name}'s agents over the kept-alive connection after ${seen.length} request(s) on it: expected a 2xx, got ${describeResponse(listed)}`,
        listed,
      );
      const visible = findAllIds(listed.json, ID_PATTERNS.agent);
      const foreign = tenants[otherName].workspace.agentIds.filter((agent) => visible.includes(agent));
      assert(
        foreign.length === 0,
        `over one kept-alive connection, after ${seen.join(', then ')}, ${name}'s token listed workspace ${otherName}'s agents: ${foreign.join(', ')}`,
        listed,
      );
      seen.push(`${name}'s token`);
    }
    t.detail(`over one kept-alive connection, ${seen.join(', then ')}: each listed only its own workspace's agents`);
  });
});
