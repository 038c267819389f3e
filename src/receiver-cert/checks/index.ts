/** Every receiver check's implementation, by catalog id (src/receiver-cert/catalog.ts). */
import type { CheckFn } from '../context.js';
import { acceptEventTypes, acceptRawBodies } from './acceptance.js';
import { replayAcknowledged, replayObserved, replayProcessedOnce } from './replay.js';
import * as sig from './signature.js';
import { ackLatency, statusCodes, statusReject401, statusSuccess204 } from './status.js';
import * as ts from './timestamp.js';
import { timingProbe } from './timing.js';

export const CHECK_IMPLEMENTATIONS: Readonly<Record<string, CheckFn>> = {
  'RCV-ACCEPT-EVENT-TYPES': acceptEventTypes,
  'RCV-ACCEPT-RAW-BODIES': acceptRawBodies,
  'RCV-REJECT-WRONG-SIGNATURE': sig.rejectWrongSignature,
  'RCV-REJECT-OTHER-SECRET': sig.rejectOtherSecret,
  'RCV-REJECT-TAMPERED-BODY': sig.rejectTamperedBody,
  'RCV-REJECT-UPPERCASE-HEX': sig.rejectUppercaseHex,
  'RCV-REJECT-BASE64': sig.rejectBase64,
  'RCV-REJECT-TRUNCATED': sig.rejectTruncated,
  'RCV-REJECT-OVERLONG': sig.rejectOverlong,
  'RCV-REJECT-EMPTY-SIGNATURE': sig.rejectEmptySignature,
  'RCV-REJECT-MISSING-SIGNATURE': sig.rejectMissingSignature,
  'RCV-REJECT-RESERIALIZED-SIGNATURE': sig.rejectReserializedSignature,
  'RCV-REJECT-TIMESTAMP-DOT-BODY': sig.rejectTimestampDotBody,
  'RCV-CLOCK-OFFSET': ts.clockOffset,
  'RCV-REJECT-TIMESTAMP-PAST-301': ts.rejectTimestampPast301,
  'RCV-REJECT-TIMESTAMP-FUTURE-301': ts.rejectTimestampFuture301,
  'RCV-ACCEPT-TIMESTAMP-PAST-299': ts.acceptTimestampPast299,
  'RCV-ACCEPT-TIMESTAMP-FUTURE-299': ts.acceptTimestampFuture299,
  'RCV-REJECT-TIMESTAMP-MISSING': ts.rejectTimestampMissing,
  'RCV-REJECT-TIMESTAMP-NON-NUMERIC': ts.rejectTimestampNonNumeric,
  'RCV-REJECT-TIMESTAMP-LENIENT': ts.rejectTimestampLenient,
  'RCV-REJECT-TIMESTAMP-MILLISECONDS': ts.rejectTimestampMilliseconds,
  'RCV-REPLAY-ACKNOWLEDGED': replayAcknowledged,
  'RCV-REPLAY-PROCESSED-ONCE': replayProcessedOnce,
  'RCV-REPLAY-OBSERVED': replayObserved,
  'RCV-STATUS-REJECT-401': statusReject401,
  'RCV-STATUS-SUCCESS-204': statusSuccess204,
  'RCV-STATUS-CODES': statusCodes,
  'RCV-ACK-LATENCY': ackLatency,
  'RCV-TIMING-CONSTANT-TIME': timingProbe,
};
