import { createHmac } from 'node:crypto';
import { newId, randomBase62 } from '../ids.js';
import type { Clock } from '../clock.js';
import type { FaultSet } from '../faults.js';
import { ALL_SCOPES, type BearerToken, type Scope, type Store, type Workspace } from '../store.js';

/** Fault suspension-stamped-on-tokens: the ids of the tokens a suspension was written onto. */
export const suspensionStampedTokens = new WeakMap<Workspace, Set<string>>();
/** Fault reinstate-first-token-only: the ids of the tokens a reinstatement left the suspension on. */
export const suspensionLeftOnTokens = new WeakMap<Workspace, Set<string>>();

// The dashboard's token page: issue and revoke bearer tokens. Revocation is written to
// the authoritative store at once; the nodes' caches (nodes.ts) carry it to requests.

export const MAX_ACTIVE_TOKENS = 2;
/** Fault revocation-slow: the revocation reaches the store this late. */
export const SLOW_REVOCATION_MS = 75_000;
/** Fault rotation-flush: how long every token of the workspace is refused after a revocation. */
export const ROTATION_FLUSH_MS = 3_000;
/** Fault rotation-flush-late: the same, ROTATION_FLUSH_LATE.afterMs after the revocation, for durationMs. */
export const ROTATION_FLUSH_LATE = { afterMs: 4_000, durationMs: 2_000 } as const;
/** Fault old-token-blip-after-rotation: when the other tokens are refused, counted from the second token's creation. */
export const OLD_TOKEN_BLIP = { afterMs: 5_000, durationMs: 2_500 } as const;
/**
 * The racy faults (token-limit-check-then-insert and the like): how long the write waits after
 * the read it depends on (a store round trip, on a busy database). Requests the harness sends
 * at once reach the reference within a few milliseconds when nothing else loads the machine
 * (`test:faults` proves these faults at its calm moment, on a reference of their own); a
 * longer wait only makes every write of these faults slower, and a check filling a workspace
 * to its limit waits it once per write.
 */
export const STORE_ROUND_TRIP_MS = 250;
/**
 * The round trip of token-revoke-lost-update: seconds wide, so that two revocations sent at once
 * meet inside it on a loaded machine too (a second was not always enough while the waiting runs
 * started). Its proof waits out a revocation's minute among the waiting runs, not at the calm
 * moment, where it would end the fault step last.
 */
export const WIDE_STORE_ROUND_TRIP_MS = 3_000;

export type Environment = 'staging' | 'production';

export type TokenIssue =
  | { ok: true; token: BearerToken }
  | { ok: false; status: number; code: string; message: string };

export function isTokenActive(token: BearerToken, now: number): boolean {
  return token.revocationEffectiveAt === null || now < token.revocationEffectiveAt;
}

function tokenPrefix(environment: Environment, faults: FaultSet): string {
  // Stryker disable next-line LogicalOperator,StringLiteral: equivalent: production only, and a mutant run is staging
  if (environment === 'production' || faults.has('live-prefix-in-staging')) return 'svc_live_';
  return 'svc_test_';
}

/** Fault revoked-slot-held-until-propagated: how long a revoked token still holds its slot. */
export const REVOKED_SLOT_HELD_MS = 60_000;

/** The refusal of one more token when the workspace holds its two, else undefined. */
export function tokenLimitRefusal(
  workspace: Workspace,
  faults: FaultSet,
  now = Date.now(),
): Extract<TokenIssue, { ok: false }> | undefined {
  const tokens = [...workspace.tokens.values()];
  // Fault revoked-slot-held-until-propagated: the count reads tokens "not yet revoked everywhere".
  const propagating = (t: BearerToken): boolean =>
    faults.has('revoked-slot-held-until-propagated') &&
    t.revokedAt !== null &&
    now - t.revokedAt < REVOKED_SLOT_HELD_MS;
  const active =
    // Stryker disable next-line ArithmeticOperator: equivalent: only the fault double-revoke-frees-slot marks a token revoked again
    tokens.filter((t) => (t.revokedAt === null && !t.uncounted) || t.holdsSlot || propagating(t)).length -
    // Stryker disable next-line ArrowFunction: equivalent: only the fault double-revoke-frees-slot marks a token revoked again
    tokens.filter((t) => t.revokedAgain).length;
  if (active < MAX_ACTIVE_TOKENS || faults.has('third-token')) return undefined;
  return {
    ok: false,
    status: 409,
    // Stryker disable next-line StringLiteral: no stated rule: the control interface's codes, messages and ids are information only; the contract states the 409 and the 204
    code: 'token_limit_reached',
    // Stryker disable next-line StringLiteral: no stated rule: the control interface's codes, messages and ids are information only; the contract states the 409 and the 204
    message: `a workspace holds at most ${MAX_ACTIVE_TOKENS} active tokens; revoke one first`,
  };
}

/** @param limitChecked the caller has read the count already (fault token-limit-check-then-insert) */
export function issueToken(
  store: Store,
  workspace: Workspace,
  request: { label: string; scopes: readonly Scope[] | undefined },
  environment: Environment,
  faults: FaultSet,
  // Stryker disable next-line BooleanLiteral: equivalent: every caller passes limitChecked
  limitChecked = false,
): TokenIssue {
  const refusal = limitChecked ? undefined : tokenLimitRefusal(workspace, faults);
  // Fault token-limit-refusal-revokes-oldest: a rotation helper revokes the oldest active token to make room, then the limit refuses.
  if (refusal && faults.has('token-limit-refusal-revokes-oldest')) {
    const oldest = [...workspace.tokens.values()].find((t) => t.revokedAt === null);
    if (oldest) {
      oldest.revokedAt = Date.now();
      oldest.revocationEffectiveAt = oldest.revokedAt;
    }
  }
  if (refusal) return refusal;
  // Fault token-limit-every-workspace: the active tokens counted without the workspace in the condition.
  if (faults.has('token-limit-every-workspace')) {
    const everywhere = [...store.workspaces.values()]
      .filter((w) => w.faults.has('token-limit-every-workspace'))
      .flatMap((w) => [...w.tokens.values()]);
    if (everywhere.filter((token) => token.revokedAt === null).length >= MAX_ACTIVE_TOKENS)
      return { ok: false, status: 409, code: 'token_limit_reached', message: 'token limit reached' };
  }
  let scopes: readonly Scope[];
  // Fault token-default-scopes-from-previous: the form's default is the scopes last chosen in the workspace.
  const previous = faults.has('token-default-scopes-from-previous') ? [...workspace.tokens.values()].at(-1) : undefined;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: previous is set only under the fault token-default-scopes-from-previous
  if (request.scopes === undefined && previous) {
    // Stryker disable next-line ArrayDeclaration: equivalent: previous is set only under the fault token-default-scopes-from-previous
    scopes = [...previous.scopes];
  } else if (request.scopes === undefined || (request.scopes.length === 0 && faults.has('empty-token-scopes-all'))) {
    scopes = faults.has('default-scopes-all') ? [...ALL_SCOPES] : [...workspace.licensedScopes];
    // Fault default-scopes-missing-webhooks: the default list predates the webhooks:write scope.
    if (request.scopes === undefined && faults.has('default-scopes-missing-webhooks'))
      scopes = scopes.filter((scope) => scope !== 'webhooks:write');
  } else {
    // Fault token-unlicensed-scope-granted: the scopes checked against every scope there is, not the licence.
    const allowed = faults.has('token-unlicensed-scope-granted') ? ALL_SCOPES : workspace.licensedScopes;
    const unlicensed = request.scopes.filter((s) => !allowed.includes(s));
    if (unlicensed.length > 0) {
      return {
        ok: false,
        status: 422,
        // Stryker disable next-line StringLiteral: no stated rule: the control interface's codes, messages and ids are information only; the contract states the 409 and the 204
        code: 'scope_not_licensed',
        // Stryker disable next-line StringLiteral: no stated rule: the control interface's codes, messages and ids are information only; the contract states the 409 and the 204
        message: `the workspace is not licensed for: ${unlicensed.join(', ')}`,
      };
    }
    scopes = [...new Set(request.scopes)];
  }
  // Fault token-second-scope-dropped: the scope column is written from the first entry.
  const stored = faults.has('token-second-scope-dropped') ? scopes.slice(0, 1) : scopes;
  const token: BearerToken = {
    // Stryker disable next-line StringLiteral: no stated rule: the control interface's codes, messages and ids are information only; the contract states the 409 and the 204
    id: faults.has('token-id-is-slot') ? slotTokenId(workspace) : newId('tok_'),
    // Fault token-secret-from-active-count: a staging generator seeded with the workspace and its active token count.
    secret:
      tokenPrefix(environment, faults) +
      (faults.has('token-secret-from-active-count') ? secretFromActiveCount(workspace) : randomBase62(40)),
    workspaceId: workspace.id,
    label: request.label,
    scopes: stored,
    revokedAt: null,
    revocationEffectiveAt: null,
    ...(workspace.suspended && faults.has('suspended-create-uncounted') ? { uncounted: true } : {}),
  };
  store.addToken(workspace, token);
  return { ok: true, token };
}

/**
 * Fault token-id-is-slot: the id of the workspace's first slot (of two) that no active token
 * holds, as a dashboard of "key 1" and "key 2" numbers them; a revoked token's slot is reused.
 */
function slotTokenId(workspace: Workspace): string {
  const held = new Set([...workspace.tokens.values()].filter((t) => t.revokedAt === null).map((t) => t.id));
  for (let slot = 1; ; slot++) {
    const id = `tok_${workspace.id.slice('ws_'.length)}${slot}`;
    if (!held.has(id)) return id;
  }
}

/**
 * Fault old-token-blip-after-rotation: a new token's rollout briefly invalidates the tokens
 * already there, as a cache rebuilt from a half-written token list would.
 */
export function blipOtherTokens(workspace: Workspace, fresh: BearerToken, now: number): void {
  for (const other of workspace.tokens.values()) {
    if (other !== fresh && other.revokedAt === null)
      other.refusedDuring = {
        from: now + OLD_TOKEN_BLIP.afterMs,
        until: now + OLD_TOKEN_BLIP.afterMs + OLD_TOKEN_BLIP.durationMs,
      };
  }
}

/** Marks the token revoked; false when the workspace has no such token. Revoking twice is harmless. */
export function revokeToken(workspace: Workspace, tokenId: string, clock: Clock, faults: FaultSet): boolean {
  const token = workspace.tokens.get(tokenId);
  // Stryker disable next-line BooleanLiteral: no stated rule: the answer to revoking an unknown token; the contract states the 204 for a token
  if (!token) return false;
  // Stryker disable next-line BlockStatement: equivalent: revoking twice re-stamps a revoked token, which stays revoked
  if (token.revokedAt !== null) {
    if (faults.has('double-revoke-frees-slot')) token.revokedAgain = true;
    // Stryker disable next-line BooleanLiteral: no stated rule: the answer to revoking a revoked token; the contract states the 204 for a token
    return true;
  }
  // Fault revoke-empties-scopes: the dashboard's revoke writes an empty scope list on the token, which stays active.
  if (faults.has('revoke-empties-scopes')) {
    token.scopes = [];
    return true;
  }
  const now = clock.now();
  // Fault revocation-list-single-slot: the workspace's revocation record holds one token, so a new revocation overwrites the last.
  if (faults.has('revocation-list-single-slot'))
    for (const other of workspace.tokens.values())
      if (other !== token && other.revokedAt !== null) {
        other.revokedAt = null;
        other.revocationEffectiveAt = null;
      }
  token.revokedAt = now;
  token.revocationEffectiveAt = faults.has('revocation-slow') ? now + SLOW_REVOCATION_MS : now;
  if (workspace.suspended && faults.has('suspended-revoke-keeps-slot')) token.holdsSlot = true;
  if (faults.has('rotation-flush')) workspace.rejectAllTokens = { from: now, until: now + ROTATION_FLUSH_MS };
  if (faults.has('rotation-flush-late'))
    workspace.rejectAllTokens = {
      from: now + ROTATION_FLUSH_LATE.afterMs,
      until: now + ROTATION_FLUSH_LATE.afterMs + ROTATION_FLUSH_LATE.durationMs,
    };
  return true;
}

/** Fault token-secret-from-active-count: 40 hex characters seeded with the workspace id and its active token count. */
function secretFromActiveCount(workspace: Workspace): string {
  const active = [...workspace.tokens.values()].filter((t) => t.revokedAt === null).length;
  return createHmac('sha256', 'reference-fault-seed').update(`${workspace.id}:${active}`).digest('hex').slice(0, 40);
}
