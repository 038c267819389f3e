/**
 * Webhook fan-out: N endpoints (LOAD_ENDPOINTS, at most 25) on the capturing receiver,
 * calls placed at a fixed rate (LOAD_RATE, default 5/s, for LOAD_DURATION, default 10s).
 * Every call's lifecycle events (queued, started, completed) must reach every endpoint.
 *
 * The runners only place calls: each placed call is a sample of fanout_calls_placed with its
 * id and placement time as metadata (not tags: a metrics store would make each call a series). What arrived is the receivers' side, which svc-harness
 * tallies while k6 runs and judges once every runner has ended (src/load/fanout/verdict.ts,
 * after a drain of LOAD_DRAIN_S for late deliveries): its figures go beside the runners'
 * samples and the thresholds below are judged on both together. So a runner never talks to
 * the harness, and the scenario splits into segments (--instances) like any other.
 *
 * Verdict: every placement 2xx naming its call, zero bad signatures, the lost fraction of
 * expected deliveries at most LOAD_FANOUT_MAX_LOSS (default 0), and delivery latency within
 * the fan-out budget (see FANOUT_BUDGET below).
 */
import exec from 'k6/execution';
import { Counter, Gauge, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { CALL_ID_CHECK, placeCall } from '../lib/calls.ts';
import { env, loadDuration, num, seconds } from '../lib/env.ts';
import {
  FANOUT_PLACED_METRIC,
  FANOUT_RECEIVER_METRICS,
  PLACED_AT_MS,
  PLACED_CALL_ID,
  type FanoutReceiverMetric,
} from '../lib/fanout-metrics.ts';
import { arrivalVus } from '../lib/executors.ts';
import { callsSetup, callsToken, type CallsSetup } from '../lib/setup.ts';
import { summaryHandler } from '../lib/summary.ts';
import { ENDPOINT } from '../lib/target.ts';
import { TREND_STATS, everyCheck, gate, onEndpoint } from '../lib/thresholds.ts';

const RATE = num('LOAD_RATE', 5);
const D = loadDuration(10);
const RUN_ID = env('LOAD_RUN_ID') ?? 'local';

/**
 * The fan-out budget (the spec bounds no delivery latency; this is the harness's objective,
 * LOAD_FANOUT_P95_MS / LOAD_FANOUT_P99_MS to change it): an event reaches every endpoint
 * within 1 s of its created_at at p95 and 2 s at p99. From placement, the call's lifecycle
 * comes first: the control contract's `auto` progress completes a call within 2 s, so
 * placement to arrival of voice.call.completed gets the same budget plus LIFECYCLE_MS.
 */
const FANOUT_BUDGET = { p95Ms: num('LOAD_FANOUT_P95_MS', 1000), p99Ms: num('LOAD_FANOUT_P99_MS', 2000) };
const LIFECYCLE_MS = 2000;
/** Lost deliveries allowed, as a fraction of the expected ones (calls × endpoints × 3 events). */
const MAX_LOSS = num('LOAD_FANOUT_MAX_LOSS', 0);

/**
 * One sample per placed call, with call_id and placed_at_ms as its metadata: the verdict reads
 * them (src/load/fanout/verdict.ts). Metadata, not tags: k6's outputs to metrics stores make a
 * series of every tag set, and one series per call would swamp the store.
 */
const placedCalls = new Counter(FANOUT_PLACED_METRIC);

/** The receivers' figures, declared so that k6 takes thresholds on them; no runner adds to them. */
export const judgedAfterRun = Object.entries(FANOUT_RECEIVER_METRICS).map(([name, type]) =>
  type === 'counter' ? new Counter(name) : type === 'gauge' ? new Gauge(name) : new Trend(name, true),
);

/**
 * Judged on the receivers' figures that svc-harness adds once the runners have ended. A
 * runner of a merged run (LOAD_MERGED_VERDICT=true, set by svc-harness) leaves them to the
 * merge, which reads them from the script as one instance holds them (`k6 inspect`).
 */
const RECEIVER_THRESHOLDS: Partial<Record<FanoutReceiverMetric, string[]>> = {
  fanout_untracked_calls: ['count==0'],
  fanout_loss_ratio: [`value<=${MAX_LOSS}`],
  fanout_bad_signatures: ['count==0'],
  fanout_expected_deliveries: ['count>0'],
  fanout_event_to_arrival_ms: [`p(95)<${FANOUT_BUDGET.p95Ms}`, `p(99)<${FANOUT_BUDGET.p99Ms}`],
  fanout_placement_to_arrival_ms: [
    `p(95)<${FANOUT_BUDGET.p95Ms + LIFECYCLE_MS}`,
    `p(99)<${FANOUT_BUDGET.p99Ms + LIFECYCLE_MS}`,
  ],
};

export const options: Options = {
  scenarios: {
    fanout: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: seconds(D),
      ...arrivalVus(RATE),
      gracefulStop: '10s',
    },
  },
  thresholds: {
    [onEndpoint('http_req_failed', ENDPOINT.placeCall)]: [gate('rate==0')],
    ...(env('LOAD_MERGED_VERDICT') === 'true' ? {} : RECEIVER_THRESHOLDS),
    ...everyCheck(CALL_ID_CHECK),
  },
  summaryTrendStats: TREND_STATS,
  setupTimeout: '30s',
};

export function setup(): CallsSetup {
  return callsSetup();
}

export default function (data: CallsSetup): void {
  const placedAtMs = Date.now();
  const placed = placeCall(callsToken(), data.agentId, { metadata: { load_run: RUN_ID, placed_at_ms: placedAtMs } });
  if (placed.callId === undefined) return;
  const metadata = exec.vu.metrics.metadata;
  metadata[PLACED_CALL_ID] = placed.callId;
  metadata[PLACED_AT_MS] = String(placedAtMs);
  placedCalls.add(1);
  delete metadata[PLACED_CALL_ID];
  delete metadata[PLACED_AT_MS];
}

export const handleSummary = summaryHandler('fanout', { judgedAfterRun: Object.keys(FANOUT_RECEIVER_METRICS) });
