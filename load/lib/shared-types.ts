/**
 * The shapes the k6 scripts (load/) and the Node side of `svc-harness load` (src/load/)
 * exchange, written once. No imports and no runtime code: load/tsconfig.json checks it with
 * k6's types and tsconfig.json with Node's, and both sides import it.
 */

/** One metric of k6's summary data (what handleSummary receives). */
export interface K6Metric {
  /** trend, rate, counter or gauge. */
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

/**
 * k6's summary data with the scenario's name, as load/lib/summary.ts writes it to
 * LOAD_SUMMARY_PATH and src/load/report/digest.ts reads it.
 */
export interface K6Summary {
  scenario?: string;
  metrics: Record<string, K6Metric>;
  state?: { testRunDurationMs?: number };
}
