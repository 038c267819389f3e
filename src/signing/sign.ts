import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/**
 * The signature the spec asks for (Events > Signature, 1): lowercase hex HMAC-SHA256 of
 * the raw request body, keyed with the UTF-8 bytes of the endpoint's secret exactly as
 * given (no base64 or prefix decoding: contracts/control-interface.md).
 */
export function signBody(secret: string, rawBody: Uint8Array | string): string {
  return hmacDigest(secret, rawBody).toString('hex');
}

/** The 32 raw bytes of the HMAC; `verifySignature` compares these, not hex text. */
export function hmacDigest(secret: string | SigningKey, rawBody: Uint8Array | string): Buffer {
  if (typeof secret === 'string') assertUsableSecret(secret);
  return createHmac('sha256', secret).update(rawBody).digest();
}

/** A secret made ready once for many HMACs: a receiver verifies every delivery with the same one. */
export type SigningKey = KeyObject;

/**
 * The key `hmacDigest` would make of `secret` on each call, made once: an HMAC keyed with it
 * skips turning the string into a key each time, a part of every HMAC of a delivery that the
 * receiver bench shows. Unlike the string, it shows no key material when inspected.
 */
export function signingKey(secret: string): SigningKey {
  assertUsableSecret(secret);
  return createSecretKey(secret, 'utf8');
}

/** An empty secret is a programming error, not a verification failure. */
export function assertUsableSecret(secret: string): void {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('signing secret must be a non-empty string');
  }
}
