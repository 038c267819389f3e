import type { CapturedDelivery } from './types.js';

/**
 * One readable line per delivery for the live log of `npm run receiver`:
 * time, path, event type and id, then each verdict, then the answer. Failures are in
 * capitals so they stand out. Nothing secret is in a delivery, so nothing secret is here.
 */
export function formatDeliveryLine(d: CapturedDelivery): string {
  const { signature, timestamp, envelope, eventId, eventType, duplicate } = d.verdicts;
  const time = new Date(d.receivedAtMs).toISOString().slice(11, 23);
  const sig =
    signature === 'no-secret' ? 'sig (no secret)' : signature.ok ? 'sig ok' : `sig ${signature.reason.toUpperCase()}`;
  const skew = timestamp.skewSeconds === undefined ? '' : ` ${formatSkew(timestamp.skewSeconds)}`;
  const ts = timestamp.ok ? `ts ok${skew}` : `ts ${timestamp.reason.toUpperCase()}${skew}`;
  const env = envelope.valid
    ? 'envelope ok'
    : `envelope INVALID (${envelope.errors.slice(0, 3).join('; ')}${envelope.errors.length > 3 ? '; …' : ''})`;
  const dup = duplicate ? `DUPLICATE (attempt ${d.attempt})` : 'new';
  const answer = d.answeredStatus !== null ? `-> ${d.answeredStatus}` : `-> ${d.answer}`;
  return [
    time,
    `${d.method} ${d.path}`,
    eventType ?? '(no type)',
    eventId ?? '(no id)',
    sig,
    ts,
    env,
    dup,
    answer,
  ].join('  ');
}

function formatSkew(seconds: number): string {
  return `${seconds >= 0 ? '+' : ''}${seconds.toFixed(1)}s`;
}
