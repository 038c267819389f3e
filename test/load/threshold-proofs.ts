/**
 * Which fault of the reference breaks which load threshold: thresholds.test.ts runs each
 * scenario against the faulted reference and expects exactly these thresholds to fail; the
 * smoke test expects every one of them to hold on the clean reference.
 */
import type { FaultName } from '../../reference/faults.js';

export interface ThresholdProof {
  scenario: 'calls' | 'calls-ramp' | 'rotation' | 'fanout';
  fault: FaultName;
  /** `metric expression`, as k6 names them in the summary. */
  fails: readonly string[];
  /** LOAD_ settings of the faulted run (e.g. a shorter drain when deliveries never come). */
  env?: Record<string, string>;
  /** Run as this many k6 processes (--instances): the merged verdict must fail the same thresholds. */
  instances?: number;
}

export const THRESHOLD_PROOFS: readonly ThresholdProof[] = [
  { scenario: 'calls', fault: 'call-id-missing', fails: ['checks{check:answer names a call_ id} rate==1'] },
  {
    scenario: 'calls',
    fault: 'call-id-missing',
    instances: 2,
    fails: ['checks{check:answer names a call_ id} rate==1'],
  },
  {
    scenario: 'rotation',
    fault: 'revocation-stale-node',
    fails: ['rotation_old_token_accepted_after_refusal count==0'],
  },
  {
    scenario: 'rotation',
    fault: 'token-revoked-code',
    fails: ['checks{check:old token refused with 401 invalid_token} rate==1'],
  },
  {
    scenario: 'rotation',
    fault: 'whoami-204',
    fails: ['checks{check:whoami 200 with old and new token before revocation} rate==1'],
  },
  {
    scenario: 'fanout',
    fault: 'deliveries-delayed-5s',
    // The scenario's default budget, which the load tests' runs otherwise widen (load-child.ts).
    env: { LOAD_FANOUT_P95_MS: '1000', LOAD_FANOUT_P99_MS: '2000' },
    fails: [
      'fanout_event_to_arrival_ms p(95)<1000',
      'fanout_event_to_arrival_ms p(99)<2000',
      'fanout_placement_to_arrival_ms p(95)<3000',
      'fanout_placement_to_arrival_ms p(99)<4000',
    ],
  },
  // No started event: a third of the deliveries never come; a short drain, as waiting longer changes nothing.
  {
    scenario: 'fanout',
    fault: 'lifecycle-no-started',
    fails: ['fanout_loss_ratio value<=0'],
    env: { LOAD_DRAIN_S: '3' },
  },
  // Split: the receivers' tally judges the calls of every segment together.
  {
    scenario: 'fanout',
    fault: 'lifecycle-no-started',
    instances: 2,
    fails: ['fanout_loss_ratio value<=0'],
    env: { LOAD_DRAIN_S: '3' },
  },
];
