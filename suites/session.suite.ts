/**
 * Session tokens (Authentication > Session tokens; control interface, "Session tokens"):
 * a JWT from the workspace's identity provider is accepted exactly when it verifies
 * against a key of the JWKS, its iss, aud, nbf and exp hold, and its sub is a member,
 * and it then carries that member's scopes. Every forged, expired or foreign token gets
 * 401 invalid_token. Each check runs its own test identity provider on loopback.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { ALL_SCOPES, type Scope } from '../src/control/types.js';
import {
  ALG_NONE_SPELLINGS,
  jwtMutation,
  nowSeconds,
  signWithForeignKey,
  stripSignature,
  tamperPayload,
  tamperSignature,
  withAlgNone,
  withHeader,
  withHs256PublicKey,
  withKid,
  type JwtMutation,
} from '../src/idp/index.js';
import { assert, certifySuite, check, describeResponse, doneOrRefused, expectAuthError } from '../src/suite/index.js';
import type { HttpResponse } from '../src/http/client.js';
import { isDeepStrictEqual } from 'node:util';
import { completedFor, dataOf, placeCall } from '../src/suite/webhook-observation/events.js';
import { RESERVED_TEST_NUMBER } from '../src/api/service.js';
import { ControlError } from '../src/errors.js';
import { newAudience, newSubject, secret, sessionWorkspace, startProvider } from './session/fixture.js';
import { pollUntil, sleep } from '../src/clock/wait.js';
import { completedCallId, matrixProblem, operations } from './session/scope-matrix.js';
import { wholeSecondsAhead } from '../src/clock/date-offset.js';
import {
  expectAccepted,
  expectAllRefused,
  expectControlAccepted,
  judgeRefusals,
  refusalCodeProblem,
  refusalProblem,
  REQUEST_TIMEOUT_MS,
  whoami,
} from './session/verdicts.js';

const unknownKid = () => `kid-${randomBytes(6).toString('hex')}`;

/** Members SESSION-MEMBERS-AT-ONCE adds at once. */
const MEMBERS_AT_ONCE = 3;
/** The session token SESSION-SUSPENDED-CODE uses before and after the suspension: valid past the wait for the suspension to show. */
const KEPT_TOKEN_LIFETIME_S = 300;
/** The narrowed member of SESSION-SUSPENDED-CODE: reads, cannot place calls. */
const NARROWED_MEMBER: readonly Scope[] = ['voice:read'];
/** The metadata of the call SESSION-CALL-AS-BEARER places with a session token. */
const SESSION_CALL_METADATA = { lead_id: 'lead_certify_session', Stage: 'Demo' };
/** How long a suspension or reinstatement may take to show: the bound the workspace checks give it. */
const SETTLE_POLL = { timeoutMs: 60_000, intervalMs: 250 } as const;

function errorCodeOf(res: HttpResponse): unknown {
  return (res.json as { error?: { code?: unknown } } | undefined)?.error?.code;
}

/**
 * What is wrong with a session token's answer on a suspended workspace: workspace_disabled
 * with the error shape, and the status the same operation gave the workspace's bearer token
 * (the status is not shown; the schemes share one model).
 */
function suspendedProblems(
  operation: string,
  member: string,
  bySession: HttpResponse,
  byBearer: HttpResponse,
): string[] {
  const what = `${operation} with the session token of ${member}`;
  const problem = refusalCodeProblem(bySession, 'workspace_disabled', what);
  if (problem) return [problem];
  if (errorCodeOf(byBearer) === 'workspace_disabled' && byBearer.status !== bySession.status) {
    return [`${what}: workspace_disabled with ${bySession.status}, where the bearer token got ${byBearer.status}`];
  }
  return [];
}

/** Scope sets whose tokens are probed against every endpoint: each endpoint allowed by some, refused by others. */
const SCOPE_SETS: readonly (readonly Scope[])[] = [
  ['voice:read'],
  ['voice:write'],
  ['voice:read', 'voice:write'],
  ['mailer:read', 'mailer:write', 'webhooks:write'],
  ALL_SCOPES,
];

/** The spec's session token lifetime (Authentication, session tokens; Limits). */
const SESSION_LIFETIME_S = 60;
/** The largest clock leeway on exp taken as reasonable: more lets a token live twice its lifetime. */
const MAX_LEEWAY_S = 60;
/** How long ago the probe tokens expired: within and just beyond MAX_LEEWAY_S. */
const LEEWAY_PROBES_S = [1, 5, 30, 60, 75] as const;
/** How near its edges a valid token is presented (SESSION-VALIDITY-EDGES): seconds left before exp, seconds since nbf. */
const EDGE_EXP_LEFT_S = 15;
const EDGE_NBF_PAST_S = 2;
/** SESSION-EXPIRES-AFTER-USE: the lifetime of the token used, and how long past its exp a leeway is waited out. */
const SHORT_LIFETIME_S = 5;
/** How far ahead a token's iat is set: past any clock skew a check allows, well inside its exp. */
const IAT_AHEAD_S = 30;
/** A session token's lifetime past the spec's 60 s: ten minutes, a common provider setting. */
const LONG_LIFETIME_S = 600;
const EXPIRY_WATCH_MS = 65_000;
const MUTATION_RUNS = 40;
/** Well inside the 60 s lifetime of the token being mutated, so every mutation is judged while the original is valid. */
const MUTATION_TIME_LIMIT_MS = 40_000;
/** "within 60 s" (catalog: SESSION-KEY-ROTATION). */
const ROTATION_LIMIT_MS = 60_000;
const ROTATION_POLL_MS = 1_000;
/** A changed setting (the provider, a member's scopes) takes effect within the bound a key rotation gets. */
const SETTING_LIMIT_MS = 60_000;

certifySuite('session', () => {
  check('SESSION-VALID', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    // "aud is or contains the audience" (contract): an array holding it is as good.
    await expectAccepted(
      t,
      await s.mint({ claims: { aud: [newAudience(), s.audience] } }),
      'aud as an array containing the audience',
    );
    t.detail('whoami 200 for a member token, with aud as a string and as an array');
  });

  check('SESSION-SCOPES-MATCH', async (t) => {
    // Calls stay queued until moved, so the one whose transcript is read is settled first.
    const s = await sessionWorkspace(t, { workspace: { callProgress: 'manual' } });
    const callId = await completedCallId(t, s.workspace);
    const ops = operations(s.workspace.agentId, callId);
    const problems: string[] = [];
    for (const scopes of SCOPE_SETS) {
      const token = await s.mint({ sub: await s.addMember(scopes) });
      for (const op of ops) {
        const problem = matrixProblem(op, scopes, await op.send(t, token));
        if (problem) problems.push(problem);
      }
    }
    if (problems.length > 0) t.fail(`session tokens did not get exactly their member's scopes: ${problems.join('; ')}`);
    t.detail(
      `${SCOPE_SETS.length} members x ${ops.map((op) => op.name).join(', ')} as the scope table says${callId ? ` (transcript read with ${t.api.transcriptMethod})` : ' (transcript left out: no completed call to read)'}`,
    );
  });

  check('SESSION-MEMBER-EMPTY-SCOPES', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    let subject: string;
    try {
      subject = await s.addMember([]);
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      t.measure('member', `refused ${error.status}`);
      t.detail(`a member with scopes [] was refused with ${error.status}`);
      return;
    }
    t.measure('member', 'added');
    const token = await s.mint({ sub: subject });
    const agents = await t.api.listAgents(token);
    expectAuthError(
      agents,
      'missing_scope',
      'listing agents (voice:read) with the session token of a member added with scopes []: an empty list grants no scope',
    );
    const call = await t.api.placeCall(token, { agent_id: s.workspace.agentId, to: RESERVED_TEST_NUMBER });
    expectAuthError(
      call,
      'missing_scope',
      'placing a call (voice:write) with the session token of a member added with scopes []: an empty list grants no scope',
    );
    const who = await whoami(t, token);
    t.measure('whoami_status', who.status);
    t.detail(
      `a member with scopes [] was added; its session token: agents ${agents.status} missing_scope, call ${call.status} missing_scope, whoami ${who.status}`,
    );
  });

  // "Both use Authorization: Bearer <token> and share one workspace identity model": a session
  // token is a public request of the workspace like a bearer token, refused while it is
  // suspended, and its member's scopes, narrowed or not, are what it holds once reinstated.
  check(
    'SESSION-SUSPENDED-CODE',
    async (t) => {
      const s = await sessionWorkspace(t);
      const narrowed = await s.addMember(NARROWED_MEMBER);
      const bearer = await s.workspace.createToken(`certify ${t.spec.id} beside the session tokens`);
      await expectControlAccepted(t, await s.mint(), s.idp);
      const { callId } = await placeCall(t, s.workspace, bearer.token);
      const ops = operations(s.workspace.agentId, callId);
      // One session token used on one kept-alive connection before the suspension and after it: a
      // connection that remembers what it saw with a token must not outlive the suspension.
      const connection = t.api.ownConnection();
      t.defer(() => connection.close());
      const keptToken = await s.mint({ lifetimeSec: KEPT_TOKEN_LIFETIME_S });
      const keptBefore = await t.api.whoami(keptToken, { connection });
      await s.workspace.suspend();
      const suspended = await pollUntil(
        () => whoami(t, bearer.token),
        (res) => errorCodeOf(res) === 'workspace_disabled',
        SETTLE_POLL,
      );
      if (!suspended.ok)
        t.skip(
          `a bearer token of the suspended workspace still got ${describeResponse(suspended.last)} after ${SETTLE_POLL.timeoutMs / 1000} s (WS-SUSPENDED-CODE judges that): nothing to compare a session token with`,
        );
      const statuses: Record<string, { bearer: number; member: number; narrowed?: number }> = {};
      const problems: string[] = [];
      for (const op of ops) {
        const byBearer = await op.send(t, bearer.token);
        const byMember = await op.send(t, await s.mint());
        statuses[op.name] = { bearer: byBearer.status, member: byMember.status };
        problems.push(...suspendedProblems(op.name, 'a member with every scope', byMember, byBearer));
        // Which refusal wins where the narrowed member also lacks the scope is not stated: only what its scope allows is tried.
        if (op.scope !== undefined && !NARROWED_MEMBER.includes(op.scope)) continue;
        const byNarrowed = await op.send(t, await s.mint({ sub: narrowed }));
        statuses[op.name]!.narrowed = byNarrowed.status;
        problems.push(
          ...suspendedProblems(op.name, `a member narrowed to ${NARROWED_MEMBER.join(' ')}`, byNarrowed, byBearer),
        );
      }
      const keptAfter = await t.api.whoami(keptToken, { connection });
      if (keptBefore.status === 200)
        problems.push(
          ...suspendedProblems(
            'whoami on a kept-alive connection that served the same token before the suspension',
            'a member with every scope',
            keptAfter,
            suspended.last,
          ),
        );
      statuses['whoami, kept-alive connection used before the suspension'] = {
        bearer: suspended.last.status,
        member: keptAfter.status,
      };
      t.measure('statuses_while_suspended', statuses);
      if (problems.length > 0)
        t.fail(
          `session tokens of a suspended workspace were not refused as its bearer token is: ${problems.join('; ')}`,
        );
      await s.workspace.reinstate();
      const reinstated = await pollUntil(
        () => whoami(t, bearer.token),
        (res) => res.status === 200,
        SETTLE_POLL,
      );
      if (!reinstated.ok)
        t.skip(
          `a bearer token of the reinstated workspace still got ${describeResponse(reinstated.last)} after ${SETTLE_POLL.timeoutMs / 1000} s (WS-REINSTATED judges that): no session token can be judged after it`,
        );
      for (const [scopes, sub] of [
        [ALL_SCOPES, s.subject],
        [NARROWED_MEMBER, narrowed],
      ] as const) {
        const token = await s.mint({ sub });
        for (const op of ops) {
          const problem = matrixProblem(op, scopes, await op.send(t, token));
          if (problem) problems.push(`after reinstatement, ${problem}`);
        }
      }
      if (problems.length > 0)
        t.fail(
          `once reinstated, session tokens did not get exactly their member's scopes again: ${problems.join('; ')}`,
        );
      t.detail(
        `suspended: session tokens of a member with every scope and of one narrowed to ${NARROWED_MEMBER.join(' ')} got workspace_disabled with the bearer token's status on ${ops.map((op) => op.name).join(', ')}; reinstated: each member's scopes again`,
      );
    },
    { timeoutMs: 2 * SETTLE_POLL.timeoutMs + 30_000 },
  );

  // "Share one workspace identity model": a call placed with a member's session token is the call a
  // bearer token places, its metadata included (round 23's session route dropped the metadata).
  check('SESSION-CALL-AS-BEARER', async (t) => {
    const s = await sessionWorkspace(t, { workspace: { callProgress: 'auto' } });
    const hook = await t.hookEndpoint(s.workspace, ['voice.call.completed']);
    const { callId } = await placeCall(t, s.workspace, await s.mint(), SESSION_CALL_METADATA);
    const completed = await completedFor(hook, callId);
    const metadata = dataOf(completed)?.['metadata'];
    assert(
      isDeepStrictEqual(metadata, SESSION_CALL_METADATA),
      `a call placed with a member's session token and metadata ${JSON.stringify(SESSION_CALL_METADATA)} completed with metadata ${JSON.stringify(metadata)?.slice(0, 200) ?? 'absent'}: a session token places the call a bearer token does`,
    );
    t.detail(`a call placed with a member's session token completed with its metadata as sent`);
  });

  // Members added at once, as a dashboard's bulk invite sends them: each is a member, and each
  // one's session token is accepted (a members list read, then written back after a round trip,
  // keeps one of them).
  check('SESSION-MEMBERS-AT-ONCE', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const subjects = await Promise.all(Array.from({ length: MEMBERS_AT_ONCE }, () => s.addMember(ALL_SCOPES)));
    for (const [i, sub] of subjects.entries())
      await expectAccepted(
        t,
        await s.mint({ sub }),
        `the session token of member ${i + 1} of ${MEMBERS_AT_ONCE} added at once`,
      );
    t.detail(`${MEMBERS_AT_ONCE} members added at once: each one's session token answered 200`);
  });

  check('SESSION-ES256', async (t) => {
    const s = await sessionWorkspace(t);
    await expectAccepted(t, await s.mint({ alg: 'RS256' }), 'an RS256 session token');
    await expectAccepted(t, await s.mint({ alg: 'ES256' }), 'an ES256 session token');
    t.detail('RS256 and ES256 tokens both answered 200');
  });

  check('SESSION-EXPIRED', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    await expectAllRefused(t, [
      ['expired 9 min ago', await s.mint({ issuedAtOffsetSec: -600 })],
      ['expired 1 h ago', await s.mint({ issuedAtOffsetSec: -3_660 })],
      // Not a NumericDate (RFC 7519): refused as invalid, or read as a number and refused as expired.
      [
        'expired 9 min ago, exp as a string',
        await s.mint({ issuedAtOffsetSec: -600, claims: { exp: String(nowSeconds() - 540) } }),
      ],
    ]);
  });

  // The spec gives session tokens a 60 s lifetime and no clock leeway either way; most JWT
  // validators allow a few seconds. So the leeway is measured and recorded, and only one
  // beyond the lifetime itself (a token alive twice as long) warns: SESSION-EXPIRED holds
  // the hard line (expired 9 min and more).
  check(
    'SESSION-LIFETIME-61S',
    async (t) => {
      const s = await sessionWorkspace(t);
      const fresh = await s.mint();
      const issuedAt = nowSeconds();
      const accepted = await expectControlAccepted(t, fresh, s.idp);
      const skew = wholeSecondsAhead(accepted.headers.date, Date.now(), accepted.durationMs);
      t.measure('target_clock_skew_s', skew);
      // Expired this long ago by the target's own clock: a second of skew between us must not decide the verdict.
      const leewaySeen: number[] = [];
      for (const expiredS of LEEWAY_PROBES_S) {
        const res = await whoami(t, await s.mint({ issuedAtOffsetSec: skew - SESSION_LIFETIME_S - expiredS }));
        if (res.status === 200) leewaySeen.push(expiredS);
        else {
          const problem = refusalProblem(res, `a token expired ${expiredS} s ago`);
          if (problem) t.fail(`${problem} (expected 401 invalid_token, or 200 within a clock leeway)`, res);
        }
      }
      const leeway = Math.max(0, ...leewaySeen);
      t.measure('exp_leeway_s', leeway === 0 ? 0 : `>= ${leeway}`);
      const beyond = [...LEEWAY_PROBES_S].filter(
        (expiredS) => expiredS > MAX_LEEWAY_S && leewaySeen.includes(expiredS),
      );
      if (beyond.length > 0)
        t.fail(
          `a token expired ${beyond.at(-1)} s ago was accepted: a clock leeway over ${MAX_LEEWAY_S} s lets a 60 s token live more than twice as long`,
        );
      if (t.run.tier === 'full') {
        // Real time: the token accepted above, presented again once its lifetime and the leeway seen have passed.
        await sleep(Math.max(0, (issuedAt + SESSION_LIFETIME_S + leeway + 1 - skew) * 1000 - Date.now()));
        judgeRefusals(t, [
          [`the same token ${SESSION_LIFETIME_S + leeway + 1} s after issue (real time)`, await whoami(t, fresh)],
        ]);
      }
      t.detail(
        leeway === 0
          ? 'no clock leeway: a token expired 1 s ago is refused'
          : `clock leeway of at least ${leeway} s on exp (the spec states none; up to ${MAX_LEEWAY_S} s is accepted)`,
      );
    },
    { timeoutMs: 100_000 },
  );

  // The other side of SESSION-EXPIRED and SESSION-NBF-FUTURE: inside its validity, however near its edges, a token is good.
  check('SESSION-VALIDITY-EDGES', async (t) => {
    const s = await sessionWorkspace(t);
    const accepted = await expectControlAccepted(t, await s.mint(), s.idp);
    const skew = wholeSecondsAhead(accepted.headers.date, Date.now(), accepted.durationMs);
    t.measure('target_clock_skew_s', skew);
    const now = nowSeconds() + skew;
    await expectAccepted(
      t,
      await s.mint({ issuedAtOffsetSec: skew - (SESSION_LIFETIME_S - EDGE_EXP_LEFT_S) }),
      `a token with ${EDGE_EXP_LEFT_S} s left before its exp`,
    );
    await expectAccepted(
      t,
      await s.mint({ claims: { nbf: now - EDGE_NBF_PAST_S } }),
      `a token whose nbf passed ${EDGE_NBF_PAST_S} s ago`,
    );
    t.detail(
      `accepted with ${EDGE_EXP_LEFT_S} s left before exp, and ${EDGE_NBF_PAST_S} s after nbf (target clock ${skew >= 0 ? '+' : ''}${skew} s)`,
    );
  });

  // A token judged once and remembered (a cache of verified tokens) outlives its exp: the used token is held to what an unused twin gets.
  check(
    'SESSION-EXPIRES-AFTER-USE',
    async (t) => {
      const s = await sessionWorkspace(t);
      const accepted = await expectControlAccepted(t, await s.mint(), s.idp);
      const skew = wholeSecondsAhead(accepted.headers.date, Date.now(), accepted.durationMs);
      const short = (jti: string) =>
        s.mint({ issuedAtOffsetSec: skew, lifetimeSec: SHORT_LIFETIME_S, claims: { jti } });
      const used = await short(`used-${randomBytes(6).toString('hex')}`);
      const expiresAtMs = (nowSeconds() + SHORT_LIFETIME_S) * 1000;
      await expectAccepted(t, used, `a token living ${SHORT_LIFETIME_S} s, used at once`);
      await expectAccepted(t, used, `the same token, used again at once`);
      const twin = await short(`unused-${randomBytes(6).toString('hex')}`);
      await sleep(Math.max(0, expiresAtMs + 1_000 - Date.now()));
      // Whatever leeway the target allows on exp, the unused twin shows when it is spent.
      const spent = await pollUntil(
        () => whoami(t, twin),
        (res) => res.status === 401,
        { timeoutMs: EXPIRY_WATCH_MS, intervalMs: ROTATION_POLL_MS },
      );
      if (!spent.ok)
        t.fail(
          `a token of the same exp, never used before, was still accepted ${Math.round((Date.now() - expiresAtMs) / 1000)} s after its exp (SESSION-LIFETIME-61S judges the leeway)`,
          spent.last,
        );
      const pastExpS = Math.round((Date.now() - expiresAtMs) / 1000);
      t.measure('seconds_past_exp', pastExpS);
      // On the kept-alive connection that used it, and on a fresh one: a cache may be either's.
      const again = `the token used while valid, presented again ${pastExpS} s after its exp (an unused token of the same exp is refused then)`;
      judgeRefusals(t, [
        [`${again}, kept-alive connection`, await whoami(t, used)],
        [`${again}, fresh connection`, await t.api.whoami(used, { fresh: true, timeoutMs: REQUEST_TIMEOUT_MS })],
      ]);
    },
    { timeoutMs: SHORT_LIFETIME_S * 1000 + EXPIRY_WATCH_MS + 20_000 },
  );

  check('SESSION-NBF-FUTURE', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const now = nowSeconds();
    await expectAllRefused(t, [
      ['nbf in 2 min', await s.mint({ claims: { nbf: now + 120, exp: now + 180 } })],
      ['nbf in 1 h', await s.mint({ claims: { iat: now + 3_600, nbf: now + 3_600, exp: now + 3_660 } })],
      ['nbf in 2 min as a string', await s.mint({ claims: { nbf: String(now + 120), exp: now + 180 } })],
    ]);
  });

  // The contract's conditions are the signature, iss, aud, nbf/exp and membership; iat is none of
  // them. Some libraries refuse an iat ahead of their clock (PyJWT): a should, not a must.
  check('SESSION-IAT-AHEAD', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const now = nowSeconds();
    const res = await whoami(t, await s.mint({ claims: { iat: now + IAT_AHEAD_S, exp: now + 120 } }));
    t.measure('status', res.status);
    assert(
      res.status === 200,
      `a session token issued ${IAT_AHEAD_S} s ahead (its iat), valid by its nbf and exp, got ${describeResponse(res)}: iat is none of the contract's conditions for a session token`,
      res,
    );
    t.detail(`a session token whose iat is ${IAT_AHEAD_S} s ahead, valid by nbf and exp, was accepted`);
  });

  // iat is none of the contract's conditions: a token without one is accepted like any other.
  check('SESSION-NO-IAT', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const res = await whoami(t, await s.mint({ claims: { iat: undefined } }));
    t.measure('status', res.status);
    assert(
      res.status === 200,
      `a session token without iat, valid by its signature, iss, aud, nbf/exp and member, got ${describeResponse(res)}: iat is none of the contract's conditions for a session token`,
      res,
    );
    t.detail('a session token without iat was accepted');
  });

  // A key of the JWKS that verifies is the contract's condition; a kid only helps find it. Common
  // stacks (jwks-rsa) need a kid once the JWKS holds several keys: a should.
  check('SESSION-NO-KID', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const res = await whoami(t, await s.mint({ header: { kid: undefined } }));
    t.measure('status', res.status);
    assert(
      res.status === 200,
      `a session token without kid, signed by an RS256 key of the JWKS (the only RS256 key listed), got ${describeResponse(res)}: the contract asks for a key of the JWKS that verifies it`,
      res,
    );
    t.detail('a session token without kid, verified by the JWKS key of its algorithm, was accepted');
  });

  // The same with two keys of the algorithm listed: "a key of that JWKS" leaves the verifier to try
  // each (jose hands them over; jwks-rsa asks for a kid, hence a should). Each key signs one token,
  // so that a verifier trying only the first key listed fails too.
  check('SESSION-NO-KID-SEVERAL-KEYS', async (t) => {
    const s = await sessionWorkspace(t);
    const first = s.idp.kidFor('RS256');
    // Listed before the target first fetches the JWKS, so that no cached copy lacks it.
    const second = await s.idp.addKey('RS256');
    await expectControlAccepted(t, await s.mint(), s.idp);
    for (const [name, kid] of [
      ['first', first],
      ['second', second],
    ] as const) {
      const res = await whoami(t, await s.mint({ kid, header: { kid: undefined } }));
      t.measure(`status_${name}_key`, res.status);
      assert(
        res.status === 200,
        `a session token without kid, signed by the ${name} of the two RS256 keys the JWKS lists, got ${describeResponse(res)}: the contract asks for a key of the JWKS that verifies it`,
        res,
      );
    }
    t.detail('session tokens without kid, each signed by one of two RS256 keys of the JWKS, were accepted');
  });

  // A workspace's licence bounds its members as it bounds its tokens (one identity model for both
  // schemes): a member recorded with a scope the workspace lacks does not hold it.
  check('SESSION-UNLICENSED-SCOPE', async (t) => {
    const idp = await startProvider(t);
    const workspace = await t.workspace({ licensedScopes: ['voice:read'] });
    await workspace.setIdentityProvider({ issuer: idp.issuer, jwksUri: idp.jwksUri, audience: idp.audience });
    const subject = newSubject();
    const added = await doneOrRefused(() => workspace.addMember(subject, ['voice:read', 'voice:write']), 'added');
    t.measure('member', added);
    if (added !== 'added') {
      t.detail(`a member asked for voice:write in a workspace licensed for voice:read alone was ${added}`);
      return;
    }
    const token = secret(await idp.mint({ sub: subject, claims: { aud: idp.audience } }));
    await expectControlAccepted(t, token, idp);
    const call = await t.api.placeCall(token, { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER });
    expectAuthError(
      call,
      'missing_scope',
      'placing a call (voice:write) with the session token of a member recorded with voice:read and voice:write, in a workspace licensed for voice:read alone: a member holds licensed scopes only',
    );
    t.detail(`the member was added; placing a call with its session token was refused ${call.status} missing_scope`);
  });

  // A JWT's dates are NumericDates, which may be non-integers (RFC 7519, section 2): a token within
  // its nbf/exp is within them with fractions too. Providers issue whole seconds: a should (the red
  // team's round 15 refused a fractional exp).
  check('SESSION-FRACTIONAL-DATES', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const now = nowSeconds();
    const claims = { iat: now - 0.25, nbf: now - 5.5, exp: now + 90.75 };
    const res = await whoami(t, await s.mint({ claims }));
    t.measure('status', res.status);
    assert(
      res.status === 200,
      `a session token with nbf ${claims.nbf}, iat ${claims.iat} and exp ${claims.exp} (NumericDates with fractions, RFC 7519), within them, got ${describeResponse(res)}`,
      res,
    );
    t.detail('a session token whose nbf, iat and exp carry fractions of a second was accepted');
  });

  // typ is not among the contract's conditions, and optional in RFC 7519: providers leave it out
  // (round 18 refused a token without it; the harness's tokens all carried typ: JWT).
  check('SESSION-TYP-OPTIONAL', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const res = await whoami(t, await s.mint({ header: { typ: undefined } }));
    t.measure('status', res.status);
    assert(
      res.status === 200,
      `a session token whose header has no typ (optional, RFC 7519), valid by every condition of the contract, got ${describeResponse(res)}`,
      res,
    );
    t.detail('a session token without typ in its header was accepted');
  });

  // The spec's 60 s is the provider's lifetime for the tokens it issues; the contract's condition is
  // "within nbf/exp". A provider configured for longer tokens is still within them: a should.
  check('SESSION-LONG-LIFETIME', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const now = nowSeconds();
    const res = await whoami(t, await s.mint({ claims: { iat: now, exp: now + LONG_LIFETIME_S } }));
    t.measure('status', res.status);
    assert(
      res.status === 200,
      `a session token issued now, expiring in ${LONG_LIFETIME_S} s, got ${describeResponse(res)}: it is within its nbf/exp, the contract's condition`,
      res,
    );
    t.detail(`a session token with a ${LONG_LIFETIME_S} s lifetime was accepted`);
  });

  check('SESSION-WRONG-ISSUER', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    await expectAllRefused(t, [
      [
        'iss of another provider',
        await s.mint({ claims: { iss: `https://idp.invalid/${randomBytes(4).toString('hex')}` } }),
      ],
      // The contract says "equals": no URL normalisation.
      ['iss with a trailing slash', await s.mint({ claims: { iss: `${s.idp.issuer}/` } })],
      // Near misses: a comparison that ignores case, reads a prefix or trims is not "equals".
      ['iss in upper case', await s.mint({ claims: { iss: s.idp.issuer.toUpperCase() } })],
      ['iss missing its last character', await s.mint({ claims: { iss: s.idp.issuer.slice(0, -1) } })],
      ['iss with a space after it', await s.mint({ claims: { iss: `${s.idp.issuer} ` } })],
      ['no iss', await s.mint({ claims: { iss: undefined } })],
    ]);
  });

  check('SESSION-WRONG-AUDIENCE', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    await expectAllRefused(t, [
      ['aud of another service', await s.mint({ claims: { aud: newAudience() } })],
      ['aud array without the audience', await s.mint({ claims: { aud: [newAudience(), newAudience()] } })],
      ['aud extending the audience', await s.mint({ claims: { aud: `${s.audience}x` } })],
      // Near misses: "is or contains" is about an array of audiences, never a part of the audience's text.
      ['aud missing its last character', await s.mint({ claims: { aud: s.audience.slice(0, -1) } })],
      ['aud in upper case', await s.mint({ claims: { aud: s.audience.toUpperCase() } })],
      ['aud with a space after it', await s.mint({ claims: { aud: `${s.audience} ` } })],
      ['no aud', await s.mint({ claims: { aud: undefined } })],
      // Absent and empty: an empty array contains no audience at all.
      ['aud an empty array', await s.mint({ claims: { aud: [] } })],
      ['aud an empty string', await s.mint({ claims: { aud: '' } })],
    ]);
  });

  check('SESSION-UNKNOWN-KID', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    // Signed by a listed key, so only the kid lookup can refuse it.
    await expectAllRefused(t, [
      ['RS256 under a kid not in the JWKS', await s.mint({ alg: 'RS256', header: { kid: unknownKid() } })],
      ['ES256 under a kid not in the JWKS', await s.mint({ alg: 'ES256', header: { kid: unknownKid() } })],
    ]);
  });

  check('SESSION-FOREIGN-KEY', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const claims = s.claims();
    await expectAllRefused(t, [
      [
        'RS256 foreign key under a listed kid',
        secret(await signWithForeignKey(claims, 'RS256', s.idp.kidFor('RS256'))),
      ],
      [
        'ES256 foreign key under a listed kid',
        secret(await signWithForeignKey(claims, 'ES256', s.idp.kidFor('ES256'))),
      ],
      ['RS256 foreign key under its own kid', secret(await signWithForeignKey(claims, 'RS256', unknownKid()))],
    ]);
  });

  check('SESSION-TAMPERED', async (t) => {
    const s = await sessionWorkspace(t);
    const narrow = await s.addMember(['voice:read']);
    const rs = await s.mint({ sub: narrow });
    const es = await s.mint({ sub: narrow, alg: 'ES256' });
    await expectControlAccepted(t, rs, s.idp);
    await expectAllRefused(t, [
      ['payload sub changed to a member with every scope', secret(tamperPayload(rs, { sub: s.subject }))],
      ['payload exp moved 1 h later', secret(tamperPayload(rs, { exp: nowSeconds() + 3_600 }))],
      ['RS256 signature bits flipped', secret(tamperSignature(rs))],
      ['ES256 signature bits flipped', secret(tamperSignature(es))],
      ['RS256 signature removed', secret(stripSignature(rs))],
      ['ES256 signature removed', secret(stripSignature(es))],
      ['header kid switched to the other listed key', secret(withKid(rs, s.idp.kidFor('ES256')))],
    ]);
  });

  check('SESSION-ALG-NONE', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const claims = s.claims();
    const kid = s.idp.kidFor('RS256');
    await expectAllRefused(t, [
      ...ALG_NONE_SPELLINGS.flatMap((spelling) => [
        [`alg ${spelling}`, secret(withAlgNone(claims, { spelling }))] as const,
        [`alg ${spelling} with a listed kid`, secret(withAlgNone(claims, { spelling, kid }))] as const,
      ]),
      // For validators that skip the signature of an unsecured token rather than require it empty.
      ['alg none keeping the RS256 signature', secret(withHeader(await s.mint(), { alg: 'none' }))],
    ]);
  });

  check('SESSION-HS256-CONFUSION', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    const claims = s.claims();
    const rsKid = s.idp.kidFor('RS256');
    const esKid = s.idp.kidFor('ES256');
    const rsPem = await s.idp.publicKeyPem(rsKid);
    const esPem = await s.idp.publicKeyPem(esKid);
    // PEM writers differ on the final newline; a confused verifier may hold either form.
    await expectAllRefused(t, [
      ['HS256 keyed with the RS256 public key PEM', secret(withHs256PublicKey(claims, rsPem, { kid: rsKid }))],
      [
        'HS256 keyed with the RS256 PEM and a final newline',
        secret(withHs256PublicKey(claims, `${rsPem}\n`, { kid: rsKid })),
      ],
      ['HS256 keyed with the ES256 public key PEM', secret(withHs256PublicKey(claims, esPem, { kid: esKid }))],
    ]);
  });

  check('SESSION-NOT-MEMBER', async (t) => {
    const s = await sessionWorkspace(t);
    await expectControlAccepted(t, await s.mint(), s.idp);
    await expectAllRefused(t, [
      ['sub of nobody', await s.mint({ sub: newSubject() })],
      // JWT sub is case-sensitive (RFC 7519, StringOrURI).
      ['sub of a member in upper case', await s.mint({ sub: s.subject.toUpperCase() })],
      // Nor is it trimmed: a member's sub with a space before or after it is another string (round 19).
      ['sub of a member with a trailing space', await s.mint({ sub: `${s.subject} ` })],
      ['sub of a member with a leading space', await s.mint({ sub: ` ${s.subject}` })],
      ['no sub', await s.mint({ claims: { sub: undefined } })],
    ]);
  });

  // The member record decides, not the token: an identity provider (or whoever holds its key) may put
  // any scope claim in a JWT, and the contract gives the caller "that member's scopes".
  check('SESSION-SCOPE-CLAIM-IGNORED', async (t) => {
    const s = await sessionWorkspace(t);
    const sub = await s.addMember(NARROWED_MEMBER);
    const claimed = ALL_SCOPES.join(' ');
    const token = await s.mint({ sub, claims: { scope: claimed, scp: [...ALL_SCOPES] } });
    const reads = await t.api.listAgents(token, { timeoutMs: REQUEST_TIMEOUT_MS });
    if (!(reads.status >= 200 && reads.status < 300))
      t.skip(
        `the member's own scope (voice:read) was not honoured: GET /v1/voice/agents answered ${describeResponse(reads)} (see SESSION-SCOPES-MATCH)`,
      );
    const placed = await t.api.placeCall(
      token,
      { agent_id: s.workspace.agentId, to: RESERVED_TEST_NUMBER },
      { timeoutMs: REQUEST_TIMEOUT_MS },
    );
    t.measure('place_call_status', placed.status);
    const problem = refusalCodeProblem(
      placed,
      'missing_scope',
      `POST /v1/voice/calls with the session token of a voice:read member whose JWT claims scope "${claimed}"`,
    );
    if (problem) t.fail(`${problem}: the token's own claim was taken over the member's scopes`);
    t.detail(
      `a voice:read member's JWT claiming every scope (scope and scp) read agents and was refused a call with missing_scope`,
    );
  });

  // A JWKS that cannot be had verifies nothing: the outage is no reason to take the claims on trust.
  check('SESSION-JWKS-UNAVAILABLE', async (t) => {
    const idp = await startProvider(t);
    const outages: ReadonlyArray<readonly [what: string, jwksUri: string]> = [
      ['a JWKS URL answering 404', `${idp.jwksUri}-gone`],
      [
        'a JWKS URL answering 200 with an HTML page',
        idp.hostForeign('jwks.html', 'text/html', '<html><body>maintenance</body></html>').url,
      ],
    ];
    const answers: Array<readonly [string, HttpResponse]> = [];
    const refusedAtSet: string[] = [];
    for (const [what, jwksUri] of outages) {
      const workspace = await t.workspace();
      const audience = newAudience();
      // A service may fetch the JWKS when it is set and refuse the setting: then no token can lean on it.
      const set = await doneOrRefused(() => workspace.setIdentityProvider({ issuer: idp.issuer, jwksUri, audience }));
      if (set !== 'done') {
        t.measure(`set_with_${answers.length + refusedAtSet.length}`, set);
        refusedAtSet.push(what);
        continue;
      }
      const sub = newSubject();
      await workspace.addMember(sub, ALL_SCOPES);
      // Signed by a key of the provider's real JWKS, every claim right: only the outage stands between it and acceptance.
      answers.push([
        `a well-formed token of ${what}`,
        await whoami(t, secret(await idp.mint({ sub, claims: { aud: audience } }))),
      ]);
    }
    if (answers.length === 0)
      return t.detail(
        `the control interface refused every provider whose JWKS cannot be had: ${refusedAtSet.join(', ')}`,
      );
    judgeRefusals(t, answers);
  });

  check('SESSION-OTHER-WORKSPACE', async (t) => {
    // One provider serving two workspaces told apart by audience (one hosted instance,
    // a template per workspace), and a third workspace with a provider of its own.
    const shared = await startProvider(t);
    const a = await sessionWorkspace(t, { idp: shared });
    const b = await sessionWorkspace(t, { idp: shared, audience: newAudience() });
    const c = await sessionWorkspace(t);
    for (const [name, s] of [
      ['A', a],
      ['B', b],
      ['C', c],
    ] as const) {
      await expectControlAccepted(t, await s.mint(), s.idp).catch((error: Error) =>
        t.fail(`workspace ${name}: ${error.message}`),
      );
    }
    await expectAllRefused(t, [
      ["B's audience with a member of A only (shared provider)", await b.mint({ sub: a.subject })],
      ["A's audience with a member of B only (shared provider)", await a.mint({ sub: b.subject })],
      ["C's provider with a member of A only", await c.mint({ sub: a.subject })],
      [
        "C's key claiming A's issuer and audience",
        secret(await c.idp.mint({ sub: a.subject, claims: { iss: shared.issuer, aud: a.audience } })),
      ],
    ]);
  });

  // An identity provider's user may be a member of two workspaces, with other scopes in each
  // ("all access is scoped to one workspace"): a member record keyed by subject alone mixes them.
  check('SESSION-SAME-SUBJECT', async (t) => {
    const shared = await startProvider(t);
    const readOnly = await sessionWorkspace(t, { idp: shared, scopes: NARROWED_MEMBER });
    const full = await sessionWorkspace(t, { idp: shared, audience: newAudience() });
    // The read-only member of the first workspace becomes a member of the second with every scope.
    await full.addMember(ALL_SCOPES, readOnly.subject);
    const inFull = await pollUntil(
      async () =>
        t.api.placeCall(await full.mint({ sub: readOnly.subject }), {
          agent_id: full.workspace.agentId,
          to: RESERVED_TEST_NUMBER,
        }),
      (res) => res.status >= 200 && res.status < 300,
      SETTLE_POLL,
    );
    if (!inFull.ok)
      t.fail(
        `the subject added to a second workspace with every scope could not place a call there: ${describeResponse(inFull.last)}`,
        inFull.last,
      );
    const agents = await t.api.listAgents(await readOnly.mint());
    if (!(agents.status >= 200 && agents.status < 300))
      t.fail(
        `the same subject's session token for its first workspace (voice:read) could not list agents: ${describeResponse(agents)}`,
        agents,
      );
    const call = await t.api.placeCall(await readOnly.mint(), {
      agent_id: readOnly.workspace.agentId,
      to: RESERVED_TEST_NUMBER,
    });
    t.measure('first_workspace_call_status', call.status);
    if (call.status >= 200 && call.status < 300)
      t.fail(
        `a member with voice:read in one workspace placed a call there (voice:write) once the same subject was a member of another workspace with every scope: that workspace's scopes reached this one`,
        call,
      );
    expectAuthError(
      call,
      'missing_scope',
      "placing a call with the session token of the first workspace's voice:read member",
    );
    t.detail(
      'one subject, voice:read in one workspace and every scope in another: a call placed in the second, refused missing_scope in the first, whose agents it lists',
    );
  });

  check(
    'SESSION-MUTATION-PROPERTY',
    async (t) => {
      const s = await sessionWorkspace(t);
      const valid = await s.mint();
      await expectControlAccepted(t, valid, s.idp);
      const seed = t.run.seed;
      const statuses: Record<string, number> = {};
      let runs = 0;
      let offending: string | undefined;
      let offendingAnswer: HttpResponse | undefined;
      const result = await fc.check(
        fc.asyncProperty(jwtMutation(valid), async (mutation: JwtMutation) => {
          runs += 1;
          const res = await whoami(t, secret(mutation.token));
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          // The contract: anything but a valid token is 401 invalid_token, however it fails.
          const problem = refusalProblem(res, mutation.description);
          if (problem) {
            offending = `${mutation.description} got ${describeResponse(res)} (${problem})`;
            offendingAnswer = res;
          }
          return problem === undefined;
        }),
        {
          numRuns: MUTATION_RUNS,
          seed,
          interruptAfterTimeLimit: MUTATION_TIME_LIMIT_MS,
          markInterruptAsFailure: false,
        },
      );
      t.measure('seed', seed);
      t.measure('runs', runs);
      t.measure('statuses', statuses);
      if (result.failed) {
        // fc.stringify prints a mutation as its edits, never the token.
        const cause =
          offending ??
          `${fc.stringify(result.counterexample?.[0])}: ${String((result.errorInstance as Error | undefined)?.message ?? 'error')}`;
        t.fail(
          `a mutated session token was not refused with 401 invalid_token: ${cause} (seed ${seed}, path ${result.counterexamplePath}; rerun with FAST_CHECK_SEED=${seed})`,
          offendingAnswer,
        );
      }
      // The original must still be good, or the mutations were judged against an expired token.
      await expectAccepted(t, valid, 'the unmutated token after the mutations');
      t.detail(
        `${runs} mutations of header, payload or signature refused with 401 invalid_token (seed ${seed}); statuses ${JSON.stringify(statuses)}`,
      );
    },
    { timeoutMs: MUTATION_TIME_LIMIT_MS + 2 * REQUEST_TIMEOUT_MS + 10_000 },
  );

  check(
    'SESSION-PROVIDER-CHANGED',
    async (t) => {
      const s = await sessionWorkspace(t);
      await expectControlAccepted(t, await s.mint(), s.idp);
      // The workspace owner moves to another provider: another issuer, audience and JWKS.
      const next = await startProvider(t);
      const audience = newAudience();
      await s.workspace.setIdentityProvider({ issuer: next.issuer, jwksUri: next.jwksUri, audience });
      const fromNext = (claims: Record<string, unknown> = {}) =>
        next.mint({ sub: s.subject, claims: { aud: audience, ...claims } }).then(secret);
      const taken = await pollUntil(
        async () => whoami(t, await fromNext()),
        (res) => res.status === 200,
        { timeoutMs: SETTING_LIMIT_MS, intervalMs: ROTATION_POLL_MS },
      );
      t.measure('new_provider_accepted_ms', taken.ok ? Math.round(taken.elapsedMs) : null);
      if (!taken.ok)
        t.fail(
          `a token of the newly set provider (its issuer, audience and key) still got ${describeResponse(taken.last)} ${Math.round(taken.elapsedMs / 1000)} s after the change`,
          taken.last,
        );
      // The old provider's token is refused once a cache of it expires, within the same bound.
      const old = await pollUntil(
        async () => whoami(t, await s.mint()),
        (res) => res.status === 401,
        { timeoutMs: SETTING_LIMIT_MS, intervalMs: ROTATION_POLL_MS },
      );
      t.measure('old_provider_refused_ms', old.ok ? Math.round(old.elapsedMs) : null);
      if (!old.ok)
        t.fail(
          `a token of the provider set before still got ${describeResponse(old.last)} ${Math.round(old.elapsedMs / 1000)} s after another was set`,
          old.last,
        );
      // Each part of the old setting on its own, beside the new ones.
      await expectAllRefused(t, [
        ["the old provider's token", await s.mint()],
        [
          'the old key, with the new issuer and audience',
          secret(await s.idp.mint({ sub: s.subject, claims: { iss: next.issuer, aud: audience } })),
        ],
        ['the new key, with the old issuer', await fromNext({ iss: s.idp.issuer })],
        ['the new key, with the old audience', await fromNext({ aud: s.audience })],
      ]);
      await expectAccepted(t, await fromNext(), "a token of the new provider, after the old one's were refused");
      t.detail(
        `another provider set: its token accepted after ${(taken.elapsedMs / 1000).toFixed(1)} s, the old one's refused after ${(old.elapsedMs / 1000).toFixed(1)} s; the old issuer, audience and key refused one by one`,
      );
    },
    { timeoutMs: 2 * SETTING_LIMIT_MS + 20_000 },
  );

  check(
    'SESSION-MEMBER-RESCOPED',
    async (t) => {
      const s = await sessionWorkspace(t);
      // Used before the member is narrowed, and again after: its scopes are the member's at each request.
      const before = await s.mint({ lifetimeSec: KEPT_TOKEN_LIFETIME_S });
      const agents = await t.api.listAgents(before);
      if (!(agents.status >= 200 && agents.status < 300))
        t.fail(
          `control: the member's session token (every scope) listing agents got ${describeResponse(agents)} instead of a 2xx`,
          agents,
        );
      try {
        await s.addMember(['voice:write'], s.subject);
      } catch (error) {
        if (!(error instanceof ControlError) || !error.refused) throw error;
        t.measure('second_addition', `refused ${error.status}`);
        t.detail(`adding the member again with other scopes was refused with ${error.status}`);
        return;
      }
      t.measure('second_addition', 'accepted');
      // Narrowed to voice:write: the agent list (voice:read) is refused, a call is placed.
      const narrowed = await pollUntil(
        async () => t.api.listAgents(await s.mint()),
        (res) => !(res.status >= 200 && res.status < 300),
        { timeoutMs: SETTING_LIMIT_MS, intervalMs: ROTATION_POLL_MS },
      );
      t.measure('new_scopes_effective_ms', narrowed.ok ? Math.round(narrowed.elapsedMs) : null);
      if (!narrowed.ok)
        t.fail(
          `the member added again with voice:write only still lists agents (voice:read) ${Math.round(narrowed.elapsedMs / 1000)} s later: its first scopes stayed`,
        );
      expectAuthError(
        narrowed.last,
        'missing_scope',
        'listing agents with the session token of a member narrowed to voice:write',
      );
      const reused = await t.api.listAgents(before);
      t.measure('token_used_before_status', reused.status);
      if (reused.status >= 200 && reused.status < 300)
        t.fail(
          `a session token used before its member was narrowed to voice:write still lists agents (voice:read) after new tokens are refused: the scopes it was first given stayed with it`,
          reused,
        );
      const call = await t.api.placeCall(await s.mint(), { agent_id: s.workspace.agentId, to: RESERVED_TEST_NUMBER });
      if (!(call.status >= 200 && call.status < 300))
        t.fail(
          `placing a call (voice:write) with the session token of the member added again with voice:write: expected a 2xx, got ${describeResponse(call)}`,
          call,
        );
      t.detail(
        `the member added again with voice:write: agents refused missing_scope after ${(narrowed.elapsedMs / 1000).toFixed(1)} s, to the token used before too (${reused.status}); a call placed`,
      );
    },
    { timeoutMs: SETTING_LIMIT_MS + 20_000 },
  );

  check(
    'SESSION-KEY-ROTATION',
    async (t) => {
      const s = await sessionWorkspace(t);
      const oldKid = s.idp.kidFor('RS256');
      await expectControlAccepted(t, await s.mint({ kid: oldKid }), s.idp);
      const newKid = await s.idp.addKey('RS256');
      const added = await pollUntil(
        async () => whoami(t, await s.mint({ kid: newKid })),
        (res) => res.status === 200,
        {
          timeoutMs: ROTATION_LIMIT_MS,
          intervalMs: ROTATION_POLL_MS,
        },
      );
      t.measure('added_key_accepted_ms', added.ok ? added.elapsedMs : null);
      if (!added.ok)
        t.fail(
          `a token signed by a key added to the JWKS still got ${describeResponse(added.last)} after ${Math.round(added.elapsedMs / 1000)} s`,
          added.last,
        );
      s.idp.removeKey(oldKid);
      const removed = await pollUntil(
        async () => whoami(t, await s.mint({ kid: oldKid })),
        (res) => res.status === 401,
        {
          timeoutMs: ROTATION_LIMIT_MS,
          intervalMs: ROTATION_POLL_MS,
        },
      );
      t.measure('removed_key_refused_ms', removed.ok ? removed.elapsedMs : null);
      t.measure('jwks_fetches', s.idp.jwksFetchCount);
      if (!removed.ok)
        t.fail(
          `a token signed by a key removed from the JWKS still got ${describeResponse(removed.last)} after ${Math.round(removed.elapsedMs / 1000)} s`,
          removed.last,
        );
      await expectAllRefused(t, [['signed by the removed key', await s.mint({ kid: oldKid })]]);
      await expectAccepted(t, await s.mint({ kid: newKid }), 'the added key after the old one was removed');
      t.detail(
        `added key accepted after ${(added.elapsedMs / 1000).toFixed(1)} s, removed key refused after ${(removed.elapsedMs / 1000).toFixed(1)} s; JWKS fetched ${s.idp.jwksFetchCount} times`,
      );
    },
    { timeoutMs: 2 * ROTATION_LIMIT_MS + 20_000 },
  );
});
