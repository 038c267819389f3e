/**
 * From k6's summary data (what handleSummary receives, written by load/lib/summary.ts) to
 * the figures a report shows and a baseline compares. Verdicts come from k6's thresholds
 * as they are: nothing here judges a threshold again.
 */
import type { K6Metric, K6Summary } from '../../../load/lib/shared-types.js';

export type Unit = 'ms' | '/s' | 'ratio' | 'count';

export interface Figure {
  value: number;
  unit: Unit;
  /** Which way is an improvement. */
  better: 'lower' | 'higher';
}

export interface ThresholdResult {
  metric: string;
  expression: string;
  ok: boolean;
  /** The figure the expression judged (`p(95)` of a trend, `rate` of a rate…), when the summary has it. */
  observed?: number;
}

export interface ScenarioDigest {
  scenario: string;
  /** k6's exit code (0 passed, 99 thresholds failed, 108 aborted by the script), null when it did not end. */
  exitCode: number | null;
  /** Not applicable to this target (e.g. no control interface): the reason; not a failure. */
  skipped?: string;
  /** Could not run (preparation failed, k6 wrote no summary): the reason; a failure. */
  error?: string;
  passed: boolean;
  durationMs: number;
  thresholds: ThresholdResult[];
  figures: Record<string, Figure>;
  /** The k6 processes (execution segments) whose samples were merged into this verdict, when more than one. */
  segments?: number;
  /** k6's own web dashboard report of the run, beside the load report (a file name in its directory). */
  dashboard?: string;
}

/** Custom metrics worth a figure even without a threshold: [stat, unit, better]. */
const CUSTOM: Record<string, [string, Unit, 'lower' | 'higher'][]> = {
  fanout_deliveries_per_second: [['value', '/s', 'higher']],
  fanout_event_to_arrival_ms: [
    ['p(95)', 'ms', 'lower'],
    ['p(99)', 'ms', 'lower'],
    ['med', 'ms', 'lower'],
  ],
  fanout_placement_to_arrival_ms: [
    ['p(95)', 'ms', 'lower'],
    ['p(99)', 'ms', 'lower'],
    ['med', 'ms', 'lower'],
  ],
  fanout_lost_deliveries: [['count', 'count', 'lower']],
  fanout_loss_ratio: [['value', 'ratio', 'lower']],
  fanout_bad_signatures: [['count', 'count', 'lower']],
  fanout_duplicates: [['count', 'count', 'lower']],
  fanout_receiver_client_closed: [['count', 'count', 'lower']],
  fanout_arrived_deliveries: [['count', 'count', 'higher']],
  rotation_revocation_propagation_ms: [['max', 'ms', 'lower']],
  rotation_new_token_non2xx: [['count', 'count', 'lower']],
  rotation_old_token_accepted_after_refusal: [['count', 'count', 'lower']],
};

/**
 * What a merged summary keeps though no threshold names it: the custom metrics above for
 * their figures, and the counts a split run is compared by with a run in one process.
 */
export const SUMMARIZED_METRICS: readonly string[] = [
  ...Object.keys(CUSTOM),
  'iterations',
  'dropped_iterations',
  'http_reqs{endpoint:calls.place}',
];

/** The figures of one metric, by its kind (per-endpoint submetrics and the custom ones above). */
function figuresOf(name: string, metric: K6Metric): [string, Figure][] {
  const v = metric.values;
  const out: [string, Figure][] = [];
  const put = (stat: string, unit: Unit, better: 'lower' | 'higher'): void => {
    const value = v[stat];
    if (typeof value === 'number' && Number.isFinite(value)) out.push([`${name} ${stat}`, { value, unit, better }]);
  };
  const custom = CUSTOM[name];
  if (custom) {
    for (const [stat, unit, better] of custom) put(stat, unit, better);
    return out;
  }
  // Whole-run built-ins (and k6's own expected_response split) mix endpoints: not compared.
  if (!name.includes('{endpoint:') && !name.includes(',endpoint:')) return out;
  if (name.startsWith('http_req_duration{')) {
    put('p(95)', 'ms', 'lower');
    put('p(99)', 'ms', 'lower');
    put('med', 'ms', 'lower');
  } else if (name.startsWith('http_reqs{')) put('rate', '/s', 'higher');
  else if (name.startsWith('http_req_failed{')) put('rate', 'ratio', 'lower');
  return out;
}

/** The statistic a k6 threshold expression judges (`p(95)` of `p(95)<500`), as the summary's values name it. */
export function judgedStat(expression: string): string | undefined {
  return /^\s*(avg|min|max|med|count|rate|value|passes|fails|p\(\d+(?:\.\d+)?\))/.exec(expression)?.[1];
}

export function digestSummary(
  summary: K6Summary,
  exitCode: number | null,
  scenario = summary.scenario ?? 'unknown',
): ScenarioDigest {
  const thresholds: ThresholdResult[] = [];
  const figures: Record<string, Figure> = {};
  for (const name of Object.keys(summary.metrics).sort()) {
    const metric = summary.metrics[name]!;
    for (const [expression, result] of Object.entries(metric.thresholds ?? {})) {
      const observed = metric.values[judgedStat(expression) ?? ''];
      thresholds.push({
        metric: name,
        expression,
        ok: result.ok,
        ...(typeof observed === 'number' && Number.isFinite(observed) ? { observed } : {}),
      });
    }
    for (const [key, figure] of figuresOf(name, metric)) figures[key] = figure;
  }
  return {
    scenario,
    exitCode,
    passed: exitCode === 0 && thresholds.every((t) => t.ok),
    durationMs: summary.state?.testRunDurationMs ?? 0,
    thresholds,
    figures,
  };
}

/** A scenario that does not apply to this target: not passed, not failed. */
export function skippedDigest(scenario: string, reason: string): ScenarioDigest {
  return { scenario, exitCode: null, skipped: reason, passed: false, durationMs: 0, thresholds: [], figures: {} };
}

/** A scenario that could not run: failed, with the reason. */
export function failedDigest(scenario: string, reason: string, exitCode: number | null = null): ScenarioDigest {
  return { scenario, exitCode, error: reason, passed: false, durationMs: 0, thresholds: [], figures: {} };
}

/** The run passes when every scenario that applied passed (skips are reported, not failed). */
export function runPassed(digests: readonly ScenarioDigest[]): boolean {
  return digests.some((d) => !d.skipped) && digests.every((d) => d.passed || d.skipped !== undefined);
}
