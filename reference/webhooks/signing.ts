import { createHmac, randomBytes } from 'node:crypto';
import { clockAheadMs, type FaultSet } from '../faults.js';

// Webhook signatures: lowercase hex HMAC-SHA256 of the exact body bytes sent, keyed
// with the UTF-8 bytes of the endpoint's whole secret string (no decoding of any part).

export function hmacSha256Hex(key: string | Uint8Array, message: string | Uint8Array): string {
  // Stryker disable next-line StringLiteral: equivalent: only the reference's own tests call it, as their oracle
  return createHmac('sha256', key).update(message).digest('hex');
}

/** `whsec_` + base64 of 24 random bytes. */
export function newSigningSecret(): string {
  // Stryker disable next-line StringLiteral: no stated rule: the secret's whsec_ prefix; the contract shows it as "<signing secret>", used exactly as given
  return 'whsec_' + randomBytes(24).toString('base64');
}

/** The X-Service-Signature value for `signedBody`, as the faults (if any) get it wrong. */
export function signatureFor(secret: string, signedBody: string, timestamp: string, faults: FaultSet): string {
  // Fault sign-key-prefix-stripped: the prefix sliced off, the rest used as text.
  const key: string | Uint8Array = faults.has('sign-decoded-key')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : faults.has('sign-key-prefix-stripped')
      ? secret.replace(/^whsec_/, '')
      : secret;
  const text = faults.has('sign-timestamp-body') ? `${timestamp}.${signedBody}` : signedBody;
  // Fault sign-latin1-body: the string is hashed as latin1, one byte per UTF-16 unit, not as the UTF-8 sent.
  const message = faults.has('sign-latin1-body') ? Buffer.from(text, 'latin1') : text;
  const hmac = createHmac('sha256', key).update(message);
  if (faults.has('sign-base64')) return hmac.digest('base64');
  const hex = hmac.digest('hex');
  // Fault sign-sha256-prefix: the digest written in GitHub's header form, sha256=<hex>.
  if (faults.has('sign-sha256-prefix')) return `sha256=${hex}`;
  return faults.has('sign-uppercase') ? hex.toUpperCase() : hex;
}

/** The X-Service-Timestamp value: Unix seconds of this attempt (milliseconds under fault timestamp-ms). */
export function timestampFor(nowMs: number, faults: FaultSet): string {
  // Stryker disable next-line ArithmeticOperator: equivalent: clockAheadMs is 0 without a fault
  const serviceNowMs = nowMs + clockAheadMs(faults);
  if (faults.has('timestamp-ms')) return String(serviceNowMs);
  // Fault timestamp-fractional-seconds: the milliseconds divided down but never floored, written to 3 places.
  if (faults.has('timestamp-fractional-seconds')) return (serviceNowMs / 1000).toFixed(3);
  return String(Math.floor(serviceNowMs / 1000));
}
