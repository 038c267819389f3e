/**
 * A load run's metrics in a real metrics store: Debian's Prometheus on loopback
 * (test/support/prometheus.ts), a fan-out smoke run handing k6 `--out
 * experimental-prometheus-rw`, then PromQL over Prometheus' HTTP API: the run's requests
 * as k6 wrote them and the fan-out latency the harness measured, both under the run's id,
 * equal to the run's own summary. Then `load merge` of the same samples writes the merged
 * verdict there too, and a store that is down changes no verdict.
 * Skipped, with the reason in its name, without k6 v2 or without prometheus.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasXmllint, junitSchemaProblems } from '../support/xmllint.js';
import {
  PROMETHEUS_PATH,
  PROMETHEUS_SKIP_REASON,
  startPrometheus,
  type RunningPrometheus,
} from '../support/prometheus.js';
import { K6_PATH, K6_SKIP_REASON, runLoad } from './load-child.js';

/**
 * The smallest fan-out that still measures event → arrival: the smoke rate for 3 s, to two
 * endpoints. The merge is told the same settings (its thresholds are the run's).
 */
const FANOUT = { LOAD_DURATION: '3s', LOAD_ENDPOINTS: '2' };
const RUN_LIMIT_MS = 90_000;
const SKIP = K6_SKIP_REASON || PROMETHEUS_SKIP_REASON;

interface Metric {
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
const metricsOf = (path: string) =>
  (JSON.parse(readFileSync(path, 'utf8')) as { metrics: Record<string, Metric> }).metrics;

describe.skipIf(!K6_PATH || !PROMETHEUS_PATH)(`a load run's metrics in Prometheus${SKIP}`, () => {
  const root = mkdtempSync(join(tmpdir(), 'load-prometheus-'));
  const dir = join(root, 'run');
  let prometheus: RunningPrometheus;
  let run: { code: number | null; output: string };
  let runId: string;

  beforeAll(async () => {
    prometheus = await startPrometheus();
    run = await runLoad(
      [
        'fanout',
        '--smoke',
        '--no-build',
        '--report-dir',
        dir,
        '--',
        '--out',
        'experimental-prometheus-rw',
        '--tag',
        'testid=prometheus-test',
      ],
      RUN_LIMIT_MS,
      {
        ...FANOUT,
        K6_PROMETHEUS_RW_SERVER_URL: prometheus.writeUrl,
      },
    );
    runId = (JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { run_id: string }).run_id;
  }, RUN_LIMIT_MS + 30_000);

  afterAll(async () => {
    await prometheus?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** The one value of an instant query; fails with the query when there is none or more. */
  async function scalar(promql: string): Promise<number> {
    const result = await prometheus.query(promql);
    expect(result, `${promql} → ${JSON.stringify(result)}`).toHaveLength(1);
    return result[0]!.value;
  }

  it('passes, and k6 and the harness say where they wrote', () => {
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(runId).toMatch(/^[0-9a-f]{8}$/);
    expect(run.output).toContain(
      `run ${runId}: k6's samples and each scenario's verdict go to ${prometheus.writeUrl} (K6_PROMETHEUS_RW_SERVER_URL)`,
    );
    expect(run.output).toMatch(/fanout's verdict and figures: \d+ series written to /);
  });

  it("finds the run's requests as k6 wrote them, by run id: the counts of the run's summaries", async () => {
    const runner = metricsOf(join(dir, 'fanout.runner.summary.json'));
    const merged = metricsOf(join(dir, 'fanout.summary.json'));
    // Counters are cumulative in every write: the largest value of each series is its total.
    const all = await scalar(`sum(max_over_time(k6_http_reqs_total{run_id="${runId}"}[1h]))`);
    expect(all).toBe(runner.http_reqs!.values.count);
    const placed = await scalar(
      `sum(max_over_time(k6_http_reqs_total{run_id="${runId}", endpoint="calls.place"}[1h]))`,
    );
    expect(placed).toBeGreaterThan(0);
    expect(placed).toBe(merged['http_reqs{endpoint:calls.place}']!.values.count);
    // A placed call's id is the sample's metadata, not a label: one series, not one per call.
    expect(await scalar(`count(max_over_time(k6_fanout_calls_placed_total{run_id="${runId}"}[1h]))`)).toBe(1);
    expect(await scalar(`sum(max_over_time(k6_fanout_calls_placed_total{run_id="${runId}"}[1h]))`)).toBeGreaterThan(1);
    // The harness's tags and the run's own are on k6's series.
    expect(
      await scalar(
        `count(max_over_time(k6_http_reqs_total{run_id="${runId}", load_scenario="fanout", testid="prometheus-test"}[1h])) > 0`,
      ),
    ).toBeGreaterThan(0);
  });

  it('finds the fan-out latency the harness measured, by run id and scenario: the figures of the summary', async () => {
    const latency = metricsOf(join(dir, 'fanout.summary.json')).fanout_event_to_arrival_ms!;
    const labels = `run_id="${runId}", load_scenario="fanout", testid="prometheus-test"`;
    expect(latency.values.count).toBeGreaterThan(0);
    expect(await scalar(`svc_load_fanout_event_to_arrival_ms_count{${labels}}`)).toBe(latency.values.count);
    expect(await scalar(`svc_load_fanout_event_to_arrival_ms_p95{${labels}}`)).toBe(latency.values['p(95)']);
    expect(await scalar(`svc_load_fanout_event_to_arrival_ms_p99{${labels}}`)).toBe(latency.values['p(99)']);
    expect(await scalar(`svc_load_http_reqs_count{${labels}, endpoint="calls.place"}`)).toBe(
      metricsOf(join(dir, 'fanout.summary.json'))['http_reqs{endpoint:calls.place}']!.values.count,
    );
  });

  it("finds each threshold's verdict and the scenario's, as 1 for held", async () => {
    const report = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
      scenarios: Array<{ thresholds: unknown[] }>;
    };
    const thresholds = report.scenarios[0]!.thresholds.length;
    expect(await scalar(`count(svc_load_threshold_passed{run_id="${runId}", load_scenario="fanout"})`)).toBe(
      thresholds,
    );
    expect(await scalar(`sum(svc_load_threshold_passed{run_id="${runId}", load_scenario="fanout"})`)).toBe(thresholds);
    expect(
      await scalar(`svc_load_threshold_passed{run_id="${runId}", metric="fanout_loss_ratio", threshold="value<=0"}`),
    ).toBe(1);
    expect(await scalar(`svc_load_passed{run_id="${runId}", load_scenario="fanout"}`)).toBe(1);
  });

  it(
    'load merge of the same samples writes the merged verdict under the same run id, and its load-junit.xml',
    async () => {
      const merged = join(root, 'merged');
      const samples = [join(dir, 'fanout.segment-1.ndjson.gz'), join(dir, 'fanout.receivers.ndjson')];
      const merge = await runLoad(
        ['merge', 'fanout', ...samples, '--no-build', '--report-dir', merged, '--prometheus-rw', prometheus.writeUrl],
        RUN_LIMIT_MS,
        { ...FANOUT, LOAD_RATE: '4' },
      );
      expect(merge.code, merge.output.slice(-3000)).toBe(0);
      expect(merge.output).toMatch(
        new RegExp(`fanout's merged verdict and figures \\(run ${runId}\\): \\d+ series written to `),
      );
      expect((JSON.parse(readFileSync(join(merged, 'summary.json'), 'utf8')) as { run_id: string }).run_id).toBe(runId);
      // Written twice now, by the run and by the merge, with the run's tags (the samples carry them).
      expect(
        await scalar(
          `count_over_time(svc_load_passed{run_id="${runId}", load_scenario="fanout", testid="prometheus-test"}[1h])`,
        ),
      ).toBe(2);
      expect(merge.output).not.toContain('NOT written');
      const latency = metricsOf(join(merged, 'fanout.summary.json')).fanout_event_to_arrival_ms!;
      expect(
        await scalar(
          `max_over_time(svc_load_fanout_event_to_arrival_ms_count{run_id="${runId}", load_scenario="fanout"}[1h])`,
        ),
      ).toBe(latency.values.count);
      const junit = readFileSync(join(merged, 'load-junit.xml'), 'utf8');
      expect(junit).toContain('<testcase classname="fanout" name="fanout_loss_ratio value&lt;=0" time="0.000">');
      if (hasXmllint) expect(junitSchemaProblems(junit)).toEqual([]);
    },
    RUN_LIMIT_MS + 10_000,
  );

  it(
    'a store that does not answer changes no verdict: the run says what it could not write',
    async () => {
      // A port that was free a moment ago: nothing listens there.
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const closed = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/write`;
      await new Promise((resolve) => server.close(resolve));
      const merge = await runLoad(
        [
          'merge',
          'fanout',
          join(dir, 'fanout.segment-1.ndjson.gz'),
          join(dir, 'fanout.receivers.ndjson'),
          '--no-build',
          '--report-dir',
          join(root, 'unwritten'),
          '--prometheus-rw',
          closed,
        ],
        RUN_LIMIT_MS,
        { ...FANOUT, LOAD_RATE: '4' },
      );
      expect(merge.code, merge.output.slice(-3000)).toBe(0);
      expect(merge.output).toContain(
        `merged verdict and figures (run ${runId}): NOT written to the metrics store: ${closed} fetch failed (connect ECONNREFUSED`,
      );
      expect(existsSync(join(root, 'unwritten', 'load-junit.xml'))).toBe(true);
    },
    RUN_LIMIT_MS + 10_000,
  );
});
