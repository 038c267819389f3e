/**
 * `svc-harness load --instances N`: one scenario as N k6 processes, each with its execution
 * segment of the test (`--execution-segment i/N:(i+1)/N` in the sequence 0, 1/N, …, 1),
 * exactly as k6-operator splits a TestRun across N runners. Each writes its samples
 * (`--out json=…`); the verdict is the whole test's thresholds on all of them
 * (merge.ts), never the runners' own verdicts on their shares.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { K6Summary } from '../../../load/lib/shared-types.js';
import { EXIT, RunAbort, SamplesError } from '../../errors.js';
import type { FoundK6 } from '../k6/binary.js';
import { runK6 } from '../k6/run.js';
import { SUMMARIZED_METRICS } from '../report/digest.js';
import { mergeSegments, type MergedSummary, type ThresholdOptions } from './merge.js';

const INSPECT_TIMEOUT_MS = 30_000;

/** The k6 arguments of segment `index` (0-based) of `count`. */
export function segmentArgs(index: number, count: number): string[] {
  const sequence = Array.from({ length: count + 1 }, (_, i) => (i === 0 ? '0' : i === count ? '1' : `${i}/${count}`));
  return [
    '--execution-segment',
    `${sequence[index]}:${sequence[index + 1]}`,
    '--execution-segment-sequence',
    sequence.join(','),
  ];
}

/**
 * The whole test's thresholds: the script's options as `k6 inspect` evaluates them with
 * LOAD_INSTANCES=1 (a segment's own thresholds are scaled to its share of the arrivals).
 * Unlike `k6 run`, `k6 inspect` gives the script no environment variables unless told to:
 * without the flag, every merged verdict took the default budgets whatever LOAD_P99_MS said.
 */
export function wholeTestThresholds(k6: FoundK6, bundle: string, env: NodeJS.ProcessEnv): ThresholdOptions {
  const result = spawnSync(k6.path, ['inspect', '--include-system-env-vars', bundle], {
    encoding: 'utf8',
    timeout: INSPECT_TIMEOUT_MS,
    env: { ...env, LOAD_INSTANCES: '1' },
  });
  if (result.status !== 0)
    throw new RunAbort(
      `k6 inspect ${bundle} exited ${result.status ?? result.signal}: ${(result.stderr ?? '').slice(0, 500)}`,
    );
  const options = JSON.parse(result.stdout) as { thresholds?: ThresholdOptions | null };
  return options.thresholds ?? {};
}

export interface SegmentedRun {
  summary: MergedSummary & { segments: Array<{ segment: string; exit_code: number | null; samples: string }> };
  /** 0 when every segment ended (its own thresholds aside); otherwise the first other exit code. */
  exitCode: number | null;
}

export interface SegmentsOptions {
  k6: FoundK6;
  bundle: string;
  scenario: string;
  count: number;
  reportDir: string;
  /** Each segment's environment (its summary path among it). */
  envOf: (index: number) => NodeJS.ProcessEnv;
  timeLimitMs: number;
  /** The `k6 run` arguments of a process, given the harness's own for its segment (k6RunArgs). */
  runArgs: (segment: readonly string[]) => string[];
  /** Percentiles of trends to summarize beyond the harness's (--summary-trend-stats). */
  percentiles?: readonly number[];
  /** Files of k6 output lines the harness adds once the segments have ended (Prepared.observe). */
  observe?: (samples: readonly string[]) => Promise<string[]>;
}

/**
 * Runs `count` segments side by side and merges them; samples go to
 * `<reportDir>/<scenario>.segment-<i>.ndjson.gz`.
 */
export async function runSegments(options: SegmentsOptions): Promise<SegmentedRun> {
  const { k6, bundle, scenario, count, reportDir, envOf, timeLimitMs } = options;
  const thresholds = wholeTestThresholds(k6, bundle, envOf(0));
  const segments = Array.from({ length: count }, (_, index) => ({
    index,
    args: segmentArgs(index, count),
    samples: resolve(reportDir, `${scenario}.segment-${index + 1}.ndjson.gz`),
    // Thresholds on what only the harness observes are the merge's, not a runner's.
    env: { ...envOf(index), LOAD_MERGED_VERDICT: 'true' } as NodeJS.ProcessEnv,
  }));
  const codes = await Promise.all(
    segments.map((s) =>
      runK6(
        k6,
        bundle,
        s.env,
        `${scenario} ${s.index + 1}/${count}`,
        timeLimitMs,
        options.runArgs([...s.args, '--out', `json=${s.samples}`]),
      ),
    ),
  );
  const summaries = segments
    .map((s) => s.env.LOAD_SUMMARY_PATH)
    .filter((path): path is string => path !== undefined && existsSync(path));
  const segmentSummaries = summaries.map((path) => JSON.parse(readFileSync(path, 'utf8')) as K6Summary);
  const knownTypes = Object.fromEntries(
    segmentSummaries.flatMap((summary) =>
      Object.entries(summary.metrics).map(([name, metric]) => [name.split('{')[0]!, metric.type]),
    ),
  );
  const durationMs = Math.max(0, ...segmentSummaries.map((summary) => summary.state?.testRunDurationMs ?? 0));
  const missing = segments.filter((s) => !existsSync(s.samples));
  if (missing.length > 0)
    throw new SamplesError(
      `segment(s) ${missing.map((s) => s.index + 1).join(', ')} of ${count} wrote no samples (k6 exit ${missing.map((s) => codes[s.index]).join(', ')})`,
    );
  const samples = segments.map((s) => s.samples);
  const observed = options.observe ? await options.observe(samples) : [];
  const merged = await mergeSegments({
    files: [...samples, ...observed],
    thresholds,
    durationMs,
    knownTypes,
    scenario,
    alsoSummarize: SUMMARIZED_METRICS,
    ...(options.percentiles ? { percentiles: options.percentiles } : {}),
  });
  // k6's exit for failed thresholds is a segment's verdict on its share, superseded by the merged one.
  const other = codes.find((code) => code !== 0 && code !== EXIT.thresholdsFailed);
  return {
    summary: {
      ...merged,
      segments: segments.map((s) => ({ segment: s.args[1]!, exit_code: codes[s.index] ?? null, samples: s.samples })),
    },
    exitCode: other === undefined ? 0 : other,
  };
}
