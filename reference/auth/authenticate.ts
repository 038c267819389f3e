import type { Clock } from '../clock.js';
import { unionFaults, type FaultSet } from '../faults.js';
import type { Personality } from '../personality.js';
import type { Scope, Store, Workspace } from '../store.js';
import type { NodePool } from './nodes.js';
import { JsonwebtokenSessionVerifier } from './session-jsonwebtoken.js';
import { SessionVerifier, decodeUnverified, looksLikeJwt, type SessionPrincipal } from './session.js';

// Turns an Authorization header into a principal (workspace + scopes) or an
// authentication failure. Bearer tokens resolve synchronously through the serving
// node's cache (no promise: a call placement pays for none); session tokens (JWTs) go
// through the personality's session verifier.

/** Turns a session JWT into the member it speaks for, or null (invalid_token). */
export interface SessionTokenVerifier {
  verify(jwt: string, requestFaults: FaultSet): Promise<SessionPrincipal | null>;
}

/** jose (`session.ts`), or jsonwebtoken + jwks-rsa (`session-jsonwebtoken.ts`) for the `jsonwebtoken` personality. */
export function sessionVerifierFor(store: Store, personality: Personality): SessionTokenVerifier {
  const tolerance = personality.sessionClockToleranceSeconds;
  return personality.sessionVerifier === 'jsonwebtoken'
    ? new JsonwebtokenSessionVerifier(store, tolerance)
    : new SessionVerifier(store, tolerance);
}

export interface Principal {
  workspace: Workspace;
  scopes: readonly Scope[];
  scheme: 'bearer_token' | 'session_token';
  credentialId: string;
  /** The request's faults joined with the workspace's. */
  faults: FaultSet;
}

export interface AuthFailure {
  code: 'invalid_token' | 'token_revoked' | 'malformed_token' | 'token_expired' | 'INVALID_TOKEN';
  message: string;
  faults: FaultSet;
  /** Fault long-token-500: the server "crashes" on this credential. */
  crash?: boolean;
  /** The HTTP status, when not the 401 (or fault bad-token-403's 403) of every other failure. */
  status?: number;
  /** A session token was refused (fault session-error-request-id-uuid answers it apart). */
  session?: boolean;
}

export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; failure: AuthFailure };

/** Longest credential looked at; longer ones are refused without any lookup. */
export const MAX_CREDENTIAL_LENGTH = 4096;
const LONG_TOKEN_CRASH_LENGTH = 2048;
/** Fault jwt-verified-cache-past-exp: how long, and how many, verified JWTs are remembered. */
const VERIFIED_SESSION_CACHE_MS = 300_000;
const VERIFIED_SESSION_CACHE_SIZE = 10_000;
const BEARER = /^Bearer +([^ ]+) *$/i;
/** Fault bearer-scheme-unanchored: the pattern without its start anchor. */
const BEARER_ENDING_ANYWHERE = /Bearer +([^ ]+) *$/i;
/** Fault bearer-trailing-words-ignored: the pattern without its end anchor. */
const BEARER_FIRST_WORD = /^Bearer +([^ ]+)/i;
const BEARER_TOKEN_SHAPE = /^svc_(?:test|live)_[A-Za-z0-9]+$/;
/** Fault token-prefix-match: the width of the column tokens are compared in (svc_test_ + 40). */
const TOKEN_COLUMN_WIDTH = 49;

function fail(message: string, faults: FaultSet, code: AuthFailure['code'] = 'invalid_token'): AuthOutcome {
  // Fault auth-error-message-empty: the messages were to come from a translation table never filled in.
  return { ok: false, failure: { code, message: faults.has('auth-error-message-empty') ? '' : message, faults } };
}

export class Authenticator {
  /** Fault jwt-verified-cache-past-exp: session JWTs verified once, by their text. */
  private readonly verifiedSessions = new Map<string, { session: SessionPrincipal; until: number }>();

  constructor(
    private readonly store: Store,
    private readonly nodes: NodePool,
    private readonly sessions: SessionTokenVerifier,
    private readonly clock: Clock,
  ) {}

  /**
   * @param header the Authorization header value, if any
   * @param headerCount how many Authorization headers the request carried
   */
  /** `forWhoami`: the request is GET /v1/whoami (fault revocation-whoami-only treats it apart). */
  authenticate(
    header: string | undefined,
    headerCount: number,
    nodeIndex: number,
    faults: FaultSet,
    // Stryker disable next-line BooleanLiteral: equivalent: read only under the fault revocation-whoami-only
    forWhoami = false,
  ): AuthOutcome | Promise<AuthOutcome> {
    if (headerCount > 1) return fail('repeated Authorization headers', faults);
    if (header === undefined || header === '') return fail('missing Authorization header', faults);
    const match = (
      faults.has('bearer-scheme-unanchored')
        ? BEARER_ENDING_ANYWHERE
        : faults.has('bearer-trailing-words-ignored')
          ? BEARER_FIRST_WORD
          : BEARER
    ).exec(header);
    // Fault authorization-scheme-optional: the scheme is skipped, not checked.
    const lastWord = faults.has('authorization-scheme-optional') ? header.trim().split(' ').pop() : undefined;
    if (!match && !lastWord) return fail('Authorization must be "Bearer <token>"', faults);
    const credential = match ? match[1]! : lastWord!;
    if (credential.length > LONG_TOKEN_CRASH_LENGTH && faults.has('long-token-500')) {
      return { ok: false, failure: { code: 'invalid_token', message: 'internal error', faults, crash: true } };
    }
    if (credential.length > MAX_CREDENTIAL_LENGTH) return fail('credential too long', faults);
    // The bearer shape first: it is every call placement's, and no JWT has it (no dots).
    if (BEARER_TOKEN_SHAPE.test(credential)) {
      // Fault token-prefix-match: a fixed-width column keeps the first characters of what is presented.
      const compared = faults.has('token-prefix-match') ? credential.slice(0, TOKEN_COLUMN_WIDTH) : credential;
      return this.authenticateBearer(compared, nodeIndex, faults, forWhoami);
    }
    if (looksLikeJwt(credential)) return this.authenticateSession(credential, faults);
    // Fault malformed-token-code: the shape check names its own code.
    return fail('malformed token', faults, faults.has('malformed-token-code') ? 'malformed_token' : 'invalid_token');
  }

  private authenticateBearer(
    secret: string,
    nodeIndex: number,
    requestFaults: FaultSet,
    forWhoami: boolean,
  ): AuthOutcome {
    const lookup = this.nodes.node(nodeIndex).lookup(secret, requestFaults);
    // Fault invalid-token-message-echoes-token: the message names the credential presented, to help debugging.
    if (lookup.kind === 'unknown')
      return fail(
        requestFaults.has('invalid-token-message-echoes-token') ? `unknown token ${secret}` : 'unknown token',
        requestFaults,
      );
    const workspace =
      this.store.workspace(lookup.token.workspaceId) ?? this.store.softDeleted.get(lookup.token.workspaceId);
    if (!workspace) return fail('unknown token', requestFaults);
    const faults = unionFaults(requestFaults, workspace.faults);
    if (lookup.kind === 'revoked') {
      // Re-check with the workspace's faults: the stale node may be switched on there.
      const staleOperationCache = faults.has('revocation-whoami-only') && !forWhoami;
      // Fault suspended-revoked-disabled: the revocation check is skipped when the suspension gate will refuse anyway.
      const leftToSuspensionGate = faults.has('suspended-revoked-disabled') && workspace.suspended;
      if (
        !staleOperationCache &&
        !leftToSuspensionGate &&
        !(faults !== requestFaults && this.nodes.node(nodeIndex).lookup(secret, faults).kind === 'active')
      ) {
        return fail(
          faults.has('invalid-token-message-echoes-token') ? `token ${secret} revoked` : 'token revoked',
          faults,
          faults.has('token-revoked-code')
            ? 'token_revoked'
            : // Fault revoked-code-uppercase: the revocation path writes the enum constant's name.
              faults.has('revoked-code-uppercase')
              ? 'INVALID_TOKEN'
              : 'invalid_token',
        );
      }
    }
    const now = this.clock.now();
    if (now >= workspace.rejectAllTokens.from && now < workspace.rejectAllTokens.until)
      // Stryker disable next-line StringLiteral: equivalent: only the faults rotation-flush and rotation-flush-late open this window
      return fail('token revoked', faults);
    const blip = lookup.token.refusedDuring;
    if (blip && now >= blip.from && now < blip.until) return fail('token revoked', faults);
    return {
      ok: true,
      principal: {
        workspace,
        // Fault token-scopes-of-first-token: the scope guard loads the workspace's first active token row.
        scopes: faults.has('token-scopes-of-first-token')
          ? ([...workspace.tokens.values()].find((t) => t.revokedAt === null) ?? lookup.token).scopes
          : lookup.token.scopes,
        scheme: 'bearer_token',
        credentialId: lookup.token.id,
        faults,
      },
    };
  }

  private async authenticateSession(jwt: string, requestFaults: FaultSet): Promise<AuthOutcome> {
    if (requestFaults.has('jwt-malformed-400') && !decodeUnverified(jwt)) {
      return {
        ok: false,
        failure: {
          code: 'invalid_token',
          message: 'the session token does not parse',
          faults: requestFaults,
          status: 400,
        },
      };
    }
    const now = this.clock.now();
    const cached = this.verifiedSessions.get(jwt);
    const session =
      cached !== undefined && cached.until > now ? cached.session : await this.sessions.verify(jwt, requestFaults);
    if (!session) {
      // Fault session-expired-code: the verifier's "expired" error is passed through under its own code.
      const exp = requestFaults.has('session-expired-code') ? decodeUnverified(jwt)?.payload.exp : undefined;
      if (typeof exp === 'number' && exp * 1000 <= now)
        return fail('session token expired', requestFaults, 'token_expired');
      const refused = fail('session token not accepted', requestFaults);
      if (!refused.ok && requestFaults.has('session-error-request-id-uuid')) refused.failure.session = true;
      return refused;
    }
    const faults = unionFaults(requestFaults, session.workspace.faults);
    // Fault session-suspended-invalid-token: the member lookup reads members of active workspaces only.
    if (faults.has('session-suspended-invalid-token') && session.workspace.suspended)
      return fail('session token not accepted', requestFaults);
    // Fault jwt-aud-array-every: an aud array must hold the audience and nothing else (every, where some was meant).
    if (faults.has('jwt-aud-array-every')) {
      const aud = decodeUnverified(jwt)?.payload.aud;
      const audience = session.workspace.identityProvider?.audience;
      if (Array.isArray(aud) && !aud.every((entry) => entry === audience))
        return fail('session token not accepted', requestFaults);
    }
    if (cached === undefined && faults.has('jwt-verified-cache-past-exp')) {
      // Fault: a verified JWT is remembered by its text, and exp is not looked at again.
      if (this.verifiedSessions.size >= VERIFIED_SESSION_CACHE_SIZE) this.verifiedSessions.clear();
      this.verifiedSessions.set(jwt, { session, until: now + VERIFIED_SESSION_CACHE_MS });
    } else if (cached === undefined && faults.has('session-scopes-cached')) {
      // Fault: the principal a JWT resolved to (member and scopes) is remembered by its text until its exp.
      const exp = decodeUnverified(jwt)?.payload.exp;
      if (this.verifiedSessions.size >= VERIFIED_SESSION_CACHE_SIZE) this.verifiedSessions.clear();
      if (typeof exp === 'number') this.verifiedSessions.set(jwt, { session, until: exp * 1000 });
    }
    return {
      ok: true,
      principal: {
        workspace: session.workspace,
        scopes: session.scopes,
        scheme: 'session_token',
        credentialId: session.memberId,
        faults,
      },
    };
  }
}
