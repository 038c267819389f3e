/**
 * One verdict from several k6 processes (the execution segments of one test, run side by
 * side here or as k6-operator runners): their samples (`k6 run --out json=…`, one NDJSON
 * file each, gzipped when named .gz) are read together and each threshold of the whole
 * test is evaluated on all of them, as k6 would on one machine: a percentile from every
 * sample, never an average of the segments' percentiles.
 *
 * Only the metrics the thresholds name are kept, and at most MAX_SAMPLES_PER_THRESHOLD
 * values each (a trend needs its values for percentiles); a run past that is refused, not
 * judged on part of its samples.
 */
import type { K6Metric, K6Summary } from '../../../load/lib/shared-types.js';
import { SamplesError } from '../../errors.js';
import { readK6Output } from '../k6/output.js';
import { RUN_TAGS } from '../k6/options.js';
import { quantileOfSorted } from '../../stats/summary.js';

/** 10 minutes at 5,000 requests/s: far past what one scenario of this harness places. */
export const MAX_SAMPLES_PER_THRESHOLD = 3_000_000;

/** A threshold's metric key as k6 writes it: `name` or `name{tag:value,…}` (a submetric). */
export interface MetricKey {
  key: string;
  name: string;
  tags: Record<string, string>;
}

export function parseMetricKey(key: string): MetricKey {
  const open = key.indexOf('{');
  if (open === -1) return { key, name: key, tags: {} };
  if (!key.endsWith('}')) throw new SamplesError(`threshold metric ${JSON.stringify(key)} is not name{tag:value,…}`);
  const tags: Record<string, string> = {};
  for (const pair of key.slice(open + 1, -1).split(',')) {
    const colon = pair.indexOf(':');
    if (colon <= 0)
      throw new SamplesError(`threshold metric ${JSON.stringify(key)}: ${JSON.stringify(pair)} is not tag:value`);
    tags[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
  }
  return { key, name: key.slice(0, open), tags };
}

/** The thresholds of a script as `k6 inspect` prints them: expressions, or objects with one. */
export type ThresholdOptions = Record<string, ReadonlyArray<string | { threshold: string }>>;

export interface Sink {
  type: string;
  values: number[];
  sum: number;
  nonZero: number;
  last?: { timeMs: number; value: number };
}

function emptySink(): Sink {
  return { type: '', values: [], sum: 0, nonZero: 0 };
}

/**
 * k6's built-in metrics by type: a metric with no sample has no type line in the output
 * (no iteration dropped: no `dropped_iterations` at all), and is judged as zero of its type.
 */
const BUILTIN_TYPES: Record<string, string> = {
  checks: 'rate',
  data_received: 'counter',
  data_sent: 'counter',
  dropped_iterations: 'counter',
  http_req_blocked: 'trend',
  http_req_connecting: 'trend',
  http_req_duration: 'trend',
  http_req_failed: 'rate',
  http_req_receiving: 'trend',
  http_req_sending: 'trend',
  http_req_tls_handshaking: 'trend',
  http_req_waiting: 'trend',
  http_reqs: 'counter',
  iteration_duration: 'trend',
  iterations: 'counter',
  vus: 'gauge',
  vus_max: 'gauge',
};

export interface Samples {
  sinks: Map<string, Sink>;
  /** The first and last sample's time (ms since the epoch) over every metric: the run's span. */
  spanMs: number;
  /** The run ids the samples are tagged with (run_id, set by svc-harness load or a runner's --tag). */
  runIds: Set<string>;
  /** The tags, k6's system tags apart, that every sample with tags carries with the same value: the runners' --tag. */
  commonTags: Map<string, string>;
}

/** k6's system tags (`k6 run --help`, --system-tags): set per sample by k6, never a run's own. */
const SYSTEM_TAGS = new Set([
  'proto',
  'subproto',
  'status',
  'method',
  'url',
  'name',
  'group',
  'check',
  'error',
  'error_code',
  'tls_version',
  'scenario',
  'service',
  'expected_response',
  'vu',
  'iter',
  'ip',
  'ocsp_status',
]);

/**
 * Reads every file's samples into one sink per threshold key. `knownTypes` (from the
 * segments' summaries) types the custom metrics that had no sample.
 */
export async function collectSamples(
  files: readonly string[],
  keys: readonly MetricKey[],
  knownTypes: Record<string, string> = {},
): Promise<Samples> {
  const sinks = new Map(keys.map((key) => [key.key, emptySink()]));
  const byName = new Map<string, MetricKey[]>();
  for (const key of keys) byName.set(key.name, [...(byName.get(key.name) ?? []), key]);
  const types = new Map<string, string>(Object.entries({ ...BUILTIN_TYPES, ...knownTypes }));
  let first = Infinity;
  let last = -Infinity;
  const runIds = new Set<string>();
  let commonTags: Map<string, string> | undefined;
  for await (const line of readK6Output(files)) {
    if (line.kind === 'type') {
      types.set(line.metric, line.type);
      continue;
    }
    const runId = line.tags[RUN_TAGS.runId];
    if (runId !== undefined) runIds.add(runId);
    // k6 tags every sample (group at least); the figures the harness observed itself carry none.
    if (Object.keys(line.tags).length > 0) {
      if (commonTags === undefined)
        commonTags = new Map(Object.entries(line.tags).filter(([tag]) => !SYSTEM_TAGS.has(tag)));
      else for (const [tag, value] of commonTags) if (line.tags[tag] !== value) commonTags.delete(tag);
    }
    first = Math.min(first, line.timeMs);
    last = Math.max(last, line.timeMs);
    const wanted = byName.get(line.metric);
    if (!wanted) continue;
    for (const key of wanted) {
      if (!Object.entries(key.tags).every(([tag, value]) => line.tags[tag] === value)) continue;
      add(sinks.get(key.key)!, line.value, line.timeMs, key.key);
    }
  }
  for (const key of keys) sinks.get(key.key)!.type = types.get(key.name) ?? '';
  return { sinks, spanMs: last >= first ? last - first : 0, runIds, commonTags: commonTags ?? new Map() };
}

function add(sink: Sink, value: number, timeMs: number, key: string): void {
  if (sink.values.length >= MAX_SAMPLES_PER_THRESHOLD)
    throw new SamplesError(`${key}: more than ${MAX_SAMPLES_PER_THRESHOLD} samples; split the run into shorter ones`);
  sink.values.push(value);
  sink.sum += value;
  if (value !== 0) sink.nonZero += 1;
  if (!sink.last || timeMs >= sink.last.timeMs) sink.last = { timeMs, value };
}

function sortedValues(sink: Sink): Float64Array {
  return Float64Array.from(sink.values).sort();
}

/** k6's percentile of a trend (its TrendSink.P), 0 for a trend without values as k6 reports it. */
export function percentile(sorted: ArrayLike<number>, pct: number): number {
  return sorted.length === 0 ? 0 : quantileOfSorted(sorted, pct);
}

/**
 * The values k6 reports for a metric of `type`, from every sample; counters' rate over
 * `durationMs`; for a trend, also the `percentiles` a threshold names (k6 computes any).
 */
export function valuesOf(
  sink: Readonly<Sink>,
  durationMs: number,
  percentiles: readonly number[] = [],
): Record<string, number> {
  const n = sink.values.length;
  switch (sink.type) {
    case 'trend': {
      const sorted = sortedValues(sink);
      const values: Record<string, number> = {
        count: n,
        avg: n === 0 ? 0 : sink.sum / n,
        min: n === 0 ? 0 : sorted[0]!,
        max: n === 0 ? 0 : sorted[n - 1]!,
        med: percentile(sorted, 0.5),
      };
      for (const p of [90, 95, 99, ...percentiles]) values[`p(${p})`] = percentile(sorted, p / 100);
      return values;
    }
    case 'rate':
      return { rate: n === 0 ? 0 : sink.nonZero / n, passes: sink.nonZero, fails: n - sink.nonZero };
    case 'counter':
      return { count: sink.sum, rate: durationMs > 0 ? sink.sum / (durationMs / 1000) : 0 };
    case 'gauge': {
      const sorted = sortedValues(sink);
      return { value: sink.last?.value ?? 0, min: n === 0 ? 0 : sorted[0]!, max: n === 0 ? 0 : sorted[n - 1]! };
    }
    default:
      return {};
  }
}

const EXPRESSION =
  /^\s*(avg|min|max|med|count|rate|value|passes|fails|p\((\d+(?:\.\d+)?)\))\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/;

/** Whether `values` hold a k6 threshold expression such as `p(99)<1000` or `rate==1`. */
export function holds(expression: string, values: Record<string, number>): boolean {
  const match = EXPRESSION.exec(expression);
  if (!match)
    throw new SamplesError(`threshold ${JSON.stringify(expression)} is not "<aggregate> <operator> <number>"`);
  const [, aggregate, pct, operator, literal] = match;
  const value = pct !== undefined ? percentileOf(values, Number(pct)) : values[aggregate!];
  if (value === undefined)
    throw new SamplesError(`threshold ${JSON.stringify(expression)}: the metric has no ${aggregate}`);
  const bound = Number(literal);
  switch (operator) {
    case '<':
      return value < bound;
    case '<=':
      return value <= bound;
    case '>':
      return value > bound;
    case '>=':
      return value >= bound;
    case '!=':
      return value !== bound;
    default:
      return value === bound;
  }
}

function percentileOf(values: Record<string, number>, pct: number): number | undefined {
  return values[`p(${pct})`];
}

export interface SegmentRun {
  /** The NDJSON sample files, one per segment. */
  files: readonly string[];
  /** The whole test's thresholds (the script's, as one instance would hold them). */
  thresholds: ThresholdOptions;
  /** The longest segment's run; without it, the span of the samples' times. */
  durationMs?: number;
  /** Metric types from the segments' summaries, for custom metrics without samples. */
  knownTypes?: Record<string, string>;
  scenario?: string;
  /** Metrics summarized for their figures though no threshold names them (left out when they have no sample). */
  alsoSummarize?: readonly string[];
  /** Percentiles every trend gets beyond p(90), p(95), p(99) (k6's --summary-trend-stats). */
  percentiles?: readonly number[];
}

/** The merged summary, the run ids its samples carried (their run_id tag), sorted, and the tags all of them carried. */
export interface MergedSummary extends K6Summary {
  run_ids: string[];
  run_tags: Record<string, string>;
}

/**
 * The whole test's summary from its segments' samples: each thresholded metric with its
 * values and a verdict per expression.
 */
export async function mergeSegments(run: SegmentRun): Promise<MergedSummary> {
  const { thresholds, scenario } = run;
  const keys = Object.keys(thresholds).map(parseMetricKey);
  const extra = (run.alsoSummarize ?? []).filter((name) => !(name in thresholds)).map(parseMetricKey);
  const { sinks, spanMs, runIds, commonTags } = await collectSamples(run.files, [...keys, ...extra], run.knownTypes);
  const durationMs = run.durationMs ?? spanMs;
  const asked = run.percentiles ?? [];
  const metrics: Record<string, K6Metric> = {};
  for (const key of extra) {
    const sink = sinks.get(key.key)!;
    if (sink.type !== '' && sink.values.length > 0)
      metrics[key.key] = { type: sink.type, values: valuesOf(sink, durationMs, asked) };
  }
  for (const key of keys) {
    const sink = sinks.get(key.key)!;
    const expressions = thresholds[key.key]!.map((t) => (typeof t === 'string' ? t : t.threshold));
    const percentiles = expressions.flatMap((expression) => {
      const pct = EXPRESSION.exec(expression)?.[2];
      return pct === undefined ? [] : [Number(pct)];
    });
    const values = valuesOf(sink, durationMs, [...percentiles, ...asked]);
    if (sink.type === '')
      throw new SamplesError(`${key.key}: no sample and no type; a threshold on it cannot be judged`);
    metrics[key.key] = {
      type: sink.type,
      values,
      thresholds: Object.fromEntries(expressions.map((expression) => [expression, { ok: holds(expression, values) }])),
    };
  }
  return {
    ...(scenario ? { scenario } : {}),
    metrics,
    state: { testRunDurationMs: durationMs },
    run_ids: [...runIds].sort(),
    run_tags: Object.fromEntries(commonTags),
  };
}
