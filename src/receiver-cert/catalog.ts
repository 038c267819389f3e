/**
 * The receiver certification catalog: the single source of every receiver check's id,
 * title, spec clause and level (`npm run certify:receiver`). Here the harness plays the
 * service and certifies a team's webhook receiver against Events > Signature and
 * Events > Retry and replay of ../shared/spec/service-interface.md.
 *
 * Ids are stable across versions: rename a title freely, never an id. The order here is
 * the order of the run (the status and latency checks read what earlier checks saw).
 */
import type { Level } from '../catalog/checks.js';

export type ReceiverArea =
  | 'receiver-acceptance'
  | 'receiver-signature'
  | 'receiver-timestamp'
  | 'receiver-replay'
  | 'receiver-status'
  | 'receiver-timing';

export interface ReceiverCheckSpec {
  id: string;
  title: string;
  /** Where in ../shared/spec/service-interface.md the rule is stated ("Section > Sub, item"). */
  clause: string;
  level: Level;
  area: ReceiverArea;
}

const c = (id: string, area: ReceiverArea, level: Level, title: string, clause: string): ReceiverCheckSpec => ({ id, area, level, title, clause });

const ACK = 'Endpoints > Webhook receiver contract (any 2xx acknowledges); Events > Retry and replay, 1; Limits (receiver time-out 30 s)';
const SIG4 = 'Events > Signature, 4';

export const RECEIVER_CHECKS: readonly ReceiverCheckSpec[] = [
  // --- Valid deliveries are acknowledged --------------------------------------------
  c('RCV-ACCEPT-EVENT-TYPES', 'receiver-acceptance', 'must',
    'A valid delivery of each of the eight event types is acknowledged with a 2xx within the time-out',
    `Events > Event types; Events > Signature, 4; ${ACK}`),
  c('RCV-ACCEPT-RAW-BODIES', 'receiver-acceptance', 'must',
    'Validly signed bodies that re-serialization would change (whitespace, key order, escapes, non-ASCII, large numbers) are acknowledged',
    'Events > Signature, 1 and 5 (raw, unparsed body)'),

  // --- Bad signatures are rejected (non-2xx) ------------------------------------------
  c('RCV-REJECT-WRONG-SIGNATURE', 'receiver-signature', 'must',
    'A well-formed but wrong signature (64 lowercase hex) is rejected', SIG4),
  c('RCV-REJECT-OTHER-SECRET', 'receiver-signature', 'must',
    'A signature of the body made with another secret is rejected', `Events > Signature, 1 (keyed with the endpoint's secret) and 4`),
  c('RCV-REJECT-TAMPERED-BODY', 'receiver-signature', 'must',
    'The right signature sent with a body changed after signing is rejected', 'Events > Signature, 1 and 4'),
  c('RCV-REJECT-UPPERCASE-HEX', 'receiver-signature', 'should',
    'The right signature in upper-case hex is rejected', 'Events > Signature, 1 (lowercase hex) and 4'),
  c('RCV-REJECT-BASE64', 'receiver-signature', 'should',
    'The right HMAC in base64 instead of hex is rejected', 'Events > Signature, 1 (hex) and 4'),
  c('RCV-REJECT-TRUNCATED', 'receiver-signature', 'must',
    'A truncated signature (the right one cut to 63 and to 32 hex characters) is rejected', 'Events > Signature, 4 (lengths checked before comparing)'),
  c('RCV-REJECT-OVERLONG', 'receiver-signature', 'must',
    'An over-long signature (the right one plus one character, the right one twice) is rejected', 'Events > Signature, 4 (lengths checked before comparing)'),
  c('RCV-REJECT-EMPTY-SIGNATURE', 'receiver-signature', 'must',
    'An empty X-Service-Signature header is rejected', SIG4),
  c('RCV-REJECT-MISSING-SIGNATURE', 'receiver-signature', 'must',
    'A delivery without X-Service-Signature is rejected', `Endpoints > Webhook receiver contract (headers); ${SIG4}`),
  c('RCV-REJECT-RESERIALIZED-SIGNATURE', 'receiver-signature', 'must',
    'A signature over the re-serialized body (JavaScript and Python styles) instead of the raw bytes is rejected', 'Events > Signature, 5'),
  c('RCV-REJECT-TIMESTAMP-DOT-BODY', 'receiver-signature', 'must',
    'A signature over `timestamp.body` instead of the body is rejected', 'Events > Signature, 1 and 3 (the timestamp is not signed)'),

  // --- Timestamps ----------------------------------------------------------------------
  c('RCV-CLOCK-OFFSET', 'receiver-timestamp', 'observe',
    "The receiver's clock offset, measured from its Date headers (used by the ±299/±301 s checks)", 'Events > Signature, 3'),
  c('RCV-REJECT-TIMESTAMP-PAST-301', 'receiver-timestamp', 'must',
    "A timestamp 301 s behind the receiver's clock is rejected", 'Events > Signature, 3; Limits (timestamp tolerance 300 s)'),
  c('RCV-REJECT-TIMESTAMP-FUTURE-301', 'receiver-timestamp', 'must',
    "A timestamp 301 s ahead of the receiver's clock is rejected", 'Events > Signature, 3; Limits (timestamp tolerance 300 s)'),
  c('RCV-ACCEPT-TIMESTAMP-PAST-299', 'receiver-timestamp', 'must',
    "A timestamp 299 s behind the receiver's clock is acknowledged", 'Events > Signature, 3; Limits (timestamp tolerance 300 s)'),
  c('RCV-ACCEPT-TIMESTAMP-FUTURE-299', 'receiver-timestamp', 'must',
    "A timestamp 299 s ahead of the receiver's clock is acknowledged", 'Events > Signature, 3; Limits (timestamp tolerance 300 s)'),
  c('RCV-REJECT-TIMESTAMP-MISSING', 'receiver-timestamp', 'must',
    'A delivery without X-Service-Timestamp (or with it empty) is rejected', 'Events > Signature, 2 and 3'),
  c('RCV-REJECT-TIMESTAMP-NON-NUMERIC', 'receiver-timestamp', 'must',
    'A non-numeric timestamp (text, an ISO 8601 date, digits followed by text) is rejected', 'Events > Signature, 2 (Unix seconds) and 3'),
  c('RCV-REJECT-TIMESTAMP-MILLISECONDS', 'receiver-timestamp', 'must',
    'The current time in Unix milliseconds (about 55 years ahead in seconds) is rejected', 'Events > Signature, 2 (Unix seconds) and 3'),

  // --- Replay --------------------------------------------------------------------------
  c('RCV-REPLAY-ACKNOWLEDGED', 'receiver-replay', 'must',
    'A replay (same id, fresh signature and timestamp) is acknowledged with a 2xx', 'Events > Retry and replay, 4'),
  c('RCV-REPLAY-PROCESSED-ONCE', 'receiver-replay', 'must',
    'A replayed id is processed once (needs the count convention; skip without it)', 'Events > Retry and replay, 4 (receivers must be idempotent on id); Events > Envelope (id)'),
  c('RCV-REPLAY-OBSERVED', 'receiver-replay', 'observe',
    'What the receiver shows of a replay from outside: statuses, times, count', 'Events > Retry and replay, 4'),

  // --- Constant time -------------------------------------------------------------------
  c('RCV-TIMING-CONSTANT-TIME', 'receiver-timing', 'observe',
    'Timing probe: rejections do not take longer as a wrong signature shares a longer prefix with the right one', 'Events > Signature, 4 (compare in constant time)'),

  // --- Status codes and latency (read from every exchange before them) ---------------
  c('RCV-STATUS-REJECT-401', 'receiver-status', 'should',
    'Deliveries that must be rejected are answered 401, as the reference receiver does', SIG4),
  c('RCV-STATUS-SUCCESS-204', 'receiver-status', 'should',
    'Valid deliveries are acknowledged with 204, as the reference receiver does', SIG4),
  c('RCV-STATUS-CODES', 'receiver-status', 'observe',
    'Status codes the receiver uses for acknowledgements and rejections', `${SIG4}; Endpoints > Webhook receiver contract`),
  c('RCV-ACK-LATENCY', 'receiver-status', 'observe',
    'Acknowledgement times of valid deliveries', 'Events > Retry and replay, 1; Limits (receiver time-out 30 s)'),
];

export const RECEIVER_CHECK_IDS = new Set(RECEIVER_CHECKS.map((check) => check.id));

export function receiverCheck(id: string): ReceiverCheckSpec {
  const spec = RECEIVER_CHECKS.find((check) => check.id === id);
  if (spec === undefined) throw new Error(`no receiver check ${id} in the catalog`);
  return spec;
}
