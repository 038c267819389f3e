/**
 * When a delivery's signature does not verify, which wrong recipe it follows instead, so
 * a report can say "upper-case hex" rather than only "mismatch". Every name here is a way
 * real implementations get Events > Signature wrong. Secrets never leave this module.
 */
import { createHmac } from 'node:crypto';
import type { CapturedDelivery } from '../../capturing-receiver/types.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from '../../signing/index.js';

function header(delivery: CapturedDelivery, name: string): string | undefined {
  const value = delivery.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function signatureOf(delivery: CapturedDelivery): string | undefined {
  return header(delivery, SIGNATURE_HEADER);
}

export function timestampOf(delivery: CapturedDelivery): string | undefined {
  return header(delivery, TIMESTAMP_HEADER);
}

/** True when the delivery's signature is the lowercase hex HMAC of its raw body under `secret`. */
export function verifiesWith(secret: string, delivery: CapturedDelivery): boolean {
  return verifySignature(secret, delivery.rawBody, signatureOf(delivery)).ok;
}

function hmac(key: string | Buffer, message: string | Buffer): Buffer {
  return createHmac('sha256', key).update(message).digest();
}

/** The key a decoding implementation would use: the base64 after a `prefix_`, when there is one. */
function decodedKey(secret: string): Buffer | undefined {
  const match = /^[A-Za-z]+_(.+)$/.exec(secret);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64');
  return decoded.length > 0 ? decoded : undefined;
}

/**
 * Names the recipe the signature matches, or undefined when it matches none known.
 * `otherSecrets` lets the caller learn that another endpoint's secret was used.
 */
export function diagnoseSignature(
  secret: string,
  delivery: CapturedDelivery,
  otherSecrets: readonly string[] = [],
): string | undefined {
  const received = signatureOf(delivery);
  if (received === undefined || received === '') return 'no X-Service-Signature header';
  const raw = delivery.rawBody;
  const timestamp = timestampOf(delivery) ?? '';
  const messages: Array<[string, string | Buffer]> = [
    ['the raw body', raw],
    [`"<timestamp>.<body>"`, Buffer.concat([Buffer.from(`${timestamp}.`), raw])],
  ];
  messages.push([`"<timestamp><body>"`, Buffer.concat([Buffer.from(timestamp), raw])]);
  const parsed = delivery.verdicts.json;
  if (parsed !== undefined) {
    messages.push(['a re-serialized (compact) body', JSON.stringify(parsed)]);
    messages.push(['a re-serialized (pretty-printed) body', JSON.stringify(parsed, null, 2)]);
  }
  const keys: Array<[string, string | Buffer]> = [["the endpoint's secret", secret]];
  const decoded = decodedKey(secret);
  if (decoded) keys.push(['the base64-decoded part of the secret after its prefix', decoded]);
  otherSecrets.forEach((other, i) =>
    keys.push([`another endpoint's secret${otherSecrets.length > 1 ? ` (#${i + 1})` : ''}`, other]),
  );
  for (const [keyName, key] of keys) {
    for (const [messageName, message] of messages) {
      const digest = hmac(key, message);
      const encodings: Array<[string, string]> = [
        ['lowercase hex', digest.toString('hex')],
        ['upper-case hex', digest.toString('hex').toUpperCase()],
        ['base64', digest.toString('base64')],
        ['base64url', digest.toString('base64url')],
      ];
      for (const [encoding, text] of encodings) {
        if (text !== received && `sha256=${text}` !== received && `v1=${text}` !== received) continue;
        const prefix = text === received ? '' : ` behind a "${received.split('=')[0]}=" prefix`;
        return `${encoding} HMAC-SHA256 of ${messageName} keyed with ${keyName}${prefix}`;
      }
    }
  }
  return undefined;
}

/** One line about a signature that did not verify: the receiver's reason and the recipe it matches. */
export function describeBadSignature(
  secret: string,
  delivery: CapturedDelivery,
  otherSecrets: readonly string[] = [],
): string {
  const verdict = delivery.verdicts.signature;
  const reason = verdict === 'no-secret' ? 'not checked' : verdict.ok ? 'ok' : verdict.reason;
  const recipe = diagnoseSignature(secret, delivery, otherSecrets);
  return `${reason}${recipe ? `; it is the ${recipe}` : '; it matches no known variant'}`;
}
