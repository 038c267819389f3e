/**
 * What the harness writes to a metrics store once a scenario is judged: its verdict and its
 * headline figures, as they stand in `<scenario>.summary.json` (the merged verdict's, for a
 * split or k6-operator run) and `summary.json`. Nothing is computed again here.
 *
 * - `svc_load_<metric>_<stat>`: each value of the summary's metrics that carry a threshold
 *   or a figure of the reports (SUMMARIZED_METRICS): `svc_load_http_reqs_count`,
 *   `svc_load_fanout_event_to_arrival_ms_p95` (`p(99.9)` becomes `p999`, as k6's own
 *   remote-write output names trend statistics). Values in the summary's units (ms for times).
 *   A submetric's tags are labels: `http_reqs{endpoint:calls.place}` → `{endpoint="calls.place"}`.
 * - `svc_load_threshold_passed{metric,threshold}`: 1 held, 0 failed.
 * - `svc_load_passed`: 1 when the scenario passed, 0 when not.
 *
 * Every series carries `run_id` and `load_scenario`, as k6's own series of the run do
 * (src/load/k6/options.ts), and the run's `--tag`s.
 */
import type { K6Summary } from '../../../load/lib/shared-types.js';
import { parseMetricKey } from '../distributed/merge.js';
import { RUN_TAGS } from '../k6/options.js';
import { SUMMARIZED_METRICS, type ScenarioDigest } from '../report/digest.js';
import type { TimeSeries } from './remote-write.js';

export const SERIES_PREFIX = 'svc_load_';

/** A Prometheus label name from a tag name: what is not [a-zA-Z0-9_] becomes `_`, never a leading digit or `__`. */
export function labelName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, '_');
  const safe = /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
  return safe.startsWith('__') ? `tag${safe}` : safe;
}

/** The series name of a statistic: `p(95)` → `p95`, `p(99.9)` → `p999` (k6's rule), others as they are. */
export function statName(stat: string): string {
  const pct = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
  return pct ? `p${pct[1]!.replace('.', '')}` : stat.replace(/[^a-zA-Z0-9_]/g, '_');
}

export interface ScenarioFigures {
  runId: string;
  scenario: string;
  digest: ScenarioDigest;
  /** The scenario's summary; absent when it could not run. */
  summary?: K6Summary;
  /** More labels for every series (the run's --tag name=value). */
  labels?: Readonly<Record<string, string>>;
  timestampMs: number;
}

/** The series of one judged scenario; none when it was skipped (it did not apply to the target). */
export function scenarioSeries(figures: ScenarioFigures): TimeSeries[] {
  const { digest, summary, timestampMs } = figures;
  if (digest.skipped !== undefined) return [];
  const common: Record<string, string> = {
    ...Object.fromEntries(Object.entries(figures.labels ?? {}).map(([name, value]) => [labelName(name), value])),
    [RUN_TAGS.runId]: figures.runId,
    [RUN_TAGS.scenario]: figures.scenario,
  };
  const one = (name: string, labels: Record<string, string>, value: number): TimeSeries => ({
    labels: { ...labels, ...common, __name__: `${SERIES_PREFIX}${name}` },
    samples: [{ value, timestampMs }],
  });
  const series: TimeSeries[] = [];
  for (const [key, metric] of Object.entries(summary?.metrics ?? {})) {
    if (Object.keys(metric.thresholds ?? {}).length === 0 && !SUMMARIZED_METRICS.includes(key)) continue;
    const { name, tags } = parseMetricKey(key);
    const labels = Object.fromEntries(Object.entries(tags).map(([tag, value]) => [labelName(tag), value]));
    for (const [stat, value] of Object.entries(metric.values)) {
      if (typeof value === 'number' && Number.isFinite(value))
        series.push(one(`${labelName(name)}_${statName(stat)}`, labels, value));
    }
  }
  for (const threshold of digest.thresholds)
    series.push(
      one('threshold_passed', { metric: threshold.metric, threshold: threshold.expression }, threshold.ok ? 1 : 0),
    );
  series.push(one('passed', {}, digest.passed ? 1 : 0));
  return series;
}
