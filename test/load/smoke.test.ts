/**
 * `npm run load -- --smoke` end to end: the reference and a pool of two capturing receivers on loopback,
 * every scenario briefly, reports written, thresholds held, no token in any report; then a
 * distributed fan-out (distributed-fanout.ts).
 * Skipped (with the reason in its name) when no k6 v2 is found (load-child.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasXmllint, junitSchemaProblems } from '../support/xmllint.js';
import { checkDistributedFanout } from './distributed-fanout.js';
import { K6_PATH, K6_SKIP_REASON, runLoad } from './load-child.js';
import { THRESHOLD_PROOFS } from './threshold-proofs.js';

const SMOKE_LIMIT_MS = 170_000;
/** The arrival-rate executors of each scenario (rotation: the old and the new token's). */
const ARRIVAL_RATE_EXECUTORS: Record<string, number> = { calls: 1, 'calls-ramp': 1, fanout: 1, rotation: 2 };

// One after the other: run side by side with the unit tests beside them, fan-out missed its
// latency budget in a fresh clone on a small CI machine. The split run compares itself with the
// one-process run before it.
describe('load smoke', () => {
  const root = mkdtempSync(join(tmpdir(), 'load-smoke-'));
  const reportDir = join(root, 'one-process');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let oneProcess: ReturnType<typeof runLoad> | undefined;
  // Fan-out through a pool of two receiver processes on one port (the threshold tests use one).
  const oneProcessRun = () =>
    (oneProcess ??= runLoad(['--smoke', '--no-build', '--report-dir', reportDir], SMOKE_LIMIT_MS, {
      LOAD_RECEIVER_WORKERS: '2',
    }));

  it.skipIf(!K6_PATH)(
    `npm run load -- --smoke passes every scenario against the reference and writes the reports${K6_SKIP_REASON}`,
    async () => {
      const { code, output } = await oneProcessRun();
      expect(code, output.slice(-3000)).toBe(0);
      expect(output).toContain('(2 processes on one port)');
      const report = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as {
        passed: boolean;
        scenarios: {
          scenario: string;
          passed: boolean;
          figures: Record<string, { value: number }>;
          thresholds: { metric: string; expression: string; ok: boolean }[];
        }[];
      };
      expect(report.passed).toBe(true);
      // The thresholds the faulted runs break (thresholds.test.ts) are judged, and hold, here: the
      // same metric and statistic, against the budgets of load-child.ts where a proof takes the default.
      const judged = (threshold: string) => threshold.replace(/[<>=!]+[\d.]+$/, '');
      const held = report.scenarios.flatMap((s) =>
        s.thresholds.filter((t) => t.ok).map((t) => judged(`${s.scenario} ${t.metric} ${t.expression}`)),
      );
      for (const proof of THRESHOLD_PROOFS)
        for (const threshold of proof.fails) expect(held).toContain(judged(`${proof.scenario} ${threshold}`));
      expect(report.scenarios.map((s) => s.scenario).sort()).toEqual(['calls', 'calls-ramp', 'fanout', 'rotation']);
      const fanout = report.scenarios.find((s) => s.scenario === 'fanout')!;
      expect(fanout.figures['fanout_lost_deliveries count']!.value).toBe(0);
      expect(fanout.figures['fanout_arrived_deliveries count']!.value).toBeGreaterThan(0);
      expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain(
        '<h1>Load report: <span class="pass">passed</span>',
      );
      // load-junit.xml: every threshold of every scenario a testcase, none failed, valid for a CI system.
      const junit = readFileSync(join(reportDir, 'load-junit.xml'), 'utf8');
      const thresholdCount = report.scenarios.reduce((sum, s) => sum + s.thresholds.length, 0);
      expect(junit).toContain(`<testsuites name="load" tests="${thresholdCount}" failures="0" errors="0"`);
      if (hasXmllint) expect(junitSchemaProblems(junit)).toEqual([]);
      // k6's own web dashboard report of each scenario, linked from the load report.
      for (const scenario of ['calls', 'calls-ramp', 'fanout', 'rotation'])
        expect(readdirSync(reportDir)).toContain(`${scenario}.dashboard.html`);
      expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain(
        '<a href="fanout.dashboard.html">k6 web dashboard report</a>',
      );
      for (const file of readdirSync(reportDir)) {
        const text = readFileSync(join(reportDir, file), 'utf8');
        expect(text, file).not.toMatch(/svc_(test|live)_[A-Za-z0-9]{8,}/);
        expect(text, file).not.toMatch(/ctl_[A-Za-z0-9]{20,}/);
      }
      expect(output).not.toMatch(/svc_(test|live)_[A-Za-z0-9]{8,}/);
    },
    SMOKE_LIMIT_MS + 10_000,
  );

  it.skipIf(!K6_PATH)(
    `npm run load -- --smoke --instances 3 splits every scenario into three execution segments: one merged verdict, the same counts as one process${K6_SKIP_REASON}`,
    async () => {
      const dir = join(root, 'segments');
      const one = await oneProcessRun();
      expect(one.code, one.output.slice(-3000)).toBe(0);
      const { code, output } = await runLoad(
        ['--smoke', '--instances', '3', '--no-build', '--report-dir', dir],
        SMOKE_LIMIT_MS,
      );
      expect(code, output.slice(-3000)).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
        passed: boolean;
        scenarios: Array<{ scenario: string; segments?: number; thresholds: unknown[] }>;
      };
      expect(report.passed).toBe(true);
      expect(report.scenarios.map((s) => [s.scenario, s.segments])).toEqual(
        ['calls', 'calls-ramp', 'fanout', 'rotation'].map((name) => [name, 3]),
      );
      const counts = (file: string) =>
        (JSON.parse(readFileSync(file, 'utf8')) as { metrics: Record<string, { values: Record<string, number> }> })
          .metrics;
      for (const scenario of ['calls', 'calls-ramp', 'fanout', 'rotation']) {
        const one = counts(join(reportDir, `${scenario}.summary.json`));
        const three = counts(join(dir, `${scenario}.summary.json`));
        // The iterations the executors scheduled (every placement, the revocation), made or dropped
        // on a busy machine, as the single-process smoke run above scheduled them. k6 starts, or
        // not, the iteration due at the very end of an arrival-rate executor, in each k6 process
        // on its own: one either way for the single process and for each of the three segments.
        const scheduled = (metrics: typeof one) =>
          metrics.iterations!.values.count! + (metrics.dropped_iterations?.values.count ?? 0);
        expect(
          Math.abs(scheduled(three) - scheduled(one)),
          `${scenario}: ${scheduled(three)} in 3 segments, ${scheduled(one)} in one process`,
        ).toBeLessThanOrEqual(ARRIVAL_RATE_EXECUTORS[scenario]! * (1 + 3));
        // Every segment had its share.
        for (let i = 1; i <= 3; i++)
          expect(
            counts(join(dir, `${scenario}.segment-${i}.summary.json`)).iterations?.values.count ?? 0,
            `${scenario} segment ${i}`,
          ).toBeGreaterThan(0);
      }
      // Fan-out: the receivers saw every lifecycle event of every segment's calls at all 25 endpoints.
      const fanout = counts(join(dir, 'fanout.summary.json'));
      expect(fanout.fanout_arrived_deliveries!.values.count).toBe(fanout.iterations!.values.count! * 25 * 3);
      expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(
        'one verdict from the samples of 3 k6 processes',
      );

      // The same samples, as a k6-operator run's runners would leave them, through `load merge`
      // under the run's settings (the smoke profile of calls): the same verdicts.
      const merged = join(root, 'merged');
      const samples = [1, 2, 3].map((i) => join(dir, `calls.segment-${i}.ndjson.gz`));
      const merge = await runLoad(['merge', 'calls', ...samples, '--no-build', '--report-dir', merged], 60_000, {
        LOAD_RATE: '20',
        LOAD_DURATION: '5s',
      });
      expect(merge.code, merge.output.slice(-3000)).toBe(0);
      // The verdicts, not the figures judged: a rate's time base is the longest segment here, the span of the samples there.
      type Verdict = { metric: string; expression: string; ok: boolean };
      const only = (thresholds: Verdict[]) =>
        thresholds.map(({ metric, expression, ok }) => ({ metric, expression, ok }));
      const verdicts = (file: string) =>
        only(
          (JSON.parse(readFileSync(file, 'utf8')) as { scenarios: Array<{ thresholds: Verdict[] }> }).scenarios[0]!
            .thresholds,
        );
      const callsVerdicts = only(
        (
          JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
            scenarios: Array<{ scenario: string; thresholds: Verdict[] }>;
          }
        ).scenarios.find((s) => s.scenario === 'calls')!.thresholds,
      );
      expect(verdicts(join(merged, 'summary.json'))).toEqual(callsVerdicts);
      expect(counts(join(merged, 'calls.summary.json'))['http_reqs{endpoint:calls.place}']!.values.count).toBe(
        counts(join(dir, 'calls.summary.json'))['http_reqs{endpoint:calls.place}']!.values.count,
      );
    },
    SMOKE_LIMIT_MS + 10_000,
  );

  // After the runs above, never beside them (describe's tests run one after the other).
  it.skipIf(!K6_PATH)(
    `a distributed fan-out: load fanout-host and two runners given only its Secret, judged by load merge with its arrivals; a tenth of them missing fails${K6_SKIP_REASON}`,
    () => checkDistributedFanout(mkdtempSync(join(root, 'distributed-'))),
    SMOKE_LIMIT_MS,
  );

  it('refuses a svc_live_ token without --allow-production, before starting anything', async () => {
    const token = 'svc_live_FAKE_not_a_real_token';
    const { code, output } = await runLoad(['calls', '--no-build', '--report-dir', join(root, 'refused')], 60_000, {
      SVC_BASE_URL: 'http://127.0.0.1:9',
      SVC_TOKEN: token,
    });
    expect(code, output).toBe(2);
    expect(output).toMatch(/production \(svc_live_\) token.*--allow-production/);
    expect(output).not.toContain(token);
  }, 70_000);
});
