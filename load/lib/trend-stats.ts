/**
 * The statistics k6 summarizes for every trend: what the scenarios ask for
 * (`summaryTrendStats`) and what svc-harness reads from their summaries (digest, baseline,
 * reports). `svc-harness load -- --summary-trend-stats …` adds to them, never removes one.
 * No imports: load/tsconfig.json checks it with k6's types and tsconfig.json with Node's.
 */
export const TREND_STATS: readonly string[] = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];
