/**
 * The claims of a session token as a provider issues them: iss, aud, sub, iat, nbf,
 * exp and a jti, then the caller's overrides (which may also delete a claim by
 * setting it to undefined).
 */
import { randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';

/** The spec's session token lifetime (Limits: 60 seconds). */
export const SESSION_LIFETIME_SEC = 60;

/**
 * nbf sits this far before iat, as hosted providers do, so a target whose clock runs a
 * little behind ours does not refuse a fresh token as "not yet valid".
 */
export const NBF_LEAD_SEC = 5;

export interface ClaimOptions {
  issuer: string;
  audience: string;
  sub: string;
  /** Seconds; default 60. exp = iat + lifetimeSec. */
  lifetimeSec?: number;
  /** Moves iat (and nbf, exp with it) relative to now: -61 mints "issued 61 s ago". */
  issuedAtOffsetSec?: number;
  /** Added last: overrides any standard claim; an undefined value removes the claim. */
  claims?: Record<string, unknown>;
  nowSec?: number;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function sessionClaims(options: ClaimOptions): JWTPayload {
  const iat = (options.nowSec ?? nowSeconds()) + (options.issuedAtOffsetSec ?? 0);
  const merged: Record<string, unknown> = {
    iss: options.issuer,
    aud: options.audience,
    sub: options.sub,
    iat,
    nbf: iat - NBF_LEAD_SEC,
    exp: iat + (options.lifetimeSec ?? SESSION_LIFETIME_SEC),
    jti: randomBytes(9).toString('base64url'),
    ...options.claims,
  };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return merged as JWTPayload;
}
