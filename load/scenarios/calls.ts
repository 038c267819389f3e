/**
 * Call placement at a constant arrival rate (an open model: a slow answer does not slow
 * the arrivals down, so there is no coordinated omission). Verdict: error rate (a gate),
 * p95 and p99 latency, achieved rate, dropped iterations.
 *
 * LOAD_RATE (calls/s, default 20), LOAD_DURATION (default 20s), LOAD_MAX_VUS (default: what the rate needs at the p99 budget, load/lib/executors.ts),
 * LOAD_P95_MS (500), LOAD_P99_MS (1000), LOAD_MAX_ERROR_RATE (0.01).
 */
import type { Options } from 'k6/options';
import { loadDuration, num, seconds } from '../lib/env.ts';
import { arrivalVus } from '../lib/executors.ts';
import { callsSetup, placeCallIteration } from '../lib/setup.ts';
import { summaryHandler } from '../lib/summary.ts';
import { TREND_STATS, callThresholds } from '../lib/thresholds.ts';

const RATE = num('LOAD_RATE', 20);
const DURATION = loadDuration(20);

export const options: Options = {
  scenarios: {
    constant_rate: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: seconds(DURATION),
      ...arrivalVus(RATE),
      gracefulStop: '10s',
    },
  },
  thresholds: callThresholds({
    minRate: RATE * 0.9,
    maxDropped: RATE * DURATION * 0.01,
  }),
  summaryTrendStats: TREND_STATS,
  setupTimeout: '30s',
  noConnectionReuse: false,
};

export { callsSetup as setup, placeCallIteration as default };

export const handleSummary = summaryHandler('calls');
