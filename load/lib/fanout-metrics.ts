/**
 * The fan-out's metrics, named once for both sides: the runners add to PLACED (one sample per
 * call, with its id and placement time as the sample's metadata); svc-harness writes the receivers' figures once
 * the runners have ended (src/load/fanout/verdict.ts), and the script declares them, with
 * these types, because k6 accepts thresholds only on metrics it knows (load/scenarios/fanout.ts).
 * No imports: load/tsconfig.json checks it with k6's types and tsconfig.json with Node's.
 */

export const FANOUT_PLACED_METRIC = 'fanout_calls_placed';

/** The metadata of a PLACED sample (k6's JSON output writes it; outputs to metrics stores leave it out). */
export const PLACED_CALL_ID = 'call_id';
export const PLACED_AT_MS = 'placed_at_ms';

/** The receivers' figures and their k6 metric types (every trend is a time in ms). */
export const FANOUT_RECEIVER_METRICS = {
  fanout_untracked_calls: 'counter',
  fanout_expected_deliveries: 'counter',
  fanout_arrived_deliveries: 'counter',
  fanout_lost_deliveries: 'counter',
  fanout_loss_ratio: 'gauge',
  fanout_bad_signatures: 'counter',
  fanout_duplicates: 'counter',
  fanout_unattributed_deliveries: 'counter',
  fanout_deliveries_per_second: 'gauge',
  fanout_receiver_client_closed: 'counter',
  fanout_event_to_arrival_ms: 'trend',
  fanout_placement_to_arrival_ms: 'trend',
} as const;

export type FanoutReceiverMetric = keyof typeof FANOUT_RECEIVER_METRICS;
