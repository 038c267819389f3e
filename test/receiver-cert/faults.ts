/**
 * The fault registry of the receiver certification: for each fault of the faulty receiver
 * (faulty-receiver.ts), the receiver checks that must not pass under it (`fail` for a
 * must, `warn` for a should). Under a fault, exactly these checks are non-passing; the
 * clean receivers pass everything. The timing fault is caught by an observation: the
 * constant-time probe stays `observe` and flags `leak_suspected`.
 */
import type { ReceiverFault } from './faulty-receiver.js';

export interface FaultExpectation {
  /** Checks that are fail/warn under the fault; every other check passes or skips. */
  failing: string[];
  /** Settings for this fault's run, beyond the shared test settings. */
  settings?: Record<string, string>;
  /** Caught by the timing probe's observation instead of a failing check. */
  timingLeak?: true;
  /** Not a fault: another choice the spec allows, which must pass every check (not counted in the mutation score). */
  conformant?: true;
}

const SIGNATURE_MUSTS = [
  'RCV-REJECT-WRONG-SIGNATURE',
  'RCV-REJECT-OTHER-SECRET',
  'RCV-REJECT-TAMPERED-BODY',
  'RCV-REJECT-TRUNCATED',
  'RCV-REJECT-OVERLONG',
  'RCV-REJECT-EMPTY-SIGNATURE',
  'RCV-REJECT-MISSING-SIGNATURE',
  'RCV-REJECT-RESERIALIZED-SIGNATURE',
  'RCV-REJECT-TIMESTAMP-DOT-BODY',
];
const SIGNATURE_SHOULDS = ['RCV-REJECT-UPPERCASE-HEX', 'RCV-REJECT-BASE64'];
const TIMESTAMP_REJECTS = [
  'RCV-REJECT-TIMESTAMP-PAST-301',
  'RCV-REJECT-TIMESTAMP-FUTURE-301',
  'RCV-REJECT-TIMESTAMP-MISSING',
  'RCV-REJECT-TIMESTAMP-NON-NUMERIC',
  'RCV-REJECT-TIMESTAMP-LENIENT',
  'RCV-REJECT-TIMESTAMP-MILLISECONDS',
];

export const FAULT_EXPECTATIONS: Record<Exclude<ReceiverFault, 'none'>, FaultExpectation> = {
  'accept-all': { failing: [...SIGNATURE_MUSTS, ...SIGNATURE_SHOULDS, ...TIMESTAMP_REJECTS] },
  'early-exit-compare': { failing: [], timingLeak: true },
  // The re-formatted replay is rejected too (its bytes differ from their re-serialization),
  // and a body with a space appended passes (the round trip drops the space).
  'reserialized-json': {
    failing: [
      'RCV-ACCEPT-RAW-BODIES',
      'RCV-REJECT-RESERIALIZED-SIGNATURE',
      'RCV-REJECT-TAMPERED-BODY',
      'RCV-REPLAY-ACKNOWLEDGED',
    ],
  },
  'no-timestamp-window': { failing: [...TIMESTAMP_REJECTS] },
  'window-ms': { failing: ['RCV-REJECT-TIMESTAMP-PAST-301', 'RCV-REJECT-TIMESTAMP-FUTURE-301'] },
  'window-60s': { failing: ['RCV-ACCEPT-TIMESTAMP-PAST-299', 'RCV-ACCEPT-TIMESTAMP-FUTURE-299'] },
  'past-only-window': { failing: ['RCV-REJECT-TIMESTAMP-FUTURE-301', 'RCV-REJECT-TIMESTAMP-MILLISECONDS'] },
  'nan-timestamp': {
    failing: ['RCV-REJECT-TIMESTAMP-MISSING', 'RCV-REJECT-TIMESTAMP-NON-NUMERIC', 'RCV-REJECT-TIMESTAMP-LENIENT'],
  },
  'parse-int-timestamp': { failing: ['RCV-REJECT-TIMESTAMP-LENIENT'] },
  'accepts-uppercase': { failing: ['RCV-REJECT-UPPERCASE-HEX'] },
  'accepts-base64': { failing: ['RCV-REJECT-BASE64'] },
  'prefix-compare': {
    failing: [
      'RCV-REJECT-TRUNCATED',
      'RCV-REJECT-OVERLONG',
      'RCV-REJECT-EMPTY-SIGNATURE',
      'RCV-REJECT-MISSING-SIGNATURE',
    ],
  },
  'signature-optional': { failing: ['RCV-REJECT-MISSING-SIGNATURE'] },
  'ok-on-bad-signature': { failing: [...SIGNATURE_MUSTS, ...SIGNATURE_SHOULDS] },
  // Conformant choices, not faults: any non-2xx rejects and any 2xx acknowledges (SIG-4),
  // so a receiver that answers 400 or 200 must pass everything (RCV-STATUS-* record it).
  'reject-400': { failing: [], conformant: true },
  'success-200': { failing: [], conformant: true },
  // Rejection checks skip (no valid delivery was acknowledged, so a rejection shows nothing).
  slow: {
    failing: [
      'RCV-ACCEPT-EVENT-TYPES',
      'RCV-ACCEPT-RAW-BODIES',
      'RCV-ACCEPT-TIMESTAMP-PAST-299',
      'RCV-ACCEPT-TIMESTAMP-FUTURE-299',
      'RCV-REPLAY-ACKNOWLEDGED',
    ],
    settings: { TARGET_RECEIVER_TIMEOUT_MS: '1000' },
  },
  'rejects-replay': { failing: ['RCV-REPLAY-ACKNOWLEDGED'] },
  'counts-replays': { failing: ['RCV-REPLAY-PROCESSED-ONCE'] },
};
