/**
 * The shapes the k6 scripts (load/) and the Node side of `svc-harness load` (src/load/)
 * exchange, written once. No imports and no runtime code: load/tsconfig.json checks it with
 * k6's types and tsconfig.json with Node's, and both sides import it.
 */

/** POST {LOAD_MONITOR_URL}/expect: a VU placed this call (load/lib/monitor.ts → src/load/fanout-monitor.ts). */
export interface ExpectedCall {
  call_id: string;
  placed_at_ms: number;
}

/** The capturing receiver's counters (its /_stats): how deliveries ended on its side. */
export interface ReceiverCounters {
  total: number;
  /** The service hung up before the answer (e.g. its delivery time-out): a failed attempt, retried later. */
  client_closed: number;
  timed_out: number;
  resets: number;
  client_errors: number;
  strays: number;
}

/** GET {LOAD_MONITOR_URL}/stats[?samples=1]: the fan-out tally (src/load/fanout-tally.ts), read by the fanout scenario's teardown. */
export interface MonitorStats {
  endpoints: number;
  events_per_call: number;
  calls_expected: number;
  /** calls × endpoints × lifecycle events. */
  expected: number;
  /** Expected deliveries that arrived at least once. */
  arrived: number;
  lost: number;
  deliveries_total: number;
  deliveries_per_second: number;
  first_arrival_ms: number | null;
  last_arrival_ms: number | null;
  bad_signatures: number;
  duplicates: number;
  /** Deliveries naming no call, or a call no VU reported. */
  unattributed: number;
  /** With ?samples=1: bounded samples of end-to-end latency. */
  samples?: { event_to_arrival_ms: number[]; placement_to_arrival_ms: number[] };
  receiver?: ReceiverCounters;
}

/** One metric of k6's summary data (what handleSummary receives). */
export interface K6Metric {
  /** trend, rate, counter or gauge. */
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

/**
 * k6's summary data with the scenario's name, as load/lib/summary.ts writes it to
 * LOAD_SUMMARY_PATH and src/load/digest.ts reads it.
 */
export interface K6Summary {
  scenario?: string;
  metrics: Record<string, K6Metric>;
  state?: { testRunDurationMs?: number };
}
