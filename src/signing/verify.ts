import { timingSafeEqual } from 'node:crypto';
import { hmacDigest, type SigningKey } from './sign.js';

export type SignatureFailure = 'missing' | 'length' | 'not-lowercase-hex' | 'mismatch';
export type SignatureVerdict = { ok: true } | { ok: false; reason: SignatureFailure };

/** HMAC-SHA256 in hex is always 64 characters. */
const SIGNATURE_HEX_LENGTH = 64;
// Shared and frozen: a receiver keeps one verdict per delivery, so no need for a fresh object each.
const VERIFIED: SignatureVerdict = Object.freeze({ ok: true });
const LOWERCASE_HEX = /^[0-9a-f]+$/;

/**
 * Checks `X-Service-Signature` against the raw body (Events > Signature, 1, 4, 5).
 * Order of checks, each with its own reason so a report can say what was wrong:
 * present, right length, lowercase hex, then a constant-time comparison of the bytes.
 */
export function verifySignature(
  secret: string | SigningKey,
  rawBody: Uint8Array | string,
  signatureHeader: string | undefined,
): SignatureVerdict {
  if (signatureHeader === undefined || signatureHeader === '') return { ok: false, reason: 'missing' };
  if (signatureHeader.length !== SIGNATURE_HEX_LENGTH) return { ok: false, reason: 'length' };
  if (!LOWERCASE_HEX.test(signatureHeader)) return { ok: false, reason: 'not-lowercase-hex' };
  const expected = hmacDigest(secret, rawBody);
  const received = Buffer.from(signatureHeader, 'hex');
  // Both are 32 bytes here (length and alphabet checked above), as timingSafeEqual requires.
  return timingSafeEqual(expected, received) ? VERIFIED : { ok: false, reason: 'mismatch' };
}
