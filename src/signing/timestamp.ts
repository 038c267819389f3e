export type TimestampFailure = 'missing' | 'not-integer' | 'too-old' | 'too-new';
export type TimestampVerdict =
  | { ok: true; skewSeconds: number }
  | { ok: false; reason: TimestampFailure; skewSeconds?: number };

/** Events > Signature, 3, and Limits: the webhook timestamp tolerance. */
export const DEFAULT_TIMESTAMP_TOLERANCE_SECONDS = 300;

const DECIMAL_INTEGER = /^-?[0-9]+$/;

/**
 * Checks `X-Service-Timestamp` (Unix seconds) against the receiver's clock.
 * `skewSeconds` is timestamp minus now: positive when the sender's clock is ahead.
 * `nowSeconds` may be fractional (Date.now() / 1000) so skews are measured precisely.
 * A difference of exactly the tolerance is accepted: the spec rejects when it "exceeds".
 * A millisecond timestamp is not special-cased: it lands about 55 years in the future
 * and fails as `too-new`, which is the truth about it.
 */
export function checkTimestamp(
  header: string | undefined,
  nowSeconds: number,
  toleranceSeconds = DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
): TimestampVerdict {
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  if (!DECIMAL_INTEGER.test(header)) return { ok: false, reason: 'not-integer' };
  const skewSeconds = Number(header) - nowSeconds;
  if (skewSeconds < -toleranceSeconds) return { ok: false, reason: 'too-old', skewSeconds };
  if (skewSeconds > toleranceSeconds) return { ok: false, reason: 'too-new', skewSeconds };
  return { ok: true, skewSeconds };
}
