/**
 * Forged session tokens: each helper makes one of the classic mistakes of JWT
 * validation exploitable, and a correct target must refuse every one of them.
 * Pure functions of claims or of a valid token (signWithForeignKey also makes a key).
 */
import { createHmac } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { decodeBytes, decodeJson, encodeBytes, encodeJson, joinJwt, splitJwt } from './jwt-parts.js';
import { generateSigningKey, type SigningAlg } from './keys.js';
import { signClaims } from './sign.js';

/** Spellings of "none" that case-insensitive algorithm lookups have let through. */
export const ALG_NONE_SPELLINGS = ['none', 'None', 'NONE', 'nOnE'] as const;

export interface AlgNoneOptions {
  /** Default 'none'. */
  spelling?: string;
  /** A kid of the JWKS, for targets that look the key up before reading alg. */
  kid?: string;
}

/** An unsigned token: header alg none, empty signature segment. */
export function withAlgNone(claims: JWTPayload, options: AlgNoneOptions = {}): string {
  const header: Record<string, unknown> = { alg: options.spelling ?? 'none', typ: 'JWT' };
  if (options.kid !== undefined) header.kid = options.kid;
  return joinJwt({ header: encodeJson(header), payload: encodeJson(claims), signature: '' });
}

/**
 * Key confusion: HS256 keyed with the bytes of an RS256 public key's PEM, which a
 * target that lets the token choose the algorithm would verify with that same PEM.
 * `kid` should name the RS256 key so the target finds that PEM.
 */
export function withHs256PublicKey(claims: JWTPayload, publicKeyPem: string, options: { kid?: string } = {}): string {
  const header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' };
  if (options.kid !== undefined) header.kid = options.kid;
  const signingInput = `${encodeJson(header)}.${encodeJson(claims)}`;
  const mac = createHmac('sha256', Buffer.from(publicKeyPem, 'utf8')).update(signingInput).digest();
  return `${signingInput}.${encodeBytes(mac)}`;
}

/** Changes claims and keeps the original signature (which no longer matches). Undefined removes a claim. */
export function tamperPayload(jwt: string, patch: Record<string, unknown>): string {
  const segments = splitJwt(jwt);
  const payload: Record<string, unknown> = { ...decodeJson(segments.payload), ...patch };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return joinJwt({ ...segments, payload: encodeJson(payload) });
}

/** Changes header parameters and keeps the original signature (which no longer matches). */
export function withHeader(jwt: string, patch: Record<string, unknown>): string {
  const segments = splitJwt(jwt);
  const header: Record<string, unknown> = { ...decodeJson(segments.header), ...patch };
  for (const [name, value] of Object.entries(header)) if (value === undefined) delete header[name];
  return joinJwt({ ...segments, header: encodeJson(header) });
}

/**
 * Renames the key in the header, keeping the signature (which no longer matches).
 * For a correctly signed token under an unknown kid use `mint({ header: { kid } })`.
 */
export function withKid(jwt: string, kid: string | undefined): string {
  return withHeader(jwt, { kid });
}

/** Flips every bit of one signature byte (the middle one), so the signature is the right length but wrong. */
export function tamperSignature(jwt: string): string {
  const segments = splitJwt(jwt);
  const bytes = decodeBytes(segments.signature);
  if (bytes.length === 0) throw new Error('the token has no signature to tamper with');
  const index = Math.floor(bytes.length / 2);
  bytes[index] = bytes[index]! ^ 0xff;
  return joinJwt({ ...segments, signature: encodeBytes(bytes) });
}

/** Keeps header and payload, drops the signature: `header.payload.` */
export function stripSignature(jwt: string): string {
  return joinJwt({ ...splitJwt(jwt), signature: '' });
}

/**
 * Signed by a freshly generated key that no JWKS lists, under a kid that one does:
 * a target that trusts the kid without verifying against the listed key accepts it.
 */
export async function signWithForeignKey(claims: JWTPayload, alg: SigningAlg, kid: string): Promise<string> {
  const foreign = await generateSigningKey(alg, kid);
  return signClaims(claims, { alg, privateKey: foreign.privateKey, kid });
}
