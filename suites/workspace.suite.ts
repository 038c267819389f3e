/**
 * Workspace suspension: workspace_disabled while suspended, on every operation of the public
 * API (the contract: "its public requests answer `workspace_disabled`"), a call's transcript
 * too, and recovery after reinstatement (Errors, workspace_disabled).
 */
import { RESERVED_TEST_NUMBER } from '../src/api/service.js';
import {
  assert,
  certifySuite,
  check,
  describeResponse,
  doneOrRefused,
  expectAuthError,
  is2xx,
  type CheckContext,
} from '../src/suite/index.js';
import { sleep } from '../src/clock/wait.js';
import { HttpClient } from '../src/http/client.js';
import { registerSecret } from '../src/secrets/mask.js';
import { ControlUnsupported } from '../src/errors.js';
import { newSubject, secret, startProvider } from './session/fixture.js';
import { DELIVERY_TIMEOUT_MS, ofCall, placeCall, settle } from '../src/suite/webhook-observation/events.js';
import { describeBadSignature, verifiesWith } from '../src/suite/webhook-observation/signature.js';

/** Propagation of a suspension is not bounded by the spec; give it the revocation bound. */
const SETTLE_LIMIT_MS = 60_000;
const CALL_STARTED = 'voice.call.started';
/** call_progress auto moves a call within 2 s (the control contract): a manual one is watched longer. */
const AUTO_PROGRESS_WATCH_MS = 3_000;
/** Requests of the workspace that was not suspended, once the other is. */
const OTHER_WORKSPACE_REQUESTS = 12;
/** Requests, 250 ms apart, that show an active workspace asked to reinstate still active. */
const ACTIVE_WATCH_REQUESTS = 4;
/** Requests, 250 ms apart, that show a deleted workspace asked to reinstate still gone. */
const DELETED_WATCH_REQUESTS = 4;

/** Fields of the control answers that hold a credential. */
const SECRET_FIELDS = ['token', 'secret'];
/** A non-empty string: what the contract's ids and secrets are, whatever their form. */
const isId = (value: unknown): boolean => typeof value === 'string' && value.length > 0;

function errorCodeOf(res: { json: unknown }): string | undefined {
  return (res.json as { error?: { code?: string } } | undefined)?.error?.code;
}

async function untilStatus(
  _t: CheckContext,
  send: () => ReturnType<CheckContext['api']['whoami']>,
  done: (status: number, code?: string) => boolean,
) {
  const started = performance.now();
  while (true) {
    const res = await send();
    const code = (res.json as { error?: { code?: string } } | undefined)?.error?.code;
    if (done(res.status, code)) return { res, afterMs: Math.round(performance.now() - started) };
    if (performance.now() - started > SETTLE_LIMIT_MS) return { res, afterMs: Math.round(performance.now() - started) };
    await sleep(250);
  }
}

/**
 * The control interface over HTTP, for the checks that judge its answers as sent (statuses,
 * fields), which the control client reads into its own types. Skips the check under an adapter.
 */
function rawControl(t: CheckContext) {
  const { controlUrl, controlToken } = t.run;
  if (!controlUrl || !controlToken)
    return t.skip('needs the control interface over HTTP (SVC_CONTROL_URL and SVC_CONTROL_TOKEN), not an adapter');
  const client = new HttpClient(controlUrl, {
    ...t.run.network,
    paced: false,
    secretPlaceholder: '$SVC_CONTROL_TOKEN',
  });
  return {
    /** Sends `operation` ("METHOD /path") with the control token and an optional JSON body. */
    send(operation: string, json?: unknown) {
      const [method, path] = operation.split(' ') as [string, string];
      return client.request({
        method,
        path,
        headers: { authorization: `Bearer ${controlToken}` },
        ...(json === undefined ? {} : { json }),
      });
    },
    close: () => client.close(),
  };
}

certifySuite('workspace', () => {
  check(
    'WS-SUSPENDED-CODE',
    async (t) => {
      const { workspace, token } = await t.workspaceWithToken();
      // A call of the workspace's own, placed while it was served: its transcript is a public request like any other.
      const { callId } = await placeCall(t, workspace, token.token);
      await workspace.suspend();
      const { res, afterMs } = await untilStatus(
        t,
        () => t.api.whoami(token.token),
        (_status, code) => code === 'workspace_disabled',
      );
      expectAuthError(res, 'workspace_disabled', 'whoami on a suspended workspace');
      const agents = await t.api.listAgents(token.token);
      expectAuthError(agents, 'workspace_disabled', 'agents on a suspended workspace');
      const call = await t.api.placeCall(token.token, { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER });
      expectAuthError(call, 'workspace_disabled', 'placing a call on a suspended workspace');
      const transcript = await t.api.transcript(token.token, callId);
      expectAuthError(
        transcript,
        'workspace_disabled',
        `the transcript of ${callId}, placed before the suspension, on the suspended workspace`,
      );
      t.measure('suspension_effective_ms', afterMs);
      t.measure('statuses', {
        whoami: res.status,
        agents: agents.status,
        call: call.status,
        transcript: transcript.status,
      });
      t.detail(
        `workspace_disabled ${res.status} after ${afterMs} ms, on whoami, agents, a call and a transcript (read with ${t.api.transcriptMethod})`,
      );
    },
    { timeoutMs: 90_000 },
  );

  // The dashboard still works on a suspended workspace: registering an endpoint, firing an event,
  // adding a member or creating a token there (each done or refused) leaves it suspended (round
  // 20's endpoint creation lifted the suspension; round 17's token creation did).
  check(
    'WS-SUSPENSION-HOLDS',
    async (t) => {
      const { workspace, token } = await t.workspaceWithToken();
      await workspace.suspend();
      const suspended = await untilStatus(
        t,
        () => t.api.whoami(token.token),
        (_status, code) => code === 'workspace_disabled',
      );
      if (errorCodeOf(suspended.res) !== 'workspace_disabled')
        t.skip('whoami never answered workspace_disabled after the suspension (WS-SUSPENDED-CODE judges it)');
      const receiver = await t.receiver();
      const done: Record<string, string> = {};
      const operations: Array<[string, () => Promise<unknown>]> = [
        ['registering an endpoint', () => workspace.createEndpoint(`${receiver.publicUrl}/certify-suspended`, ['*'])],
        ['firing an event', () => workspace.fireEvent('workspace.plan.upgraded', { plan: 'certify' })],
        ['adding a member', () => workspace.addMember('certify-suspended-member', ['voice:read'])],
        ['creating a token', () => workspace.createToken('certify created while suspended')],
      ];
      const lifted: string[] = [];
      for (const [what, operate] of operations) {
        done[what] = await doneOrRefused(operate, 'done');
        const res = await t.api.whoami(token.token, { fresh: true });
        // Served again, not merely answered otherwise (a rate limit, say): that is the suspension lifted.
        if (is2xx(res.status)) lifted.push(`${what} (${done[what]}): whoami then answered ${describeResponse(res)}`);
      }
      t.measure('operations', done);
      assert(
        lifted.length === 0,
        `the suspended workspace was served again after ${lifted.join('; ')}: only a reinstatement ends a suspension`,
      );
      t.detail(
        `${Object.entries(done)
          .map(([what, outcome]) => `${what}: ${outcome}`)
          .join('; ')}; whoami was not served after any of them`,
      );
    },
    { timeoutMs: 90_000 },
  );

  // "Its public requests answer workspace_disabled": a request the credential lacks the scope for is
  // one of them. A service may authorise the scope first, so a should.
  check(
    'WS-SUSPENDED-BEFORE-SCOPE',
    async (t) => {
      const { workspace, token } = await t.workspaceWithToken();
      const reader = await workspace.createToken('certify reads only', ['voice:read']);
      await workspace.suspend();
      const { res } = await untilStatus(
        t,
        () => t.api.whoami(token.token),
        (_status, code) => code === 'workspace_disabled',
      );
      if ((res.json as { error?: { code?: string } } | undefined)?.error?.code !== 'workspace_disabled')
        t.skip(`whoami never answered workspace_disabled after the suspension (WS-SUSPENDED-CODE judges it)`);
      const call = await t.api.placeCall(reader.token, { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER });
      t.measure('call_without_scope', call.status);
      expectAuthError(
        call,
        'workspace_disabled',
        'placing a call with a voice:read token on a suspended workspace (the workspace is disabled whatever the scope)',
      );
      t.detail(`a call placed with a voice:read token of the suspended workspace: workspace_disabled ${call.status}`);
    },
    { timeoutMs: 90_000 },
  );

  check(
    'WS-REINSTATED',
    async (t) => {
      const { workspace, token } = await t.workspaceWithToken();
      // Reinstating a workspace that is active leaves it active (no toggle, no hold counted).
      const early = await doneOrRefused(() => workspace.reinstate(), 'answered 2xx');
      t.measure('reinstate_of_active', early);
      for (let i = 0; i < ACTIVE_WATCH_REQUESTS; i++) {
        const res = await t.api.whoami(token.token);
        assert(
          res.status === 200,
          `an active workspace asked to reinstate (${early}) then answered whoami ${describeResponse(res)}: it was active`,
          res,
        );
        await sleep(250);
      }
      await workspace.suspend();
      await untilStatus(
        t,
        () => t.api.whoami(token.token),
        (_status, code) => code === 'workspace_disabled',
      );
      await workspace.reinstate();
      const { res, afterMs } = await untilStatus(
        t,
        () => t.api.whoami(token.token),
        (status) => status === 200,
      );
      assert(
        res.status === 200,
        `whoami after reinstatement: expected 200 within 60 s, got ${describeResponse(res)}`,
        res,
      );
      const agents = await t.api.listAgents(token.token);
      assert(
        agents.status >= 200 && agents.status < 300,
        `agents after reinstatement: expected a 2xx, got ${describeResponse(agents)}`,
        agents,
      );
      t.measure('reinstatement_effective_ms', afterMs);
      t.detail(
        `an active workspace asked to reinstate (${early}) stayed active; suspended, then reinstated: whoami 200 after ${afterMs} ms, agents ${agents.status}`,
      );
    },
    { timeoutMs: 150_000 },
  );

  // A transition keeps what the workspace was created with: once reinstated, a workspace of
  // call_progress manual still leaves its calls queued until they are moved.
  check(
    'WS-REINSTATED-KEEPS-SETTINGS',
    async (t) => {
      const { workspace, token } = await t.workspaceWithToken({ callProgress: 'manual' });
      const hook = await t.hookEndpoint(workspace, [CALL_STARTED]);
      // Its identity provider and members are its settings too (where the control interface can set them).
      const idp = await startProvider(t);
      const member = newSubject();
      const sessionWhoami = async () =>
        t.api.whoami(secret(await idp.mint({ sub: member, claims: { aud: idp.audience } })));
      let sessionBefore: { status: number } = { status: 0 };
      try {
        await workspace.setIdentityProvider({ issuer: idp.issuer, jwksUri: idp.jwksUri, audience: idp.audience });
        await workspace.addMember(member, ['voice:read']);
        sessionBefore = await sessionWhoami();
      } catch (error) {
        if (!(error instanceof ControlUnsupported)) throw error;
      }
      await workspace.suspend();
      await untilStatus(
        t,
        () => t.api.whoami(token.token),
        (_status, code) => code === 'workspace_disabled',
      );
      await workspace.reinstate();
      const { res } = await untilStatus(
        t,
        () => t.api.whoami(token.token),
        (status) => status === 200,
      );
      if (res.status !== 200)
        t.skip(`whoami after reinstatement got ${describeResponse(res)} (WS-REINSTATED judges it): no call to place`);
      // Judged only where a member's session token was accepted before the suspension (SESSION-VALID judges that).
      if (sessionBefore.status === 200) {
        const sessionAfter = await sessionWhoami();
        t.measure('session_whoami_after', sessionAfter.status);
        assert(
          sessionAfter.status === 200,
          `after the suspension and reinstatement, a member's fresh session token got ${describeResponse(sessionAfter)} (200 before the suspension): the workspace's identity provider and members went with it`,
          sessionAfter,
        );
      }
      const { callId } = await placeCall(t, workspace, token.token);
      await sleep(AUTO_PROGRESS_WATCH_MS);
      const moved = hook.inbox.deliveries.filter(ofCall(callId, CALL_STARTED));
      assert(
        moved.length === 0,
        `a call placed after a call_progress manual workspace was suspended and reinstated moved by itself: ${CALL_STARTED} within ${AUTO_PROGRESS_WATCH_MS / 1000} s, as under auto`,
      );
      // The endpoint hears a move when one is made: the silence above was the call's, not the endpoint's.
      await workspace.progressCall(callId, { state: 'started' });
      const started = await settle(
        hook.inbox,
        (ds) => ds.some(ofCall(callId, CALL_STARTED)),
        DELIVERY_TIMEOUT_MS,
        `${CALL_STARTED} of ${callId}`,
      );
      assert(
        !started.timedOut,
        `${callId}, moved to started by the control interface, sent no ${CALL_STARTED} within ${DELIVERY_TIMEOUT_MS} ms`,
      );
      // The endpoint registered before the suspension keeps the secret it was given.
      const delivery = started.deliveries.find(ofCall(callId, CALL_STARTED))!;
      assert(
        verifiesWith(hook.registered.secret, delivery),
        `after the suspension and reinstatement, ${CALL_STARTED} of ${callId} is not signed with the secret its endpoint was registered with (${describeBadSignature(hook.registered.secret, delivery, [])}): nobody was told of a new one`,
      );
      t.detail(
        `call_progress manual, suspended and reinstated: a call placed then stayed queued ${AUTO_PROGRESS_WATCH_MS / 1000} s, moved when told to, and its event was signed with the endpoint's secret as registered; a member's session token ${sessionBefore.status === 200 ? 'was accepted before and after' : sessionBefore.status === 0 ? 'was not judged (the control adapter cannot set a provider)' : `was not accepted before the suspension (${sessionBefore.status}), so not judged after`}`,
      );
    },
    { timeoutMs: 180_000 },
  );

  check(
    'WS-SUSPEND-ONE-WORKSPACE',
    async (t) => {
      const suspended = await t.workspaceWithToken();
      const other = await t.workspaceWithToken();
      await suspended.workspace.suspend();
      const { res, afterMs } = await untilStatus(
        t,
        () => t.api.whoami(suspended.token.token),
        (_status, code) => code === 'workspace_disabled',
      );
      expectAuthError(res, 'workspace_disabled', 'whoami on the suspended workspace');
      // The suspension has reached the node that answered; the other workspace is asked on fresh and kept-alive connections alike.
      const wrong: string[] = [];
      for (let i = 0; i < OTHER_WORKSPACE_REQUESTS; i++) {
        const fresh = i % 2 === 0;
        const answer =
          i % 4 < 2
            ? await t.api.whoami(other.token.token, { fresh })
            : await t.api.listAgents(other.token.token, { fresh });
        if (!(answer.status >= 200 && answer.status < 300) && answer.status !== 429)
          wrong.push(
            `${i % 4 < 2 ? 'whoami' : 'agents'} (${fresh ? 'fresh' : 'kept-alive'}): ${describeResponse(answer)}`,
          );
      }
      assert(
        wrong.length === 0,
        `after another workspace was suspended, ${wrong.length} of ${OTHER_WORKSPACE_REQUESTS} requests of a workspace that was not were refused; first: ${wrong[0]}`,
      );
      t.measure('suspension_effective_ms', afterMs);
      // Both suspended, one reinstated: the reinstatement reaches that workspace only.
      await other.workspace.suspend();
      const otherDisabled = await untilStatus(
        t,
        () => t.api.whoami(other.token.token),
        (_status, code) => code === 'workspace_disabled',
      );
      expectAuthError(otherDisabled.res, 'workspace_disabled', 'whoami on the second workspace once suspended');
      await suspended.workspace.reinstate();
      const back = await untilStatus(
        t,
        () => t.api.whoami(suspended.token.token),
        (status) => status >= 200 && status < 300,
      );
      assert(
        back.res.status >= 200 && back.res.status < 300,
        `the reinstated workspace still answers ${describeResponse(back.res)} ${back.afterMs} ms after its reinstatement`,
      );
      const stillSuspended = await t.api.whoami(other.token.token);
      assert(
        (stillSuspended.json as { error?: { code?: string } } | undefined)?.error?.code === 'workspace_disabled',
        `with two workspaces suspended, reinstating one made the other answer ${describeResponse(stillSuspended)}: the reinstatement reached a workspace it did not name`,
      );
      t.measure('reinstatement_effective_ms', back.afterMs);
      t.detail(
        `one workspace answered workspace_disabled after ${afterMs} ms; the other answered all ${OTHER_WORKSPACE_REQUESTS} requests (whoami, agents) after it; with both suspended, reinstating the first (served after ${back.afterMs} ms) left the second workspace_disabled`,
      );
    },
    { timeoutMs: 150_000 },
  );

  // DELETE is optional in the contract, but a workspace the control interface no longer knows has no
  // owner for its tokens: every user expects them to stop, as a revoked token does.
  check(
    'WS-DELETED-TOKENS',
    async (t) => {
      const { workspace, token } = await t.workspaceWithToken();
      const before = await t.api.whoami(token.token);
      if (!(before.status >= 200 && before.status < 300))
        t.skip(`the token answered ${describeResponse(before)} before the deletion (see AUTH-VALID-TOKEN)`);
      // A member's session token is a credential of the workspace too (where the control interface can add one).
      const idp = await startProvider(t);
      const member = newSubject();
      const sessionWhoami = async () =>
        t.api.whoami(secret(await idp.mint({ sub: member, claims: { aud: idp.audience } })));
      let sessionBefore = 0;
      try {
        await workspace.setIdentityProvider({ issuer: idp.issuer, jwksUri: idp.jwksUri, audience: idp.audience });
        await workspace.addMember(member, ['voice:read']);
        sessionBefore = (await sessionWhoami()).status;
      } catch (error) {
        if (!(error instanceof ControlUnsupported)) throw error;
      }
      const deleted = await t.control.deleteWorkspace(workspace.id);
      if (deleted === false)
        t.skip('DELETE /workspaces/{ws} answered 404 or 405: not supported here, nothing deleted to judge');
      // An adapter that cannot tell: a workspace that still takes a token was not deleted. A 2xx to
      // DELETE is a deletion, whatever the workspace does after it (round 22 deleted by suspending).
      const probe =
        deleted === true
          ? undefined
          : await doneOrRefused(() => workspace.createToken(`certify ${t.spec.id} probe`), 'still there');
      if (probe === 'still there')
        t.skip(
          'DELETE /workspaces/{ws} is not supported here (the workspace still takes a new token): nothing deleted to judge',
        );
      const how = probe === undefined ? 'DELETE answered 2xx' : `a new token for it then ${probe}`;
      const { res, afterMs } = await untilStatus(
        t,
        () => t.api.whoami(token.token),
        (status) => status >= 400 && status < 500,
      );
      t.measure('after_delete_status', res.status);
      t.measure('refused_after_ms', afterMs);
      assert(
        res.status >= 400 && res.status < 500,
        `the workspace was deleted (${how}), and its token still answers ${describeResponse(res)} ${afterMs} ms later`,
      );
      // Judged only where a member's session token was accepted before the deletion (SESSION-VALID judges that).
      let sessionAfter: string;
      if (sessionBefore === 200) {
        const session = await untilStatus(t, sessionWhoami, (status) => status >= 400 && status < 500);
        t.measure('session_after_delete_status', session.res.status);
        assert(
          session.res.status >= 400 && session.res.status < 500,
          `the workspace was deleted, and a member's fresh session token still answers ${describeResponse(session.res)} ${session.afterMs} ms later (its bearer token answered ${res.status})`,
          session.res,
        );
        sessionAfter = `; a member's session token ${session.res.status} after ${session.afterMs} ms`;
      } else {
        sessionAfter =
          sessionBefore === 0
            ? '; no session token judged (the control adapter cannot set a provider)'
            : `; no session token judged (${sessionBefore} before the deletion)`;
      }
      // Deleted is not suspended: a reinstatement, refused or not, brings nothing back (round 22
      // deleted by suspending, and the reinstatement served the token again).
      const reinstated = await doneOrRefused(() => workspace.reinstate(), 'answered 2xx');
      t.measure('reinstate_after_delete', reinstated);
      for (let i = 0; i < DELETED_WATCH_REQUESTS; i++) {
        const again = await t.api.whoami(token.token);
        assert(
          again.status >= 400 && again.status < 500,
          `the workspace was deleted and its token refused ${res.status}; asked to reinstate it (${reinstated}), the token answered ${describeResponse(again)}: a deleted workspace came back`,
          again,
        );
        await sleep(250);
      }
      t.detail(
        `deleted (${how}); its token answered ${res.status} after ${afterMs} ms, and still a 4xx after a reinstatement (${reinstated})${sessionAfter}`,
      );
    },
    { timeoutMs: 90_000 },
  );

  // The contract names the status of every control operation's success; the client takes any 2xx,
  // so these are read here, over HTTP, one operation each.
  check('CTL-SUCCESS-STATUSES', async (t) => {
    const control = rawControl(t);
    const { workspace, token } = await t.workspaceWithToken({ callProgress: 'manual' });
    const receiver = await t.receiver();
    const idp = await startProvider(t);
    const ws = `/workspaces/${workspace.id}`;
    const seen: Array<{ operation: string; expected: number; status: number | string }> = [];
    const send = async (operation: string, expected: number, json?: unknown) => {
      const res = await control.send(operation, json);
      seen.push({ operation: operation.replace(workspace.id, '{ws}'), expected, status: res.status });
      return res.json as Record<string, unknown> | undefined;
    };
    try {
      await send('GET /capabilities', 200);
      const created = await send(`POST ${ws}/tokens`, 201, { label: 'certify statuses', scopes: ['voice:read'] });
      const tokenId = typeof created?.['token_id'] === 'string' ? created['token_id'] : undefined;
      if (tokenId) await send(`DELETE ${ws}/tokens/${encodeURIComponent(tokenId)}`, 204);
      const endpoint = await send(`POST ${ws}/webhook-endpoints`, 201, {
        url: `${receiver.publicUrl}/certify-statuses`,
        events: ['workspace.plan.upgraded'],
      });
      const endpointId = typeof endpoint?.['endpoint_id'] === 'string' ? endpoint['endpoint_id'] : undefined;
      const fired = await send(`POST ${ws}/events`, 201, { type: 'workspace.plan.upgraded', data: {} });
      if (endpointId) {
        const path = `${ws}/webhook-endpoints/${encodeURIComponent(endpointId)}`;
        await send(`GET ${path}`, 200);
        await send(`POST ${path}/enable`, 204);
        if (typeof fired?.['event_id'] === 'string')
          await send(`POST ${ws}/deliveries/replay`, 202, { event_id: fired['event_id'], endpoint_id: endpointId });
        await send(`DELETE ${path}`, 204);
      }
      await send(`PUT ${ws}/identity-provider`, 204, {
        issuer: idp.issuer,
        jwks_uri: idp.jwksUri,
        audience: idp.audience,
      });
      await send(`POST ${ws}/members`, 201, { subject: newSubject(), scopes: ['voice:read'] });
      const call = await placeCall(t, workspace, token.token);
      await send(`POST ${ws}/calls/${encodeURIComponent(call.callId)}/progress`, 204, { state: 'started' });
      await send(`POST ${ws}/suspend`, 204);
      await send(`POST ${ws}/reinstate`, 204);
    } finally {
      await control.close();
    }
    t.measure('statuses', Object.fromEntries(seen.map(({ operation, status }) => [operation, status])));
    const other = seen.filter(({ expected, status }) => status !== expected);
    assert(
      other.length === 0,
      `control operations answered other statuses than the contract names: ${other.map(({ operation, expected, status }) => `${operation} ${status} (contract: ${expected})`).join('; ')}`,
    );
    t.detail(`${seen.length} control operations, each answered with the status the contract names`);
  });

  // The control client reads creation answers leniently (an id through String(), a missing state as
  // ""): here they are read as sent, each field of the contract's shape with its type (round 21
  // answered ids as numbers and left out an endpoint's state).
  check('CTL-CREATE-ANSWER-FIELDS', async (t) => {
    const control = rawControl(t);
    const workspace = await t.workspace();
    const receiver = await t.receiver();
    const idp = await startProvider(t);
    const ws = `/workspaces/${workspace.id}`;
    const problems: string[] = [];
    const judge = async (operation: string, json: unknown, expected: Record<string, (value: unknown) => boolean>) => {
      const res = await control.send(operation, json);
      const body = res.json as Record<string, unknown> | undefined;
      if (!is2xx(res.status)) return problems.push(`${operation.replace(workspace.id, '{ws}')} answered ${res.status}`);
      for (const field of SECRET_FIELDS) if (typeof body?.[field] === 'string') registerSecret(body[field] as string);
      for (const [field, holds] of Object.entries(expected)) {
        const value = body?.[field];
        // A secret's value is never shown, only what kind of value it is.
        const shown = SECRET_FIELDS.includes(field)
          ? value === undefined
            ? 'absent'
            : `a ${Array.isArray(value) ? 'list' : typeof value}`
          : (JSON.stringify(value)?.slice(0, 80) ?? 'absent');
        if (!holds(value)) problems.push(`${operation.replace(workspace.id, '{ws}')}: ${field} is ${shown}`);
      }
    };
    try {
      await judge(
        `POST ${ws}/tokens`,
        { label: 'certify answer fields', scopes: ['voice:read'] },
        {
          token_id: isId,
          token: isId,
          label: (value) => value === 'certify answer fields',
          scopes: (value) => Array.isArray(value) && value.every((scope) => typeof scope === 'string'),
        },
      );
      await judge(
        `POST ${ws}/webhook-endpoints`,
        { url: `${receiver.publicUrl}/certify-answer-fields`, events: ['workspace.plan.upgraded'] },
        { endpoint_id: isId, secret: isId, state: (value) => value === 'active' },
      );
      await judge(
        `PUT ${ws}/identity-provider`,
        { issuer: idp.issuer, jwks_uri: idp.jwksUri, audience: idp.audience },
        {},
      );
      await judge(`POST ${ws}/members`, { subject: newSubject(), scopes: ['voice:read'] }, { member_id: isId });
      await judge(`POST ${ws}/events`, { type: 'workspace.plan.upgraded', data: {} }, { event_id: isId });
    } finally {
      await control.close();
    }
    assert(problems.length === 0, `control creation answers not of the contract's shape: ${problems.join('; ')}`);
    t.detail(
      'a token, an endpoint, a member and an event created: each answer had its fields, ids as strings, the endpoint active',
    );
  });

  // The contract shows the endpoint read's answer whole: flagged is true or false, never left out.
  check('CTL-ENDPOINT-READ-FIELDS', async (t) => {
    const workspace = await t.workspace();
    const receiver = await t.receiver();
    const url = `${receiver.publicUrl}/certify-read-fields?from=${t.spec.id}`;
    const events = ['workspace.plan.upgraded', 'mailer.email.sent'];
    const endpoint = await workspace.createEndpoint(url, events);
    const control = rawControl(t);
    try {
      const res = await control.send(
        `GET /workspaces/${workspace.id}/webhook-endpoints/${encodeURIComponent(endpoint.endpointId)}`,
      );
      const body = res.json as Record<string, unknown> | undefined;
      t.measure('status', res.status);
      t.measure('fields', body && typeof body === 'object' ? Object.keys(body).slice(0, 20) : null);
      assert(
        res.status === 200,
        `reading a new endpoint answered ${describeResponse(res)}: the contract answers 200`,
        res,
      );
      const problems: string[] = [];
      if (body?.['endpoint_id'] !== endpoint.endpointId)
        problems.push(`endpoint_id is ${JSON.stringify(body?.['endpoint_id'])}, not ${endpoint.endpointId}`);
      if (body?.['url'] !== url) problems.push(`url is ${JSON.stringify(body?.['url'])}, not the URL registered`);
      const read = body?.['events'];
      if (!Array.isArray(read) || read.length !== events.length || !events.every((type) => read.includes(type)))
        problems.push(`events is ${JSON.stringify(read)}, not the ${events.length} types registered`);
      if (body?.['state'] !== 'active') problems.push(`state is ${JSON.stringify(body?.['state'])}, not "active"`);
      if (body?.['flagged'] !== false)
        problems.push(
          `flagged is ${body && 'flagged' in body ? JSON.stringify(body['flagged']) : 'missing'}, not false (nothing was dropped)`,
        );
      assert(
        problems.length === 0,
        `GET of a new endpoint: ${problems.join('; ')}; the contract answers {"endpoint_id", "url", "events", "state", "flagged": true | false}`,
        res,
      );
      t.detail('a new endpoint reads back with its id, URL and types as registered, state active and flagged false');
    } finally {
      await control.close();
    }
  });

  check(
    'WS-DISABLED-STATUS',
    async (t) => {
      const { workspace, token } = await t.workspaceWithToken();
      await workspace.suspend();
      const { res } = await untilStatus(
        t,
        () => t.api.whoami(token.token),
        (_status, code) => code === 'workspace_disabled',
      );
      t.measure('status', res.status);
      t.detail(`workspace_disabled answered with HTTP ${res.status}`);
    },
    { timeoutMs: 90_000 },
  );
});
