import type { JwtPayload, VerifyOptions } from 'jsonwebtoken';
import type { JwksClient } from 'jwks-rsa';
import type { FaultSet } from '../faults.js';
import type { IdentityProvider, Store, Workspace } from '../store.js';
import { JWKS_TIMEOUT_MS, type SessionPrincipal } from './session.js';

// Session tokens the way most Node services verify them (the `jsonwebtoken` personality):
// jsonwebtoken checks signature, algorithm, iss, aud, exp and nbf; jwks-rsa finds the key
// by kid in the workspace's JWKS. Configured as a careful integrator would, and every
// failure, a thrown one included, is a refusal (401 invalid_token), never a 500.
// Not modelled here: the reference's jwt-* and jwks-* faults (they are the jose verifier's).

/** Only the two algorithms the contract names; never `none`, never an HMAC. */
export const JSONWEBTOKEN_ALGORITHMS: VerifyOptions['algorithms'] = ['RS256', 'ES256'];
/** Keys cached per kid this long: a key removed from the JWKS is refused within it. */
export const JWKS_CACHE_MAX_AGE_MS = 10_000;
/** Kids cached per provider. */
export const JWKS_CACHE_MAX_ENTRIES = 10;

type Jwt = typeof import('jsonwebtoken');
type JwksRsa = typeof import('jwks-rsa');

/** Loaded on the first session token: the other personalities do not pay for loading them. */
let libraries: Promise<{ jwt: Jwt; jwksRsa: JwksRsa }> | undefined;

function loadLibraries(): Promise<{ jwt: Jwt; jwksRsa: JwksRsa }> {
  libraries ??= Promise.all([import('jsonwebtoken'), import('jwks-rsa')]).then(([jwt, jwksRsa]) => ({
    jwt: jwt.default,
    jwksRsa: jwksRsa.default,
  }));
  return libraries;
}

/** One jwks-rsa client per configured provider: a new PUT identity-provider gets a new one. */
const clients = new WeakMap<IdentityProvider, JwksClient>();

function jwksClientFor(jwksRsa: JwksRsa, provider: IdentityProvider): JwksClient {
  let client = clients.get(provider);
  if (!client) {
    client = jwksRsa({
      jwksUri: provider.jwksUri,
      cache: true,
      cacheMaxEntries: JWKS_CACHE_MAX_ENTRIES,
      cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
      // Through the reference's outbound rules (REFERENCE_OUTBOUND_HOST, added latency).
      fetcher: async (uri) => {
        // jwks-rsa's own `timeout` is not used with a `fetcher`: the fetch is bounded here.
        const response = await provider.fetch(uri, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) });
        if (!response.ok) throw new Error(`JWKS ${response.status}`);
        return (await response.json()) as { keys: unknown };
      },
    });
    clients.set(provider, client);
  }
  return client;
}

/** iss and kid read before verification, to pick the provider and the key; null if it does not decode. */
function peek(jwt: Jwt, token: string): { iss: string; kid: string | undefined } | null {
  try {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload !== 'object' || decoded.payload === null) return null;
    const { iss } = decoded.payload;
    const { kid } = decoded.header;
    return { iss: typeof iss === 'string' ? iss : '', kid: typeof kid === 'string' ? kid : undefined };
  } catch {
    // jws throws on a payload that is not JSON when typ is JWT.
    return null;
  }
}

export class JsonwebtokenSessionVerifier {
  constructor(
    private readonly store: Store,
    /** Clock skew tolerated on exp and nbf (the personality's: a few seconds, as most deployments set it). */
    private readonly clockTolerance: number,
  ) {}

  /** The member the JWT speaks for, or null (the caller answers invalid_token). */
  async verify(token: string, _requestFaults: FaultSet): Promise<SessionPrincipal | null> {
    const { jwt, jwksRsa } = await loadLibraries();
    const peeked = peek(jwt, token);
    if (!peeked) return null;
    // Several workspaces may share an issuer: the token belongs to the one whose provider
    // verifies it (its audience) and whose members include its subject.
    for (const workspace of this.store.workspacesWithIssuer(peeked.iss)) {
      const principal = await this.verifyFor(jwt, jwksRsa, workspace, token, peeked.kid);
      if (principal) return principal;
    }
    return null;
  }

  private async verifyFor(
    jwt: Jwt,
    jwksRsa: JwksRsa,
    workspace: Workspace,
    token: string,
    kid: string | undefined,
  ): Promise<SessionPrincipal | null> {
    const provider = workspace.identityProvider;
    if (!provider) return null;
    let payload: JwtPayload;
    try {
      const key = await jwksClientFor(jwksRsa, provider).getSigningKey(kid);
      const verified = jwt.verify(token, key.getPublicKey(), {
        algorithms: JSONWEBTOKEN_ALGORITHMS,
        issuer: provider.issuer,
        audience: provider.audience,
        clockTolerance: this.clockTolerance,
      });
      if (typeof verified !== 'object' || verified === null) return null;
      payload = verified;
    } catch {
      return null;
    }
    // jsonwebtoken checks exp only when present: a token without one would never expire.
    if (typeof payload.exp !== 'number' || typeof payload.sub !== 'string') return null;
    const member = workspace.members.get(payload.sub);
    if (!member) return null;
    return {
      workspace,
      scopes: member.scopes.filter((s) => workspace.licensedScopes.includes(s)),
      memberId: member.id,
    };
  }
}
