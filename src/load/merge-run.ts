/**
 * `svc-harness load merge <scenario> <samples…>`: the verdict of a run made elsewhere (the
 * runners of a k6-operator TestRun, each with `--out json=…`), from all their samples, with
 * the report `svc-harness load` writes for a local run. The thresholds are the scenario's as
 * the whole test holds them, under the LOAD_ settings given here (the TestRun's).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../cli/command.js';
import { k6EnvOf, parseLoadSettings } from '../config/load-settings.js';
import { readSettingSources } from '../config/settings.js';
import { maskDeep } from '../secrets/mask.js';
import { buildLoadScripts, scenarioNames } from './bundle.js';
import { log } from './context.js';
import { digestSummary, SUMMARIZED_METRICS, runPassed } from './digest.js';
import { k6Env } from './k6-binary.js';
import { k6Binary } from './k6-build.js';
import { mergeSegments } from './merge.js';
import { planOf } from './prepare/index.js';
import { logVerdicts, writeLoadReport } from './report.js';
import { wholeTestThresholds } from './segments.js';

export interface MergeArgs {
  scenario: string;
  files: string[];
  reportDir: string;
  build: boolean;
}

export function toMergeArgs(positionals: readonly string[], values: Record<string, unknown>): MergeArgs {
  const [scenario, ...files] = positionals;
  const known = scenarioNames();
  if (!scenario || !known.includes(scenario)) throw new UsageError(`name the scenario first (one of ${known.join(', ')}), then the sample files`);
  if (files.length === 0) throw new UsageError('name the sample files (k6 --out json=…, one per runner; .gz read as gzip)');
  const absent = files.filter((file) => !existsSync(file));
  if (absent.length > 0) throw new UsageError(`no such file: ${absent.join(', ')}`);
  return { scenario, files, reportDir: resolve(typeof values['report-dir'] === 'string' ? values['report-dir'] : 'reports/load'), build: values['no-build'] !== true };
}

export async function runMerge(args: MergeArgs): Promise<number> {
  const startedAt = new Date();
  const load = parseLoadSettings(readSettingSources());
  const k6 = await k6Binary({ build: args.build, log, ...(load.LOAD_K6_BINARY ? { explicit: load.LOAD_K6_BINARY } : {}) });
  const bundle = (await buildLoadScripts())[args.scenario]!;
  const env = k6Env({ ...planOf(args.scenario).profiles.default, ...k6EnvOf(load) });
  const summary = await mergeSegments({ files: args.files, thresholds: wholeTestThresholds(k6, bundle, env), scenario: args.scenario, alsoSummarize: SUMMARIZED_METRICS });
  mkdirSync(args.reportDir, { recursive: true });
  writeFileSync(resolve(args.reportDir, `${args.scenario}.summary.json`), JSON.stringify(maskDeep({ ...summary, samples: args.files }), null, 2));
  const digest = { ...digestSummary(summary, 0, args.scenario), segments: args.files.length };
  log(`${args.scenario}: ${digest.passed ? 'passed' : 'FAILED'} (${args.files.length} runners' samples merged, ${(digest.durationMs / 1000).toFixed(1)} s of samples)`);
  const passed = runPassed([digest]);
  writeLoadReport(args.reportDir, {
    startedAt,
    target: { base_url: 'as the runners were given (merged from their samples)', embedded_reference: false },
    mode: 'default',
    k6: { version: k6.version, path_source: k6.source },
    passed,
    digests: [digest],
  });
  logVerdicts(args.reportDir, [digest], undefined);
  return passed ? 0 : 1;
}
