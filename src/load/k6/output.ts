/**
 * k6's JSON output (`k6 run --out json=…`, one NDJSON file per process, gzipped when named
 * .gz): read line by line as metric types and samples, and written, for the figures the
 * harness observes itself, in the same lines, so that a merge reads them like a runner's.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { SamplesError } from '../../errors.js';

interface Point {
  metric: string;
  type: string;
  data: { time: string; value: number; tags?: Record<string, string> | null; metadata?: Record<string, string> | null };
}

interface MetricLine {
  type: 'Metric';
  data: { name: string; type: string };
}

/** One line of k6's JSON output: a metric's type, or one sample of it. */
export type K6OutputLine =
  | { kind: 'type'; metric: string; type: string }
  | {
      kind: 'point';
      metric: string;
      timeMs: number;
      value: number;
      tags: Record<string, string>;
      metadata: Record<string, string>;
    };

/** Every line of k6's JSON output files (`.gz` read as gzip), in order; a line that is not k6's throws SamplesError. */
export async function* readK6Output(files: readonly string[]): AsyncGenerator<K6OutputLine> {
  for (const file of files) {
    const raw = createReadStream(file);
    const lines = createInterface({
      input: file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw,
      crlfDelay: Infinity,
    });
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber += 1;
      if (line.length === 0) continue;
      const parsed = parseLine(line, file, lineNumber);
      if (parsed.type === 'Metric') {
        const { name, type } = (parsed as MetricLine).data;
        yield { kind: 'type', metric: name, type };
        continue;
      }
      const point = parsed as Point;
      if (point.type !== 'Point') continue;
      yield {
        kind: 'point',
        metric: point.metric,
        timeMs: Date.parse(point.data.time),
        value: point.data.value,
        tags: point.data.tags ?? {},
        metadata: point.data.metadata ?? {},
      };
    }
  }
}

/** A metric the harness observed itself, to be judged with k6's samples (see k6OutputText). */
export interface ObservedMetric {
  name: string;
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  /** Its samples, in order (a gauge's last one is its value). */
  values: readonly number[];
}

/** `metrics` as lines of k6's JSON output, every sample at `time`: readK6Output and `load merge` read them like a runner's. */
export function k6OutputText(metrics: readonly ObservedMetric[], time: Date): string {
  const at = time.toISOString();
  const lines: string[] = [];
  for (const { name, type, values } of metrics) {
    lines.push(
      JSON.stringify({
        type: 'Metric',
        data: { name, type, contains: type === 'trend' ? 'time' : 'default' },
        metric: name,
      }),
    );
    for (const value of values)
      lines.push(JSON.stringify({ type: 'Point', data: { time: at, value, tags: {} }, metric: name }));
  }
  return lines.map((line) => line + '\n').join('');
}

function parseLine(line: string, file: string, lineNumber: number): Point | MetricLine {
  try {
    const parsed = JSON.parse(line) as unknown;
    if (typeof parsed === 'object' && parsed !== null && 'type' in parsed && 'data' in parsed)
      return parsed as Point | MetricLine;
  } catch {
    // reported below, with where
  }
  throw new SamplesError(`${file}:${lineNumber} is not a line of k6's JSON output (k6 run --out json=…)`);
}
