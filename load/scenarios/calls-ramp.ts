/**
 * Call placement in ramping stages (ramping-arrival-rate, still an open model): a quarter
 * of LOAD_RATE up to LOAD_RATE, a hold, then up to 1.5 × LOAD_RATE, then down. Same
 * verdicts as `calls`; the achieved-rate threshold is the stages' mean rate.
 */
import type { Options } from 'k6/options';
import { loadDuration, num, seconds } from '../lib/env.ts';
import { arrivalVus } from '../lib/executors.ts';
import { callsSetup, placeCallIteration } from '../lib/setup.ts';
import { summaryHandler } from '../lib/summary.ts';
import { TREND_STATS, callThresholds } from '../lib/thresholds.ts';

const RATE = num('LOAD_RATE', 20);
const DURATION = loadDuration(20);
const START = Math.max(1, Math.round(RATE / 4));
const PEAK = Math.round(RATE * 1.5);

/** Four equal stages: ramp up to RATE, hold, ramp up to PEAK, ramp down to START. */
const stage = DURATION / 4;
const STAGES = [
  { target: RATE, duration: seconds(stage) },
  { target: RATE, duration: seconds(stage) },
  { target: PEAK, duration: seconds(stage) },
  { target: START, duration: seconds(stage) },
];
/** Mean of a piecewise-linear rate: each stage averages its two ends. */
const MEAN_RATE = ((START + RATE) / 2 + RATE + (RATE + PEAK) / 2 + (PEAK + START) / 2) / 4;

export const options: Options = {
  scenarios: {
    ramping_rate: {
      executor: 'ramping-arrival-rate',
      startRate: START,
      timeUnit: '1s',
      stages: STAGES,
      ...arrivalVus(PEAK),
      gracefulStop: '10s',
    },
  },
  thresholds: callThresholds({
    minRate: MEAN_RATE * 0.85,
    maxDropped: MEAN_RATE * DURATION * 0.01,
  }),
  summaryTrendStats: TREND_STATS,
  setupTimeout: '30s',
};

export { callsSetup as setup, placeCallIteration as default };

export const handleSummary = summaryHandler('calls-ramp');
