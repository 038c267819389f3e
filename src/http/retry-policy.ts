/**
 * When the harness sends a request again, as pure functions of what happened: a 429 is
 * waited out (Retry-After in seconds, as an HTTP date, or a back-off when absent), and a
 * request that got no answer is retried only where sending it twice cannot change the
 * target's state. Both within a bounded budget, after which the request ends unanswered
 * (src/errors.ts, HttpError.unanswered) and its check in `error`.
 */

/** How many times one request is sent again after a 429, and the most it waits in all. */
export const RATE_LIMIT_RETRIES = 12;
export const RATE_LIMIT_WAIT_BUDGET_MS = 60_000;
/** The longest single wait a Retry-After may ask for; a longer one ends the request unanswered. */
export const MAX_RETRY_AFTER_MS = 30_000;
/** How many times a request without an answer is sent again, when that is safe. */
export const NETWORK_RETRIES = 3;
/** A time-out costs a whole time-out per attempt: retried once. */
export const TIMEOUT_RETRIES = 1;

/** Methods that change nothing when sent twice (RFC 9110, 9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/**
 * Failures of the connection before the request left: nothing reached the target, so any
 * method may be sent again. A reset or close after that may come after the target acted.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** A certificate the client does not accept: the same certificate comes back on every resend. */
const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export type Unanswered = 'timeout' | 'network';

/** Whether the failure is a certificate the harness does not trust (SVC_CA_CERT is the remedy). */
export function isCertificateRefusal(errorCode: string | undefined): boolean {
  return errorCode !== undefined && CERTIFICATE_CODES.has(errorCode);
}

/**
 * Whether a request that got no answer may be sent again. Besides the idempotent methods and
 * connections never made, any request written onto a kept-alive connection the other side had
 * already closed (`staleConnection`, src/http/reuse.ts): nothing shows the target read it.
 */
export function safeToResend(
  method: string,
  failure: { kind: Unanswered; errorCode?: string; staleConnection?: boolean },
  idempotent?: boolean,
): boolean {
  if (isCertificateRefusal(failure.errorCode)) return false;
  if (failure.kind === 'network' && failure.errorCode && NOT_SENT_CODES.has(failure.errorCode)) return true;
  if (failure.kind === 'network' && failure.staleConnection) return true;
  return idempotent ?? IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** Whether an attempt that got no answer may have reached the target, which may have acted on it. */
export function mayHaveReachedTarget(failure: {
  kind: Unanswered;
  errorCode?: string;
  staleConnection?: boolean;
}): boolean {
  if (failure.kind === 'timeout') return true;
  return !failure.staleConnection && !(failure.errorCode && NOT_SENT_CODES.has(failure.errorCode));
}

/** How many resends a failure of this kind gets. */
export function resendsFor(kind: Unanswered): number {
  return kind === 'timeout' ? TIMEOUT_RETRIES : NETWORK_RETRIES;
}

/** The wait before resend number `attempt` (1, 2, …) of a request without an answer: 250 ms doubling, ±20%. */
export function networkBackoffMs(attempt: number, random: () => number = Math.random): number {
  const base = 250 * 2 ** (attempt - 1);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * The wait a 429 asks for, in ms from `nowMs` (Unix ms): `Retry-After` as delay-seconds or as
 * an HTTP date (RFC 9110, 10.2.3); without a usable one, a back-off doubling from 500 ms per
 * 429 this request met. Never negative; a date in the past means at once.
 */
export function rateLimitWaitMs(
  retryAfter: string | undefined,
  nowMs: number,
  attempt: number,
): { waitMs: number; from: 'seconds' | 'date' | 'backoff' } {
  const value = retryAfter?.trim();
  if (value && /^\d+$/.test(value)) return { waitMs: Number(value) * 1000, from: 'seconds' };
  if (value) {
    const at = Date.parse(value);
    if (Number.isFinite(at) && /GMT$/i.test(value)) return { waitMs: Math.max(0, at - nowMs), from: 'date' };
  }
  return { waitMs: Math.min(500 * 2 ** (attempt - 1), 8_000), from: 'backoff' };
}
