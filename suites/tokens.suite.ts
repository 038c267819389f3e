/**
 * Bearer tokens: two active at most, default scopes, prefixes, and rotation without
 * downtime (Authentication > Bearer tokens; Rotation without downtime; Limits).
 */
import { RESERVED_TEST_NUMBER } from '../src/api/service.js';
import { ROTATION_DEPLOY_DEFAULT_MS } from '../src/config/settings.js';
import type { CreatedToken } from '../src/control/types.js';
import { ALL_SCOPES } from '../src/control/types.js';
import { ControlError } from '../src/errors.js';
import {
  assert,
  certifySuite,
  check,
  describeResponse,
  doneOrRefused,
  expectAuthError,
  is2xx,
} from '../src/suite/index.js';
import { pollUntil, sleep } from '../src/clock/wait.js';
import { REVOCATION_LIMIT_MS } from '../src/limits.js';

/** A label past a short column's width, with non-ASCII characters and spaces at both ends and twice inside: free text, as the spec says. */
// Characters a normaliser changes (NFC, NFKC), an HTML escaper, a trimmer or a short column would alter.
const LONG_LABEL = ` certify deploy 2026-11 — ünïcode ✓  rotation of the "billing" <service> token & its 'backup' \uFB01le Ｑ４ cafe\u0301 🚀 `;
/** How long the new token is still watched after the old one is first refused. */
const ROTATION_SETTLE_MS = 5_000;
/** Two requests per round, a round at most every 50 ms: 40 requests a second at most. */
const ROTATION_ROUND_MS = 50;
/** Answers (not 429s) with the new token below which ROTATION-NO-DOWNTIME cannot judge downtime. */
const ROTATION_MIN_ANSWERS = 10;
/** Through the deploy phase each token is used at most this often, alternating whoami and the agents list. */
const DEPLOY_ROUND_MS = 150;
/**
 * The check's own bound, fixed when the suite is declared (before the run's settings are read):
 * the longest deploy phase the setting allows, and the workspace's set-up and removal.
 */
const DEPLOY_CHECK_TIMEOUT_MS = 600_000 + 30_000;
/** Creations sent at once beside one active token: one free slot, three too many. */
const CONCURRENT_CREATIONS = 4;

/** The spec's limit of active tokens per workspace. */
const MAX_ACTIVE_TOKENS = 2;

type Creation = { created: CreatedToken } | { refused: number };

/** A token creation that the target may refuse (any 4xx, the contract's "refused"). */
async function tryCreate(create: () => Promise<CreatedToken>): Promise<Creation> {
  try {
    return { created: await create() };
  } catch (error) {
    if (!(error instanceof ControlError) || !error.refused) throw error;
    return { refused: error.status! };
  }
}

interface DeployFailure {
  token: 'old' | 'new';
  request: string;
  /** After the new token's creation. */
  atMs: number;
  answer: string;
}

/** Whether two scope lists hold the same scopes, in any order. */
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && b.every((scope) => a.includes(scope));
}

certifySuite('tokens', () => {
  check('TOKEN-LIMIT-TWO', async (t) => {
    const workspace = await t.workspace();
    const first = await workspace.createToken('certify first');
    await workspace.createToken('certify second');
    let refusal: ControlError | undefined;
    try {
      await workspace.createToken('certify third');
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      refusal = error;
    }
    assert(refusal, 'a third active token was created: the workspace holds more than two');
    // The limit is the workspace's: another workspace takes its first token while this one is full.
    const other = await t.workspace();
    const elsewhere = await doneOrRefused(() => other.createToken('certify other workspace'));
    assert(
      elsewhere === 'done',
      `with one workspace at its two tokens, another workspace's first token was ${elsewhere}: the limit counted beyond the workspace`,
    );
    await workspace.revokeToken(first);
    const replacement = await workspace.createToken('certify replacement');
    const res = await t.api.whoami(replacement.token);
    assert(
      res.status === 200,
      `a token created after revoking one: expected whoami 200, got ${describeResponse(res)}`,
      res,
    );
    t.detail(
      `third token refused with ${refusal.status}; another workspace took a token meanwhile; a slot freed after revocation`,
    );
    t.measure('third_token_status', refusal.status);
  });

  // TOKEN-LIMIT-TWO takes any 4xx as the refusal; the contract names the status, and another one
  // (a 429 above all) tells a client to wait and try again, which never helps here.
  check('TOKEN-LIMIT-409', async (t) => {
    const workspace = await t.workspace();
    await workspace.createToken('certify first');
    await workspace.createToken('certify second');
    const third = await doneOrRefused(() => workspace.createToken('certify third'), 'created');
    t.measure('third_token', third);
    if (third === 'created') t.skip('a third token was created (TOKEN-LIMIT-TWO fails it): no refusal to read');
    assert(third === 'refused 409', `a third active token was ${third}: the contract refuses it with 409`);
    t.detail('a third active token refused with 409');
  });

  check('TOKEN-DEFAULT-SCOPES', async (t) => {
    const workspace = await t.workspace({ licensedScopes: ['voice:read', 'mailer:read'] });
    const token = await workspace.createToken('certify default scopes');
    const agents = await t.api.listAgents(token.token);
    assert(
      is2xx(agents.status),
      `agents with a default-scope token of a voice:read workspace: expected a 2xx, got ${describeResponse(agents)}`,
      agents,
    );
    const call = await t.api.placeCall(token.token, { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER });
    expectAuthError(
      call,
      'missing_scope',
      'placing a call with a default-scope token of a workspace not licensed voice:write',
    );
    // Created with no licensed_scopes right after a narrowly licensed workspace: licensed for all
    // five, the contract's default, not the last list given (round 18). A narrowed token first:
    // the default is the licensed scopes, not what the last token got.
    const full = await t.workspace();
    await full.createToken('certify narrowed before the default', ['voice:read']);
    const fullToken = await full.createToken('certify default scopes, all licensed');
    // The creation's answer lists the token's scopes (the contract): a default token's are all five licensed.
    const missing = ALL_SCOPES.filter((scope) => !fullToken.scopes.includes(scope));
    t.measure('default_token_scopes_answered', fullToken.scopes);
    assert(
      fullToken.scopes.length === 0 || missing.length === 0,
      `a token created without scopes in a workspace created without licensed_scopes (all five) was answered with scopes ${JSON.stringify(fullToken.scopes)}, without ${missing.join(', ')}: by default a token has every licensed scope`,
    );
    const placed = await t.api.placeCall(fullToken.token, { agent_id: full.agentId, to: RESERVED_TEST_NUMBER });
    assert(
      is2xx(placed.status),
      `placing a call with a default-scope token of a workspace created without licensed_scopes (so licensed for all five) after a narrowly licensed one, and after a voice:read token: expected a 2xx, got ${describeResponse(placed)}`,
      placed,
    );
    // Licensed for nothing: a default token holds nothing (an empty list is no "not given").
    let none: Awaited<ReturnType<typeof t.workspace>>;
    try {
      none = await t.workspace({ licensedScopes: [] });
    } catch (error) {
      if (!(error instanceof ControlError) || !error.refused) throw error;
      t.measure('workspace_licensed_nothing', `refused ${error.status}`);
      return;
    }
    t.measure('workspace_licensed_nothing', 'created');
    const created = await tryCreate(() => none.createToken('certify default scopes, nothing licensed'));
    t.measure('token_of_unlicensed_workspace', 'created' in created ? 'created' : `refused ${created.refused}`);
    if ('refused' in created) return;
    expectAuthError(
      await t.api.listAgents(created.created.token),
      'missing_scope',
      'agents with a default-scope token of a workspace licensed for no scope',
    );
  });

  // The creation's answer lists the token's scopes: a narrowed token's answer is what it holds,
  // which a dashboard shows (round 18 answered the workspace's licensed scopes).
  check('TOKEN-ANSWER-SCOPES', async (t) => {
    const workspace = await t.workspace({ licensedScopes: [...ALL_SCOPES] });
    // Two tokens: the workspace's limit.
    const asked: ReadonlyArray<readonly string[]> = [['voice:read'], ['mailer:write', 'voice:write']];
    const answered: Record<string, string[]> = {};
    for (const scopes of asked) {
      const token = await workspace.createToken(`certify answer ${scopes.join(' ')}`, scopes);
      answered[scopes.join(',')] = token.scopes;
    }
    t.measure('answered', answered);
    const wrong = asked.filter((scopes) => !sameSet(answered[scopes.join(',')]!, scopes));
    assert(
      wrong.length === 0,
      `tokens created with some scopes were answered with others: ${wrong.map((scopes) => `asked ${JSON.stringify(scopes)}, answered ${JSON.stringify(answered[scopes.join(',')])}`).join('; ')}`,
    );
    t.detail(
      `tokens created with ${asked.map((scopes) => scopes.join(' and ')).join(', then ')} were each answered with exactly those`,
    );
  });

  check('TOKEN-STAGING-PREFIX', async (t) => {
    const capabilities = await t.capabilities();
    const expected = capabilities.environment === 'production' ? 'svc_live_' : 'svc_test_';
    const { token } = await t.workspaceWithToken();
    assert(token.token.startsWith(expected), `a ${capabilities.environment} token does not start with ${expected}`);
    t.detail(`${capabilities.environment} tokens carry ${expected}`);
  });

  // "Label (free text chosen at creation)": the answer names it as chosen, or refuses it. A long
  // label with non-ASCII characters, and an empty one (round 19 stored it as "Untitled token"):
  // two tokens, the workspace's limit.
  check('TOKEN-LABEL-AS-GIVEN', async (t) => {
    const workspace = await t.workspace();
    const outcomes: string[] = [];
    for (const [what, label] of [
      [`a label of ${[...LONG_LABEL].length} characters, non-ASCII ones too`, LONG_LABEL],
      ['an empty label', ''],
    ] as const) {
      let created: CreatedToken;
      try {
        created = await workspace.createToken(label);
      } catch (error) {
        if (!(error instanceof ControlError) || !error.refused) throw error;
        outcomes.push(`${what}: refused with ${error.status}`);
        continue;
      }
      t.measure(label === '' ? 'empty_label_answered' : 'label_answered', created.label ?? null);
      if (created.label === undefined) {
        outcomes.push(`${what}: the creation's answer names no label, nothing to compare`);
        continue;
      }
      assert(
        created.label === label,
        `a token created with ${what} (${JSON.stringify(label)}) was answered with the label ${JSON.stringify(created.label)}`,
      );
      outcomes.push(`${what}: answered as given`);
    }
    t.detail(outcomes.join('; '));
  });

  check('ROTATION-BOTH-ACTIVE', async (t) => {
    const workspace = await t.workspace();
    const old = await workspace.createToken('certify old');
    const fresh = await workspace.createToken('certify new');
    for (const [name, token] of [
      ['old', old],
      ['new', fresh],
    ] as const) {
      for (const connection of [false, true]) {
        const res = await t.api.whoami(token.token, { fresh: connection });
        assert(
          res.status === 200,
          `whoami with the ${name} token (${connection ? 'fresh' : 'kept-alive'} connection): expected 200, got ${describeResponse(res)}`,
          res,
        );
      }
    }
  });

  check('TOKEN-LIMIT-CONCURRENT', async (t) => {
    const workspace = await t.workspace();
    const first = await workspace.createToken('certify first');
    const outcomes = await Promise.all(
      Array.from({ length: CONCURRENT_CREATIONS }, (_, i) =>
        tryCreate(() => workspace.createToken(`certify concurrent ${i + 1}`)),
      ),
    );
    const created = outcomes.flatMap((outcome) => ('created' in outcome ? [outcome.created] : []));
    const refusals = outcomes.flatMap((outcome) => ('refused' in outcome ? [outcome.refused] : []));
    // Once every creation has answered, whoami says which tokens the service holds active.
    const tokens = [first, ...created];
    const answers = await Promise.all(tokens.map((token) => t.api.whoami(token.token)));
    const accepted = answers.filter((res) => res.status === 200).length;
    t.measure('granted', created.length);
    t.measure('refusal_statuses', refusals);
    t.measure(
      'whoami_statuses',
      answers.map((res) => res.status),
    );
    assert(
      accepted <= 2,
      `${created.length} of ${CONCURRENT_CREATIONS} token creations sent at once beside one active token were granted, and whoami accepts ${accepted} of the workspace's tokens afterwards: a workspace holds at most two active tokens`,
    );
    assert(
      new Set(tokens.map((token) => token.tokenId)).size === tokens.length,
      'two tokens created at once were given the same token_id',
    );
    assert(
      new Set(tokens.map((token) => token.token)).size === tokens.length,
      'two tokens created at once were given the same secret',
    );
    t.detail(
      `${CONCURRENT_CREATIONS} creations at once beside one active token: ${created.length} granted, ${refusals.length} refused (${[...new Set(refusals)].join(', ') || 'none'}); whoami accepts ${accepted} of ${tokens.length} tokens`,
    );
  });

  // A limit held by a counter, decremented by each revocation that saw the token active, frees
  // a slot twice when the same token is revoked twice at once: only revocations sent together show it.
  check('TOKEN-REVOKE-CONCURRENT', async (t) => {
    const workspace = await t.workspace();
    const revoked = await workspace.createToken('certify revoked twice at once');
    const kept = await workspace.createToken('certify kept');
    const [firstRevocation, secondRevocation, beside] = await Promise.all([
      doneOrRefused(() => workspace.revokeToken(revoked)),
      doneOrRefused(() => workspace.revokeToken(revoked)),
      tryCreate(() => workspace.createToken('certify created beside the revocations')),
    ]);
    t.measure('revocations', [firstRevocation, secondRevocation]);
    t.measure('creation_beside', 'created' in beside ? 'created' : `refused ${beside.refused}`);
    assert(
      firstRevocation === 'done' || secondRevocation === 'done',
      `both revocations of the same token sent at once were refused (${firstRevocation}, ${secondRevocation}): one of them must revoke it`,
    );
    // Once all have answered, the workspace is filled to its limit one creation at a time.
    const created = 'created' in beside ? [beside.created] : [];
    for (let attempt = 0; attempt < MAX_ACTIVE_TOKENS + 1; attempt++) {
      const next = await tryCreate(() => workspace.createToken(`certify after the revocations ${attempt + 1}`));
      if ('refused' in next) break;
      created.push(next.created);
    }
    // A revocation has up to a minute to reach every backend: the revoked token is counted only if still accepted then.
    const gone = await pollUntil(
      () => t.api.whoami(revoked.token, { fresh: true }),
      (res) => res.status === 401,
      { timeoutMs: REVOCATION_LIMIT_MS, intervalMs: 250 },
    );
    t.measure('revoked_refused_after_ms', gone.ok ? Math.round(gone.elapsedMs) : null);
    const tokens = [kept, ...created];
    const answers = await Promise.all(tokens.map((token) => t.api.whoami(token.token)));
    const accepted = answers.filter((res) => res.status === 200).length + (gone.ok ? 0 : 1);
    t.measure('created_after', created.length);
    t.measure(
      'whoami_statuses',
      answers.map((res) => res.status),
    );
    assert(
      accepted <= MAX_ACTIVE_TOKENS,
      `one token revoked twice at once beside a creation, then tokens created until refused: ${created.length} created, and whoami accepts ${accepted} of the workspace's tokens${gone.ok ? '' : ' (the revoked one still among them)'}: a workspace holds at most two active tokens, and a revoked token frees one slot`,
      gone.ok ? answers.findLast((res) => res.status === 200) : gone.last,
    );
    t.detail(
      `revocations ${firstRevocation} and ${secondRevocation}, the creation beside them ${'created' in beside ? 'granted' : `refused ${beside.refused}`}; creations until refused: ${created.length} granted in all, whoami accepts ${accepted} of the workspace's tokens`,
    );
  });

  // A revocation that reads the workspace's tokens, then writes them back after a round trip,
  // undoes another revocation made meanwhile: only two tokens revoked at once show it.
  check('TOKEN-REVOKE-BOTH-AT-ONCE', async (t) => {
    const workspace = await t.workspace();
    const tokens = [
      await workspace.createToken('certify revoked at once 1'),
      await workspace.createToken('certify revoked at once 2'),
    ];
    await Promise.all(tokens.map((token) => workspace.revokeToken(token)));
    const outcomes = await Promise.all(
      tokens.map((token) =>
        pollUntil(
          () => t.api.whoami(token.token, { fresh: true, timed: true }),
          (res) => res.status === 401,
          { timeoutMs: REVOCATION_LIMIT_MS, intervalMs: 250 },
        ),
      ),
    );
    t.measure(
      'refused_after_ms',
      outcomes.map((outcome) => (outcome.ok ? Math.round(outcome.elapsedMs) : null)),
    );
    const accepted = outcomes.flatMap((outcome, i) =>
      outcome.ok ? [] : [`token ${i + 1}: ${describeResponse(outcome.last)}`],
    );
    assert(
      accepted.length === 0,
      `two tokens revoked at once (both revocations answered 2xx), one of them still accepted ${REVOCATION_LIMIT_MS / 1000} s later: ${accepted.join('; ')}`,
      outcomes.find((outcome) => !outcome.ok)?.last,
    );
    t.detail(
      `two tokens revoked at once; both refused with 401, after ${outcomes.map((outcome) => `${(outcome.elapsedMs / 1000).toFixed(1)} s`).join(' and ')}`,
    );
  });

  check('TOKEN-EMPTY-SCOPES', async (t) => {
    const workspace = await t.workspace();
    const creation = await tryCreate(() => workspace.createToken('certify empty scopes', []));
    if ('refused' in creation) {
      t.measure('creation', `refused ${creation.refused}`);
      t.detail(`a token with scopes [] was refused with ${creation.refused}`);
      return;
    }
    const { token } = creation.created;
    t.measure('creation', 'created');
    t.measure('scopes_answered', creation.created.scopes);
    const agents = await t.api.listAgents(token);
    expectAuthError(
      agents,
      'missing_scope',
      'listing agents (voice:read) with a token created with scopes []: an empty list narrows to no scope',
    );
    const call = await t.api.placeCall(token, { agent_id: workspace.agentId, to: RESERVED_TEST_NUMBER });
    expectAuthError(
      call,
      'missing_scope',
      'placing a call (voice:write) with a token created with scopes []: an empty list narrows to no scope',
    );
    const whoami = await t.api.whoami(token);
    t.measure('whoami_status', whoami.status);
    t.detail(
      `a token with scopes [] was created; agents ${agents.status} missing_scope, call ${call.status} missing_scope, whoami ${whoami.status}`,
    );
  });

  // "Narrowed to a subset of scopes": a subset of the licensed ones. Asking for more grants nothing
  // the workspace lacks (the red team's round 15: the creation checked scopes against every scope
  // that exists, not the licence).
  check('TOKEN-UNLICENSED-SCOPE', async (t) => {
    const workspace = await t.workspace({ licensedScopes: ['voice:read'] });
    const creation = await tryCreate(() =>
      workspace.createToken('certify unlicensed scope', ['voice:read', 'voice:write']),
    );
    if ('refused' in creation) {
      t.measure('creation', `refused ${creation.refused}`);
      t.detail(
        `a token asked for voice:write in a workspace licensed for voice:read alone was refused with ${creation.refused}`,
      );
      return;
    }
    t.measure('creation', 'created');
    t.measure('scopes_answered', creation.created.scopes);
    const call = await t.api.placeCall(creation.created.token, {
      agent_id: workspace.agentId,
      to: RESERVED_TEST_NUMBER,
    });
    expectAuthError(
      call,
      'missing_scope',
      'placing a call (voice:write) with a token asked for voice:read and voice:write in a workspace licensed for voice:read alone: a token holds licensed scopes only',
    );
    t.detail(`the token was created; placing a call was refused ${call.status} missing_scope`);
  });

  check(
    'ROTATION-DEPLOY-PHASE',
    async (t) => {
      const deployMs = t.run.rotationDeployMs ?? ROTATION_DEPLOY_DEFAULT_MS;
      const workspace = await t.workspace();
      const old = await workspace.createToken('certify old');
      const fresh = await workspace.createToken('certify new');
      const createdAt = performance.now();
      // Both tokens are in use while the new one is deployed, as servers still on the old one
      // and servers already on the new one would use them: whoami and a scoped call, on fresh
      // and kept-alive connections, each judged on its own.
      const requests = [
        {
          name: 'whoami',
          send: (token: string, newConnection: boolean) => t.api.whoami(token, { fresh: newConnection, timed: true }),
          ok: (status: number) => status === 200,
        },
        {
          name: 'agents',
          send: (token: string, newConnection: boolean) =>
            t.api.listAgents(token, { fresh: newConnection, timed: true }),
          ok: is2xx,
        },
      ];
      const failures: DeployFailure[] = [];
      const sent = { old: 0, new: 0 };
      let rateLimited = 0;
      const use = async (which: 'old' | 'new', token: CreatedToken) => {
        for (let round = 0; performance.now() - createdAt < deployMs; round++) {
          const paced = sleep(DEPLOY_ROUND_MS);
          const request = requests[round % requests.length]!;
          const res = await request.send(token.token, round % 4 >= 2);
          sent[which] += 1;
          if (res.status === 429) rateLimited += 1;
          else if (!request.ok(res.status))
            failures.push({
              token: which,
              request: request.name,
              atMs: Math.round(performance.now() - createdAt),
              answer: describeResponse(res),
            });
          await paced;
        }
      };
      await Promise.all([use('old', old), use('new', fresh)]);
      // The rotation's last step, once both tokens have served the whole phase.
      await workspace.revokeToken(old);
      t.measure('deploy_phase_ms', deployMs);
      t.measure('requests', sent);
      t.measure('rate_limited', rateLimited);
      t.measure('failures', failures.length);
      if (failures.length === 0 && sent.old + sent.new - rateLimited < 20)
        t.skip(
          `${rateLimited} of ${sent.old + sent.new} requests were rate-limited (429): too few answers to judge the deploy phase`,
        );
      if (failures.length > 0) {
        const window = (which: 'old' | 'new') => {
          const own = failures.filter((failure) => failure.token === which);
          return own.length === 0
            ? undefined
            : `${own.length} with the ${which} token, from ${own[0]!.atMs} to ${own.at(-1)!.atMs} ms after the new one was created`;
        };
        t.measure('failure_windows', { old: window('old') ?? null, new: window('new') ?? null });
        const first = failures[0]!;
        t.fail(
          `${failures.length} of ${sent.old + sent.new} requests failed in the ${deployMs / 1000} s deploy phase, while both tokens must be accepted: ${[window('old'), window('new')].filter(Boolean).join('; ')}; ` +
            `first: ${first.request} with the ${first.token} token at ${first.atMs} ms: ${first.answer}`,
        );
      }
      t.detail(
        `${deployMs / 1000} s deploy phase: ${sent.old} requests with the old token and ${sent.new} with the new one (whoami and agents, one every ${DEPLOY_ROUND_MS} ms each), all accepted; then the old one revoked`,
      );
    },
    { timeoutMs: DEPLOY_CHECK_TIMEOUT_MS },
  );

  check(
    'ROTATION-NO-DOWNTIME',
    async (t) => {
      const workspace = await t.workspace();
      const old = await workspace.createToken('certify old');
      const fresh = await workspace.createToken('certify new');
      // The new token is used on every read endpoint, on fresh and kept-alive connections, from
      // before the old one is revoked until its revocation has reached every backend (its
      // first 401, then ROTATION_SETTLE_MS more): a backend that drops the workspace's tokens
      // when the revocation reaches it shows then, not only at the moment of the revoke.
      const endpoints = [
        ['whoami', (newConnection: boolean) => t.api.whoami(fresh.token, { fresh: newConnection, timed: true })],
        ['agents', (newConnection: boolean) => t.api.listAgents(fresh.token, { fresh: newConnection, timed: true })],
      ] as const;
      const failures: string[] = [];
      let requests = 0;
      let rateLimited = 0;
      let oldRefusedAtMs: number | undefined;
      let revokedAt: number | undefined;
      // A slow or rate-limited network may leave too few answers in that window to judge: the
      // watch then goes on (the new token must keep working) until it has enough, within a cap.
      const answered = () => requests - rateLimited;
      const watchEnds = () => {
        if (revokedAt === undefined) return false;
        const now = performance.now();
        const settledAt =
          oldRefusedAtMs === undefined
            ? revokedAt + REVOCATION_LIMIT_MS
            : revokedAt + oldRefusedAtMs + ROTATION_SETTLE_MS;
        return (
          now > revokedAt + REVOCATION_LIMIT_MS + ROTATION_SETTLE_MS ||
          (now > settledAt && answered() >= ROTATION_MIN_ANSWERS)
        );
      };
      const traffic = (async () => {
        for (let round = 0; !watchEnds(); round++) {
          const [name, send] = endpoints[round % endpoints.length]!;
          const paced = sleep(ROTATION_ROUND_MS);
          for (const newConnection of [false, true]) {
            const res = await send(newConnection);
            requests += 1;
            // Rate limits are the service's choice (not shown): a 429 says nothing about the token.
            if (res.status === 429) rateLimited += 1;
            else if (res.status !== 200)
              failures.push(
                `${name} (${newConnection ? 'fresh' : 'kept-alive'}), ${revokedAt === undefined ? 'before the revoke' : `${Math.round(performance.now() - revokedAt)} ms after the revoke`}: ${describeResponse(res)}`,
              );
          }
          await paced;
        }
      })();
      const oldWatch = (async () => {
        while (!watchEnds()) {
          if (revokedAt !== undefined && oldRefusedAtMs === undefined) {
            const res = await t.api.whoami(old.token, { fresh: true, timed: true });
            if (res.status === 401) oldRefusedAtMs = Math.round(performance.now() - revokedAt);
          }
          await sleep(200);
        }
      })();
      await sleep(300);
      await workspace.revokeToken(old);
      revokedAt = performance.now();
      await Promise.all([traffic, oldWatch]);
      t.measure('requests_on_new_token', requests);
      t.measure('old_token_refused_after_ms', oldRefusedAtMs ?? null);
      t.measure('watched_after_revoke_ms', Math.round(performance.now() - revokedAt));
      t.measure('failures', failures.length);
      t.measure('rate_limited', rateLimited);
      if (failures.length === 0 && answered() < ROTATION_MIN_ANSWERS)
        t.skip(
          `${rateLimited} of ${requests} requests with the new token were rate-limited (429): too few answers to judge downtime`,
        );
      assert(
        failures.length === 0,
        `${failures.length} of ${requests} requests with the new token failed around the revocation of the old one; first: ${failures[0]}`,
      );
      const settled =
        oldRefusedAtMs === undefined
          ? `the old token was not refused within ${REVOCATION_LIMIT_MS / 1000} s (REVOKE-PROPAGATION judges that)`
          : `the old token refused after ${(oldRefusedAtMs / 1000).toFixed(1)} s`;
      t.detail(
        `${requests} requests with the new token over ${endpoints.map(([name]) => name).join(' and ')}, from before the revoke until ${ROTATION_SETTLE_MS / 1000} s after ${settled}: none failed`,
      );
    },
    { timeoutMs: 90_000 },
  );
});
