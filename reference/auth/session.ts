import { createHmac, timingSafeEqual } from 'node:crypto';
import { posix } from 'node:path';
import {
  EmbeddedJWK,
  UnsecuredJWT,
  compactVerify,
  createRemoteJWKSet,
  customFetch,
  decodeJwt,
  decodeProtectedHeader,
  exportSPKI,
  importJWK,
  importX509,
  jwtVerify,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  type ProtectedHeaderParameters,
} from 'jose';
import { unionFaults, type FaultSet } from '../faults.js';
import { Outbound } from '../outbound.js';
import { isScope, type IdentityProvider, type Member, type Scope, type Store, type Workspace } from '../store.js';

// Session tokens: a JWT from the workspace's identity provider, verified with jose
// against that provider's JWKS, resolved to a workspace member and the member's scopes.

/** The algorithms the control contract requires ("RS256 and ES256 at least"). */
const REQUIRED_ALGORITHMS = ['RS256', 'ES256'];
/** Accepted beyond them: the reference's choice. */
// Stryker disable next-line StringLiteral,ArrayDeclaration: no stated rule: the contract asks for "RS256 and ES256 at least" (Session tokens)
const FURTHER_ALGORITHMS = ['RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES384', 'EdDSA', 'Ed25519'];
/** Asymmetric algorithms only: never `none`, never an HMAC that a public key could forge. */
export const SESSION_ALGORITHMS = [...REQUIRED_ALGORITHMS, ...FURTHER_ALGORITHMS];
/**
 * Clock skew tolerated on exp and nbf by the reference personality: none. The spec gives
 * session tokens 60 s, and a token issued 61 s ago must be refused; any leeway would stretch
 * the lifetime past it. (The alternate personality allows 5 s, as most JWT validators do.)
 */
export const CLOCK_TOLERANCE_SECONDS = 0;

/** Fault jwt-exp-margin-30s: how long before exp a token is already refused. */
const EXP_MARGIN_SECONDS = 30;

type VerifyKey = Exclude<Parameters<typeof jwtVerify>[1], JWTVerifyGetKey>;

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function looksLikeJwt(credential: string): boolean {
  return JWT_SHAPE.test(credential);
}

/**
 * How long a JWKS fetch may take before the token is refused. Generous, as deployments set it:
 * the harness's identity provider shares a busy machine with the checks in CI, and a fetch that
 * outlasted a short time-out refused valid session tokens.
 */
export const JWKS_TIMEOUT_MS = 10_000;

export function createIdentityProvider(
  issuer: string,
  jwksUri: string,
  audience: string,
  outbound = new Outbound(),
): IdentityProvider {
  const keySet = createRemoteJWKSet(new URL(jwksUri), {
    cooldownDuration: 500,
    cacheMaxAge: 2000,
    timeoutDuration: JWKS_TIMEOUT_MS,
    [customFetch]: outbound.fetch,
  });
  return { issuer, jwksUri, audience, keySet, fetch: outbound.fetch };
}

export interface SessionPrincipal {
  workspace: Workspace;
  scopes: readonly Scope[];
  memberId: string;
}

interface Claims {
  header: ProtectedHeaderParameters;
  payload: JWTPayload;
}

export function decodeUnverified(jwt: string): Claims | null {
  try {
    return { header: decodeProtectedHeader(jwt), payload: decodeJwt(jwt) };
  } catch {
    return null;
  }
}

/** jose wants the caller to try each key when several match (a JWKS of keys without kid). */
async function verifyWithKeySet(
  jwt: string,
  keySet: JWTVerifyGetKey,
  options: JWTVerifyOptions,
  faults: FaultSet,
): Promise<JWTPayload> {
  try {
    return (await jwtVerify(jwt, keySet, options)).payload;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_JWKS_MULTIPLE_MATCHING_KEYS') throw error;
    // Fault jwks-several-keys-refused: without a kid to choose by, several keys are taken as none.
    if (faults.has('jwks-several-keys-refused')) throw error;
    for await (const key of error as AsyncIterable<VerifyKey>) {
      try {
        return (await jwtVerify(jwt, key, options)).payload;
      } catch {
        // try the next key
      }
    }
    throw error;
  }
}

/**
 * For faults that take a signature as valid: the claims are still judged as jose would
 * (iss, aud, exp, nbf), by decoding the payload as an unsecured JWT.
 */
function claimsOnly(jwt: string, options: JWTVerifyOptions): JWTPayload {
  return payloadClaimsOnly(jwt.split('.')[1] ?? '', options);
}

function payloadClaimsOnly(payloadPart: string, options: JWTVerifyOptions): JWTPayload {
  const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payloadPart}.`;
  const { issuer, audience, currentDate, clockTolerance } = options;
  return UnsecuredJWT.decode(unsigned, { issuer, audience, currentDate, clockTolerance }).payload;
}

/** Red-team faults that check the audience after verification, in verifyFor, their own wrong way. */
function audienceCheckedLater(faults: FaultSet): boolean {
  return (
    faults.has('jwt-aud-contains-audience') ||
    faults.has('jwt-aud-array-first-only') ||
    faults.has('jwt-aud-case-insensitive')
  );
}

/** Fault jwt-nbf-leeway-inverted: the clock skew meant to be allowed before nbf, applied the wrong way. */
const INVERTED_NBF_SKEW_SECONDS = 5;
/** Fault jwt-nbf-leeway-5min: the clock skew allowed before nbf. */
const NBF_SKEW_SECONDS = 300;

/** Fault jwt-kid-path-traversal: where the naive validator looks for key files. */
const KEYS_DIRECTORY = '/srv/keys';

/** Fault jwt-kid-path-traversal: the HS256 signature checked with `key`, as Node's HMAC allows an empty one. */
function hmacMatches(jwt: string, key: Uint8Array): boolean {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Fault jwt-psychic-ecdsa: r = s = 0, raw (JWS) or DER, which Java 15-18 verified for any message. */
function isZeroEcdsaSignature(jwt: string): boolean {
  const signature = Buffer.from(jwt.split('.')[2] ?? '', 'base64url');
  const raw = signature.length === 64 && signature.every((byte) => byte === 0);
  return raw || signature.equals(Buffer.from('3006020100020100', 'hex'));
}

/** Fault jwt-first-sub-wins: the first "sub" of the payload text, as a regular expression finds it. */
function firstSub(jwt: string): string | undefined {
  const text = Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8');
  const match = /"sub"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text);
  return match ? (JSON.parse(match[1]!) as string) : undefined;
}

/** Fault jwt-sub-case-insensitive: the member whose subject equals `sub` but for case. */
function memberIgnoringCase(workspace: Workspace, sub: string): Member | undefined {
  const wanted = sub.toLowerCase();
  for (const member of workspace.members.values()) if (member.subject.toLowerCase() === wanted) return member;
  return undefined;
}

/** Fault jwks-fetch-failure-open: the JWKS could not be had (as opposed to a token it refuses). */
function isKeySetUnavailable(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return (
    code === undefined || code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JOSE_GENERIC' || code === 'ERR_JWKS_INVALID'
  );
}

/** Fault jwks-first-key-only: the JWKS is fetched and its first key used, whatever the token's kid. */
async function verifyWithFirstKey(
  provider: IdentityProvider,
  jwt: string,
  header: ProtectedHeaderParameters,
  options: JWTVerifyOptions,
): Promise<JWTPayload> {
  const response = await provider.fetch(provider.jwksUri, { signal: AbortSignal.timeout(2000) });
  const first = ((await response.json()) as { keys?: JWK[] }).keys?.[0];
  if (!first) throw new Error('empty JWKS');
  const key = await importJWK(first, first.alg ?? String(header.alg));
  return (await jwtVerify(jwt, key, options)).payload;
}

const frozenKeySets = new WeakMap<IdentityProvider, JWTVerifyGetKey>();

/** Fault jwks-keys-cached-by-kid: the keys resolved so far, by kid alone. */
const keysByKid = new Map<string, Awaited<ReturnType<JWTVerifyGetKey>>>();

/** Fault jwks-cached-forever: the JWKS is fetched once and never again (no rotation). */
function frozenKeySet(provider: IdentityProvider): JWTVerifyGetKey {
  let keySet = frozenKeySets.get(provider);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(provider.jwksUri), {
      cooldownDuration: Infinity,
      cacheMaxAge: Infinity,
      timeoutDuration: JWKS_TIMEOUT_MS,
      [customFetch]: provider.fetch,
    });
    frozenKeySets.set(provider, keySet);
  }
  return keySet;
}

export class SessionVerifier {
  constructor(
    private readonly store: Store,
    /** Clock skew tolerated on exp and nbf (the alternate personality allows some). */
    private readonly clockTolerance = CLOCK_TOLERANCE_SECONDS,
  ) {}

  /** The member the JWT speaks for, or null (the caller answers invalid_token). */
  async verify(jwt: string, requestFaults: FaultSet): Promise<SessionPrincipal | null> {
    const claims = decodeUnverified(jwt);
    if (!claims) return null;
    const tried = new Set<Workspace>();
    const iss = typeof claims.payload.iss === 'string' ? claims.payload.iss : '';
    // Several workspaces may share an issuer: the JWT belongs to the one whose
    // provider verifies it and whose members include its subject.
    for (const workspace of this.store.workspacesWithIssuer(iss)) {
      tried.add(workspace);
      const faults = unionFaults(requestFaults, workspace.faults);
      const principal = await this.verifyFor(workspace, jwt, claims, faults);
      if (principal) return principal;
      // Fault idp-issuer-first-workspace-only: the issuer index holds one workspace, the first configured.
      if (faults.has('idp-issuer-first-workspace-only')) return null;
    }
    // Faults that relax the issuer or cross workspaces must look beyond the issuer's workspaces.
    for (const workspace of this.store.workspaces.values()) {
      if (tried.has(workspace) || !workspace.identityProvider) continue;
      const faults = unionFaults(requestFaults, workspace.faults);
      const caseless =
        faults.has('jwt-iss-case-insensitive') && workspace.identityProvider.issuer.toLowerCase() === iss.toLowerCase();
      const slashless =
        faults.has('jwt-iss-trailing-slash-ignored') &&
        withoutTrailingSlashes(workspace.identityProvider.issuer) === withoutTrailingSlashes(iss);
      if (!faults.has('jwt-ignore-iss') && !faults.has('jwt-cross-workspace') && !caseless && !slashless) continue;
      const principal = await this.verifyFor(workspace, jwt, claims, faults);
      if (principal) return principal;
    }
    // Fault idp-previous-kept-alongside: the providers an identity-provider PUT replaced are still tried.
    for (const workspace of this.store.workspaces.values()) {
      if (!workspace.previousProviders) continue;
      const faults = unionFaults(requestFaults, workspace.faults);
      if (!faults.has('idp-previous-kept-alongside')) continue;
      for (const provider of workspace.previousProviders) {
        if (provider.issuer !== iss) continue;
        const principal = await this.verifyFor(workspace, jwt, claims, faults, provider);
        if (principal) return principal;
      }
    }
    return null;
  }

  private async verifyFor(
    workspace: Workspace,
    jwt: string,
    claims: Claims,
    faults: FaultSet,
    provider = workspace.identityProvider,
  ): Promise<SessionPrincipal | null> {
    if (!provider) return null;
    const crossWorkspace = faults.has('jwt-cross-workspace');
    let payload: JWTPayload;
    try {
      payload = await this.verifySignatureAndClaims(provider, jwt, claims, faults, crossWorkspace);
    } catch {
      return null;
    }
    // Fault jwt-aud-contains-audience: String.prototype.includes where Array.prototype.includes was meant.
    if (faults.has('jwt-aud-contains-audience') && !(payload.aud ?? '').includes(provider.audience)) return null;
    // Fault jwt-aud-array-first-only: an array audience is read as its first entry.
    if (
      faults.has('jwt-aud-array-first-only') &&
      (Array.isArray(payload.aud) ? payload.aud[0] : payload.aud) !== provider.audience
    )
      return null;
    // Fault jwt-aud-case-insensitive: the audiences compared lower-cased.
    if (
      faults.has('jwt-aud-case-insensitive') &&
      ![payload.aud ?? []].flat().some((aud) => aud.toLowerCase() === provider.audience.toLowerCase())
    )
      return null;
    // Fault jwt-first-sub-wins: a second reading of the payload, by a scan that stops at the first sub.
    if (faults.has('jwt-first-sub-wins')) payload = { ...payload, sub: firstSub(jwt) ?? payload.sub };
    if (typeof payload.sub !== 'string') return null;
    const member =
      workspace.members.get(payload.sub) ??
      (faults.has('jwt-sub-case-insensitive') ? memberIgnoringCase(workspace, payload.sub) : undefined) ??
      // Fault jwt-sub-trimmed: the subject is trimmed before the member lookup.
      (faults.has('jwt-sub-trimmed') ? workspace.members.get(payload.sub.trim()) : undefined);
    if (member) {
      // Fault jwt-scope-claim-trusted: the token's own scope claim wins over the member's record.
      if (faults.has('jwt-scope-claim-trusted') && typeof payload.scope === 'string') {
        const claimed = payload.scope
          .split(' ')
          .filter((s): s is Scope => isScope(s) && workspace.licensedScopes.includes(s));
        return { workspace, scopes: claimed, memberId: member.id };
      }
      return this.principalFor(workspace, member, faults);
    }
    if (faults.has('jwt-any-sub')) return { workspace, scopes: workspace.licensedScopes, memberId: 'any-subject' };
    if (crossWorkspace) {
      // Fault jwt-cross-workspace: a subject of any workspace on this issuer is accepted.
      for (const other of this.store.workspacesWithIssuer(provider.issuer)) {
        const otherMember = other.members.get(payload.sub);
        if (otherMember) return this.principalFor(other, otherMember, faults);
      }
    }
    return null;
  }

  private principalFor(workspace: Workspace, member: Member, faults: FaultSet): SessionPrincipal {
    // Fault session-scopes-of-latest-member: the scopes read from the workspace's last added member.
    const granted = faults.has('session-scopes-of-latest-member')
      ? ([...workspace.members.values()].at(-1) ?? member)
      : member;
    // Fault member-unlicensed-scope-granted: the member's scopes as recorded, without the workspace's licence.
    const scopes = faults.has('jwt-member-all-scopes')
      ? workspace.licensedScopes
      : faults.has('member-unlicensed-scope-granted')
        ? granted.scopes
        : granted.scopes.filter((s) => workspace.licensedScopes.includes(s));
    return { workspace, scopes, memberId: member.id };
  }

  private async verifySignatureAndClaims(
    provider: IdentityProvider,
    jwt: string,
    { header, payload }: Claims,
    faults: FaultSet,
    crossWorkspace: boolean,
  ): Promise<JWTPayload> {
    const options: JWTVerifyOptions = {
      algorithms: faults.has('jwt-rs256-only') ? ['RS256'] : SESSION_ALGORITHMS,
      // Fault: a leeway just past the harness's bound (60 s), so that only that bound catches it.
      clockTolerance: faults.has('jwt-exp-leeway-90s') ? 90 : this.clockTolerance,
      // Fault jwt-no-exp-accepted: exp is checked when present, not required.
      requiredClaims: faults.has('jwt-no-exp-accepted') ? ['sub'] : ['exp', 'sub'],
    };
    // Fault jwt-typ-required: the verifier is configured with typ "JWT", which jose then requires in the header.
    if (faults.has('jwt-typ-required')) options.typ = 'JWT';
    if (faults.has('jwt-ignore-crit') && Array.isArray(header.crit)) {
      // Fault: every critical extension is declared understood, so none is refused.
      options.crit = Object.fromEntries(header.crit.map((name) => [String(name), true]));
    }
    if (faults.has('jwt-iss-case-insensitive')) {
      // Fault: the issuer compared ignoring case, as a host name would be.
      if (typeof payload.iss !== 'string' || payload.iss.toLowerCase() !== provider.issuer.toLowerCase())
        throw new Error('issuer mismatch');
    } else if (faults.has('jwt-iss-trailing-slash-ignored')) {
      // Fault: issuers are URLs, compared with their trailing slashes stripped.
      if (
        typeof payload.iss !== 'string' ||
        withoutTrailingSlashes(payload.iss) !== withoutTrailingSlashes(provider.issuer)
      )
        throw new Error('issuer mismatch');
    } else if (!faults.has('jwt-ignore-iss')) options.issuer = provider.issuer;
    if (faults.has('jwt-aud-substring') && typeof payload.aud === 'string') {
      // Fault: `audience.includes(aud)`, written for an array, run on the configured string.
      if (!provider.audience.includes(payload.aud)) throw new Error('audience mismatch');
    } else if (
      !faults.has('jwt-ignore-aud') &&
      !audienceCheckedLater(faults) &&
      !crossWorkspace &&
      // Fault jwt-aud-empty-array-accepted: `auds.length > 0 && !auds.includes(audience)` refuses, so [] passes.
      !(faults.has('jwt-aud-empty-array-accepted') && Array.isArray(payload.aud) && payload.aud.length === 0)
    )
      options.audience = provider.audience;
    const nowSeconds = Date.now() / 1000;
    if (faults.has('jwt-ignore-exp') && typeof payload.exp === 'number' && payload.exp <= nowSeconds) {
      // Judge the token as of just before it expired: exp passes, nbf is still checked.
      options.currentDate = new Date((payload.exp - this.clockTolerance - 1) * 1000);
    }
    const nbfWithinSkew =
      faults.has('jwt-nbf-leeway-5min') &&
      typeof payload.nbf === 'number' &&
      payload.nbf - nowSeconds <= NBF_SKEW_SECONDS;
    if (
      (faults.has('jwt-ignore-nbf') || nbfWithinSkew) &&
      typeof payload.nbf === 'number' &&
      payload.nbf > nowSeconds
    ) {
      options.currentDate = new Date((payload.nbf + this.clockTolerance + 1) * 1000);
    }

    if (
      faults.has('jwt-exp-margin-30s') &&
      typeof payload.exp === 'number' &&
      payload.exp - nowSeconds < EXP_MARGIN_SECONDS
    ) {
      throw new Error('the session token expires too soon');
    }
    // Fault jwt-exp-fractional-refused: the claim schema types exp as an integer, though a NumericDate may have a fraction.
    if (faults.has('jwt-exp-fractional-refused') && typeof payload.exp === 'number' && !Number.isInteger(payload.exp))
      throw new Error('exp is not an integer');
    // Fault jwt-iat-required: iat is read to judge the token's age, and a token without one is refused.
    if (faults.has('jwt-iat-required') && typeof payload.iat !== 'number')
      throw new Error('the session token has no iat');
    // Fault jwt-lifetime-over-60s-refused: the spec's 60-second lifetime enforced on exp.
    if (faults.has('jwt-lifetime-over-60s-refused') && typeof payload.exp === 'number' && payload.exp - nowSeconds > 61)
      throw new Error('the session token lives too long');
    // Fault jwt-future-iat-refused: an iat ahead of the service clock taken for a forged token.
    if (faults.has('jwt-future-iat-refused') && typeof payload.iat === 'number' && payload.iat > nowSeconds)
      throw new Error('the session token was issued in the future');
    // Fault jwt-nbf-leeway-inverted: the 5 s skew subtracted where it should be added (nbf > now - skew).
    if (
      faults.has('jwt-nbf-leeway-inverted') &&
      typeof payload.nbf === 'number' &&
      payload.nbf > nowSeconds - INVERTED_NBF_SKEW_SECONDS
    )
      throw new Error('the session token is not yet valid');
    if (
      faults.has('jwt-string-dates-skipped') &&
      (typeof payload.exp === 'string' || typeof payload.nbf === 'string')
    ) {
      // Fault: exp and nbf are compared only when they are numbers; a string one is skipped.
      await compactVerify(jwt, provider.keySet, { algorithms: options.algorithms });
      const numbersOnly = Object.fromEntries(
        Object.entries(payload).filter(
          ([name, value]) => !((name === 'exp' || name === 'nbf') && typeof value === 'string'),
        ),
      );
      return payloadClaimsOnly(Buffer.from(JSON.stringify(numbersOnly)).toString('base64url'), options);
    }
    if (header.alg === 'none') {
      if (!faults.has('jwt-alg-none')) throw new Error('alg none refused');
      const { issuer, audience, currentDate, clockTolerance } = options;
      return UnsecuredJWT.decode(jwt, { issuer, audience, currentDate, clockTolerance }).payload;
    }
    if (
      faults.has('jwt-alg-none-case-insensitive') &&
      typeof header.alg === 'string' &&
      header.alg.toLowerCase() === 'none'
    ) {
      // Fault: the deny-list above matches 'none' exactly; the algorithm lookup ignores case.
      return claimsOnly(jwt, options);
    }
    if (faults.has('jwt-trust-embedded-jwk') && header.jwk) {
      // Fault (CVE-2018-0114): the key the token brings verifies it.
      return (await jwtVerify(jwt, EmbeddedJWK, options)).payload;
    }
    if (faults.has('jwt-follow-key-url') && typeof header.jku === 'string') {
      // Fault: the keys come from whatever JWKS URL the token names.
      return verifyWithKeySet(jwt, createRemoteJWKSet(new URL(header.jku), { timeoutDuration: 2000 }), options, faults);
    }
    if (faults.has('jwt-follow-key-url') && typeof header.x5u === 'string') {
      // Fault: the key comes from whatever certificate URL the token names.
      const response = await fetch(header.x5u, { signal: AbortSignal.timeout(2000) });
      const key = await importX509(await response.text(), String(header.alg));
      return (await jwtVerify(jwt, key, options)).payload;
    }
    if (faults.has('jwt-kid-path-traversal') && header.alg === 'HS256' && typeof header.kid === 'string') {
      // Fault: the kid names a key file, joined to the keys directory without confining it.
      // Modelled without touching the disk: only /dev/null is "found", and it is empty.
      if (posix.resolve(KEYS_DIRECTORY, header.kid) !== '/dev/null' || !hmacMatches(jwt, new Uint8Array(0)))
        throw new Error('no such key file');
      return claimsOnly(jwt, options);
    }
    if (faults.has('jwt-psychic-ecdsa') && header.alg === 'ES256' && isZeroEcdsaSignature(jwt)) {
      // Fault: the verifier never checks 0 < r, s < n.
      return claimsOnly(jwt, options);
    }
    if (header.alg === 'HS256' && faults.has('jwt-hs256-confusion')) {
      return this.verifyWithPublicKeyAsSecret(provider, jwt, { ...options, algorithms: ['HS256'] });
    }
    // Fault jwt-kid-required: the key lookup wants a kid, though the JWKS's keys could be tried.
    if (faults.has('jwt-kid-required') && typeof header.kid !== 'string') throw new Error('kid required');
    let keySet = faults.has('jwks-cached-forever') ? frozenKeySet(provider) : provider.keySet;
    if (faults.has('jwt-unknown-kid')) {
      // Fault: a kid missing from the JWKS falls back to trying every key.
      keySet = async (protectedHeader, token) => {
        try {
          return await provider.keySet(protectedHeader, token);
        } catch (error) {
          if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
          const { kid: _kid, ...withoutKid } = protectedHeader;
          return provider.keySet(withoutKid, token);
        }
      };
    }
    // Fault jwks-keys-cached-by-kid: keys resolved once and cached process-wide by kid alone, whichever workspace's JWKS gave them.
    if (faults.has('jwks-keys-cached-by-kid')) {
      const resolve = keySet;
      keySet = async (protectedHeader, token) => {
        const kid = protectedHeader.kid;
        const cached = kid === undefined ? undefined : keysByKid.get(kid);
        if (cached) return cached;
        const key = await resolve(protectedHeader, token);
        if (kid !== undefined) keysByKid.set(kid, key);
        return key;
      };
    }
    if (faults.has('jwks-first-key-only')) return verifyWithFirstKey(provider, jwt, header, options);
    try {
      return await verifyWithKeySet(jwt, keySet, options, faults);
    } catch (error) {
      // Fault jwks-fetch-failure-open: an identity provider that cannot be reached is taken as no reason to refuse.
      if (faults.has('jwks-fetch-failure-open') && isKeySetUnavailable(error)) return claimsOnly(jwt, options);
      if (!faults.has('jwt-signature-unchecked')) throw error;
      // Fault: a signature that does not verify is ignored; the claims are still checked.
      return claimsOnly(jwt, options);
    }
  }

  /** Fault jwt-hs256-confusion: the PEM of each public key of the JWKS used as an HMAC secret. */
  private async verifyWithPublicKeyAsSecret(
    provider: IdentityProvider,
    jwt: string,
    options: JWTVerifyOptions,
  ): Promise<JWTPayload> {
    const response = await provider.fetch(provider.jwksUri, { signal: AbortSignal.timeout(2000) });
    const jwks = (await response.json()) as { keys?: JWK[] };
    for (const jwk of jwks.keys ?? []) {
      const alg = jwk.alg ?? (jwk.kty === 'EC' ? 'ES256' : 'RS256');
      try {
        const key = await importJWK(jwk, alg, { extractable: true });
        const pem = await exportSPKI(key as Parameters<typeof exportSPKI>[0]);
        for (const secret of [pem, pem.trimEnd() + '\n', pem.trimEnd()]) {
          try {
            return (await jwtVerify(jwt, new TextEncoder().encode(secret), options)).payload;
          } catch {
            // next variant
          }
        }
      } catch {
        // next key
      }
    }
    throw new Error('no public key verifies the HS256 signature');
  }
}

/** Fault jwt-iss-trailing-slash-ignored: an issuer URL without its trailing slashes. */
function withoutTrailingSlashes(issuer: string): string {
  return issuer.replace(/\/+$/, '');
}
