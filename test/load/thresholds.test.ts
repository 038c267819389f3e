/**
 * Every load threshold can fail: each scenario of THRESHOLD_PROOFS runs briefly (--smoke)
 * against the reference with one fault switched on (the `/faults/<name>` prefix on the API
 * and control URLs), exits 99 (k6's code for a failed threshold), and fails exactly the
 * thresholds that fault breaks, in summary.json and in load-junit.xml, where each failure
 * names the figure it judged. The clean run holding them is the smoke test's. Skipped like
 * it when no k6 v2 is found.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.js';
import { EXIT } from '../../src/errors.js';
import type { ScenarioDigest } from '../../src/load/report/digest.js';
import { hasXmllint, junitSchemaProblems } from '../support/xmllint.js';
import { K6_PATH, K6_SKIP_REASON, runLoad } from './load-child.js';
import { THRESHOLD_PROOFS } from './threshold-proofs.js';

/** One scenario's smoke run, its drain and its k6 start: well under this. */
const RUN_LIMIT_MS = 120_000;

const unescapeXml = (text: string): string =>
  text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');

/**
 * The failed testcases of `<dir>/load-junit.xml` (valid against the JUnit schema), by name,
 * sorted. Each is of the scenario, and its failure names the figure judged and the bound it missed.
 */
function junitFailures(dir: string, scenario: string): string[] {
  const xml = readFileSync(join(dir, 'load-junit.xml'), 'utf8');
  if (hasXmllint) expect(junitSchemaProblems(xml)).toEqual([]);
  const failures = [
    ...xml.matchAll(
      /<testcase classname="([^"]*)" name="([^"]*)" time="[^"]*">\s*<failure message="([^"]*)" type="threshold">/g,
    ),
  ];
  return failures
    .map(([, classname, name, message]) => {
      expect(classname).toBe(scenario);
      const expression = unescapeXml(name!).slice(unescapeXml(name!).lastIndexOf(' ') + 1);
      // "p(95) of fanout_event_to_arrival_ms was 5123.4 ms; the threshold is p(95)<1000"
      expect(unescapeXml(message!)).toMatch(
        new RegExp(
          `^\\S+ of \\S.* was -?\\d[\\d.]*( ms| %| /s)?; the threshold is ${expression.replace(/[()[\]{}.*+?^$|\\]/g, '\\$&')}$`,
        ),
      );
      return unescapeXml(name!);
    })
    .sort();
}

describe('load thresholds', () => {
  const reportRoot = mkdtempSync(join(tmpdir(), 'load-thresholds-'));
  let reference: RunningReference | undefined;
  beforeAll(async () => {
    if (K6_PATH) reference = await startReference({ quiet: true });
  });
  afterAll(async () => {
    await reference?.close();
    rmSync(reportRoot, { recursive: true, force: true });
  });

  it
    .skipIf(!K6_PATH)
    .each(
      THRESHOLD_PROOFS.map(
        (proof) =>
          [
            `${proof.scenario}${proof.instances ? ` in ${proof.instances} segments` : ''} under ${proof.fault}`,
            proof,
          ] as const,
      ),
    )(
    `%s fails its thresholds${K6_SKIP_REASON}`,
    async (name, proof) => {
      const { baseUrl, controlUrl, controlToken } = reference!;
      const prefix = `/faults/${proof.fault}`;
      const reportDir = join(reportRoot, name.replaceAll(' ', '-'));
      const instances = proof.instances ? ['--instances', String(proof.instances)] : [];
      const { code, output } = await runLoad(
        [proof.scenario, '--smoke', '--no-build', '--report-dir', reportDir, ...instances],
        RUN_LIMIT_MS,
        {
          SVC_BASE_URL: `${baseUrl}${prefix}`,
          SVC_CONTROL_URL: controlUrl.replace(baseUrl, `${baseUrl}${prefix}`),
          SVC_CONTROL_TOKEN: controlToken,
          ...proof.env,
        },
      );
      expect(code, output.slice(-3000)).toBe(EXIT.thresholdsFailed);
      const report = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as {
        scenarios: ScenarioDigest[];
      };
      const failed = report.scenarios.flatMap((s) =>
        s.thresholds.filter((t) => !t.ok).map((t) => `${t.metric} ${t.expression}`),
      );
      expect(failed.sort(), output.slice(-3000)).toEqual([...proof.fails].sort());
      expect(junitFailures(reportDir, proof.scenario)).toEqual([...proof.fails].sort());
      // A loss comes with what the receivers saw of the connections.
      if (proof.fails.includes('fanout_loss_ratio value<=0')) {
        // lifecycle-no-started: every started event is missing, and only those.
        expect(output).toMatch(/fan-out lost by event: \d+ voice\.call\.started\n/);
        expect(output).toMatch(
          /fan-out receivers: \d+ captured, 0 connections reset, 0 timed out, 0 malformed requests or failed TLS handshakes, 0 to unknown paths/,
        );
      }
      if (proof.instances) {
        expect(report.scenarios[0]!.segments).toBe(proof.instances);
        // The segments' samples through `load merge`, as a k6-operator run's would go: the same failures.
        const samples = Array.from({ length: proof.instances }, (_, i) =>
          join(reportDir, `${proof.scenario}.segment-${i + 1}.ndjson.gz`),
        );
        // What the harness observed itself (fanout's receivers) goes beside the runners' samples.
        const observed = join(reportDir, `${proof.scenario}.receivers.ndjson`);
        if (existsSync(observed)) samples.push(observed);
        const merged = join(reportDir, 'merged');
        const merge = await runLoad(
          ['merge', proof.scenario, ...samples, '--no-build', '--report-dir', merged],
          RUN_LIMIT_MS,
          { LOAD_RATE: '20', LOAD_DURATION: '5s', ...proof.env },
        );
        expect(merge.code, merge.output.slice(-3000)).toBe(EXIT.thresholdsFailed);
        const mergedReport = JSON.parse(readFileSync(join(merged, 'summary.json'), 'utf8')) as {
          scenarios: ScenarioDigest[];
        };
        expect(
          mergedReport.scenarios[0]!.thresholds.filter((t) => !t.ok).map((t) => `${t.metric} ${t.expression}`),
        ).toEqual([...proof.fails]);
        expect(junitFailures(merged, proof.scenario)).toEqual([...proof.fails].sort());
      }
    },
    RUN_LIMIT_MS + 10_000,
  );
});
