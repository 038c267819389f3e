/**
 * A distributed fan-out run, as load/k8s/testrun-fanout.yaml makes one, on this machine:
 * `svc-harness load fanout-host` (the embedded reference, its receivers, the Secret), two k6
 * runners given only that Secret's values, each on its execution segment with its samples
 * in a file, then `svc-harness load merge fanout` on the samples and the host's arrivals.
 * A recording missing a tenth of its arrivals fails the same merge on lost deliveries.
 * smoke.test.ts runs it (skipped, with the reason in its name, when no k6 v2 is found).
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { FANOUT_PLACED_METRIC } from '../../load/lib/fanout-metrics.js';
import { EXIT } from '../../src/errors.js';
import { buildLoadScripts } from '../../src/load/k6/bundle.js';
import { segmentArgs } from '../../src/load/distributed/segments.js';
import { runHarness, withoutSettings, type ChildExit } from '../support/child.js';
import { K6_PATH, runLoad } from './load-child.js';

const run = promisify(execFile);
const RUNNERS = 2;
/** The TestRun's settings, scaled down: the merge is told the same. */
const SETTINGS = { LOAD_RATE: '4', LOAD_DURATION: '4s' };
const ENDPOINTS = 25;
const LIFECYCLE_EVENTS = 3;

/** The Secret's stringData, as the runners' envFrom gives it them. */
function secretValues(path: string): Record<string, string> {
  return (parse(readFileSync(path, 'utf8')) as { stringData: Record<string, string> }).stringData;
}

const lineCount = (path: string): number =>
  existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0;

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/**
 * The whole distributed run in `dir`; asserts as it goes. Run from smoke.test.ts, after its
 * other k6 runs and never beside them: two fan-outs at once on a small CI machine miss the
 * latency budget.
 */
export async function checkDistributedFanout(dir: string): Promise<void> {
  let host: ChildProcess | undefined;
  try {
    const secret = join(dir, 'fanout.secret.yaml');
    const arrivals = join(dir, 'fanout.arrivals.ndjson');
    const hosted: Promise<ChildExit> = runHarness(
      ['load', 'fanout-host', '--arrivals', arrivals, '--secret-out', secret, '--secret-name', 'svc-load-fanout'],
      {
        timeoutMs: 150_000,
        onSpawn: (child) => (host = child),
      },
    );
    // The arrivals file's header is written once the Secret is.
    await waitFor('the Secret and the recording', () => (lineCount(arrivals) >= 1 ? true : undefined), 60_000);
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    const values = secretValues(secret);
    expect(Object.keys(values).sort()).toEqual([
      'LOAD_AGENT_ID',
      'LOAD_ENDPOINTS',
      'LOAD_ENVIRONMENT',
      'LOAD_TOKEN',
      'LOAD_WORKSPACE_ID',
      'SVC_BASE_URL',
    ]);

    // The runners: the TestRun's env (LOAD_INSTANCES, LOAD_MERGED_VERDICT) and the Secret's, nothing else of ours.
    const bundle = (await buildLoadScripts())['fanout']!;
    const env = {
      ...withoutSettings(),
      ...values,
      ...SETTINGS,
      LOAD_INSTANCES: String(RUNNERS),
      LOAD_MERGED_VERDICT: 'true',
      K6_AUTO_EXTENSION_RESOLUTION: 'false',
    };
    const samples = Array.from({ length: RUNNERS }, (_, i) => join(dir, `runner-${i}.ndjson.gz`));
    await Promise.all(
      samples.map((out, i) =>
        run(
          K6_PATH!,
          [
            'run',
            '--no-usage-report',
            '--quiet',
            '--no-color',
            ...segmentArgs(i, RUNNERS),
            '--out',
            `json=${out}`,
            bundle,
          ],
          { env, timeout: 90_000 },
        ),
      ),
    );

    // Every lifecycle event of every call at every endpoint, then the host is stopped as a user would.
    const placed = await waitFor('the placements', () => placedCalls(samples), 10_000);
    expect(placed).toBeGreaterThan(0);
    const expected = placed * ENDPOINTS * LIFECYCLE_EVENTS;
    await waitFor(`${expected} arrivals`, () => (lineCount(arrivals) - 1 >= expected ? true : undefined), 60_000);
    host!.kill('SIGTERM');
    const exit = await hosted;
    expect(exit.exitCode, exit.output.slice(-2000)).toBe(0);
    expect(exit.output).toContain(`recorded ${expected} arrivals`);
    expect(exit.output).not.toContain(values['LOAD_TOKEN']!);
    expect(readFileSync(arrivals, 'utf8')).not.toContain(values['LOAD_TOKEN']!);

    const merged = await runLoad(
      ['merge', 'fanout', ...samples, arrivals, '--no-build', '--report-dir', join(dir, 'merged')],
      90_000,
      SETTINGS,
    );
    expect(merged.code, merged.output.slice(-3000)).toBe(0);
    expect(merged.output).toContain(`fanout: passed (${RUNNERS} runners' samples merged`);
    const metrics = summaryMetrics(join(dir, 'merged', 'fanout.summary.json'));
    expect(metrics['fanout_arrived_deliveries']!.values.count).toBe(expected);
    expect(metrics['fanout_lost_deliveries']!.values.count).toBe(0);

    // A tenth of the arrival lines gone (the header and the closing line kept): deliveries lost.
    const lines = readFileSync(arrivals, 'utf8').split('\n').filter(Boolean);
    const short = join(dir, 'short.arrivals.ndjson');
    const kept = lines.slice(1, -1).filter((_, i) => i % 10 !== 0);
    writeFileSync(short, [lines[0], ...kept, lines.at(-1)].join('\n') + '\n');
    const faulted = await runLoad(
      ['merge', 'fanout', ...samples, short, '--no-build', '--report-dir', join(dir, 'faulted')],
      90_000,
      SETTINGS,
    );
    expect(faulted.code, faulted.output.slice(-3000)).toBe(EXIT.thresholdsFailed);
    expect(
      summaryMetrics(join(dir, 'faulted', 'fanout.summary.json'))['fanout_lost_deliveries']!.values.count,
    ).toBeGreaterThan(0);
    const report = JSON.parse(readFileSync(join(dir, 'faulted', 'summary.json'), 'utf8')) as {
      scenarios: { thresholds: { metric: string; ok: boolean }[] }[];
    };
    expect(report.scenarios[0]!.thresholds.filter((t) => !t.ok).map((t) => t.metric)).toEqual(['fanout_loss_ratio']);
  } finally {
    host?.kill('SIGKILL');
  }
}

/** Calls the runners' samples say were placed (the fan-out's placed metric), once both files are complete. */
function placedCalls(samples: readonly string[]): number | undefined {
  let placed = 0;
  for (const file of samples) {
    if (!existsSync(file)) return undefined;
    const text = gunzip(file);
    placed += text
      .split('\n')
      .filter((line) => line.includes(`"metric":"${FANOUT_PLACED_METRIC}"`) && line.includes('"type":"Point"')).length;
  }
  return placed;
}

function gunzip(file: string): string {
  return gunzipSync(readFileSync(file)).toString('utf8');
}

function summaryMetrics(path: string): Record<string, { values: Record<string, number> }> {
  return (JSON.parse(readFileSync(path, 'utf8')) as { metrics: Record<string, { values: Record<string, number> }> })
    .metrics;
}
