/**
 * handleSummary for every scenario: k6's summary data as JSON at LOAD_SUMMARY_PATH (read by
 * src/load/run.ts for the HTML report and the baseline comparison) and a short text on
 * stdout: each threshold with its verdict, and the figures that matter. Verdicts are k6's;
 * nothing here recomputes them.
 */
import { env } from './env.ts';
import type { K6Metric, K6Summary } from './shared-types.ts';

/** What handleSummary receives: the shared shape, and more that is written out as it is. */
export interface SummaryData extends Omit<K6Summary, 'scenario'> {
  [key: string]: unknown;
}

function figure(metric: K6Metric): string {
  const v = metric.values;
  if (metric.type === 'trend')
    return `p95=${fmt(v['p(95)'])} p99=${fmt(v['p(99)'])} med=${fmt(v.med)} max=${fmt(v.max)}`;
  if (metric.type === 'rate') return `rate=${fmt(v.rate, 4)}`;
  if (metric.type === 'counter') return `count=${fmt(v.count)} rate=${fmt(v.rate)}/s`;
  return `value=${fmt(v.value)}`;
}

function fmt(value: number | undefined, digits = 2): string {
  return value === undefined ? '-' : String(Math.round(value * 10 ** digits) / 10 ** digits);
}

export interface SummaryOptions {
  /** Metrics svc-harness judges once every runner has ended (from what it observed): a runner's own view of them says nothing. */
  judgedAfterRun?: readonly string[];
}

export function textSummary(scenario: string, data: SummaryData, options: SummaryOptions = {}): string {
  const lines = [`\n${scenario}: ${Math.round((data.state?.testRunDurationMs ?? 0) / 100) / 10} s`];
  const names = Object.keys(data.metrics).sort();
  const later = names.filter((name) => options.judgedAfterRun?.includes(name));
  for (const name of names) {
    if (later.includes(name)) continue;
    const metric = data.metrics[name]!;
    const thresholds = Object.entries(metric.thresholds ?? {});
    if (thresholds.length === 0 && !/^(http_reqs|iterations|dropped_iterations|fanout_|rotation_|calls_)/.test(name))
      continue;
    const verdicts = thresholds.map(([expr, t]) => `${t.ok ? 'ok' : 'FAILED'} ${expr}`).join('; ');
    lines.push(`  ${name}: ${figure(metric)}${verdicts ? `  [${verdicts}]` : ''}`);
  }
  if (later.length > 0)
    lines.push(`  ${later.join(', ')}: judged by svc-harness from the receivers once every runner has ended`);
  return `${lines.join('\n')}\n`;
}

export function summaryHandler(
  scenario: string,
  options: SummaryOptions = {},
): (data: SummaryData) => Record<string, string> {
  return (data) => {
    const out: Record<string, string> = { stdout: textSummary(scenario, data, options) };
    const path = env('LOAD_SUMMARY_PATH');
    if (path) out[path] = JSON.stringify({ scenario, ...data }, null, 2);
    return out;
  };
}
