/**
 * `svc-harness load merge <scenario> <samples…>`: the verdict of a run made elsewhere (the
 * runners of a k6-operator TestRun, each with `--out json=…`), from all their samples, with
 * the report `svc-harness load` writes for a local run. The thresholds are the scenario's as
 * the whole test holds them, under the LOAD_ settings given here (the TestRun's).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { k6EnvOf, parseLoadSettings } from '../../config/load-settings.js';
import { readSettingSources } from '../../config/settings.js';
import { SamplesError, UsageError } from '../../errors.js';
import { maskDeep } from '../../secrets/mask.js';
import { buildLoadScripts, scenarioNames } from '../k6/bundle.js';
import { log } from '../log.js';
import { digestSummary, SUMMARIZED_METRICS, runPassed } from '../report/digest.js';
import { k6Env } from '../k6/binary.js';
import { k6Binary } from '../k6/build.js';
import { isArrivalsFile, readArrivals } from '../fanout/arrivals.js';
import { FanoutTally } from '../fanout/tally.js';
import { writeFanoutObservations } from '../fanout/verdict.js';
import { mergeSegments } from './merge.js';
import { planOf } from '../prepare/index.js';
import { loadExitCode, logVerdicts, writeLoadReport } from '../report/write.js';
import { RUN_TAGS } from '../k6/options.js';
import { scenarioSeries } from '../store/series.js';
import { chooseStore, publish } from '../store/store.js';
import { wholeTestThresholds } from './segments.js';

export interface MergeArgs {
  scenario: string;
  files: string[];
  reportDir: string;
  build: boolean;
  /** --prometheus-rw: where the merged verdict and figures are written. */
  prometheusRw?: string;
}

export function toMergeArgs(positionals: readonly string[], values: Record<string, unknown>): MergeArgs {
  const [scenario, ...files] = positionals;
  const known = scenarioNames();
  if (!scenario || !known.includes(scenario))
    throw new UsageError(`name the scenario first (one of ${known.join(', ')}), then the sample files`);
  if (files.length === 0)
    throw new UsageError('name the sample files (k6 --out json=…, one per runner; .gz read as gzip)');
  const absent = files.filter((file) => !existsSync(file));
  if (absent.length > 0) throw new UsageError(`no such file: ${absent.join(', ')}`);
  return {
    scenario,
    files,
    reportDir: resolve(typeof values['report-dir'] === 'string' ? values['report-dir'] : 'reports/load'),
    build: values['no-build'] !== true,
    ...(typeof values['prometheus-rw'] === 'string' ? { prometheusRw: values['prometheus-rw'] } : {}),
  };
}

export async function runMerge(args: MergeArgs): Promise<number> {
  const startedAt = new Date();
  const load = parseLoadSettings(readSettingSources());
  const store = chooseStore({
    ...(args.prometheusRw !== undefined ? { flag: args.prometheusRw } : {}),
    ...(load.LOAD_PROMETHEUS_RW_URL !== undefined ? { setting: load.LOAD_PROMETHEUS_RW_URL } : {}),
  });
  const k6 = await k6Binary({
    build: args.build,
    log,
    ...(load.LOAD_K6_BINARY ? { explicit: load.LOAD_K6_BINARY } : {}),
  });
  const bundle = (await buildLoadScripts())[args.scenario]!;
  const env = k6Env({ ...planOf(args.scenario).profiles.default, ...k6EnvOf(load) });
  mkdirSync(args.reportDir, { recursive: true });
  const { files, runners } = await withReplayedArrivals(args);
  const summary = await mergeSegments({
    files,
    thresholds: wholeTestThresholds(k6, bundle, env),
    scenario: args.scenario,
    alsoSummarize: SUMMARIZED_METRICS,
  });
  const runId = runIdOf(summary.run_ids);
  writeFileSync(
    resolve(args.reportDir, `${args.scenario}.summary.json`),
    JSON.stringify(maskDeep({ ...summary, samples: args.files }), null, 2),
  );
  const digest = { ...digestSummary(summary, 0, args.scenario), segments: runners };
  log(
    `${args.scenario}: ${digest.passed ? 'passed' : 'FAILED'} (${runners} runners' samples merged, ${(digest.durationMs / 1000).toFixed(1)} s of samples)`,
  );
  const passed = runPassed([digest]);
  if (store) {
    // Labelled as the runners' samples are: their run id and the --tag every one of them carries.
    const labels = Object.fromEntries(
      Object.entries(summary.run_tags).filter(([tag]) => tag !== RUN_TAGS.runId && tag !== RUN_TAGS.scenario),
    );
    const series = scenarioSeries({
      runId,
      scenario: args.scenario,
      digest,
      summary: maskDeep(summary),
      labels,
      timestampMs: Date.now(),
    });
    await publish(store, `${args.scenario}'s merged verdict and figures (run ${runId})`, series);
  }
  writeLoadReport(args.reportDir, {
    runId,
    startedAt,
    target: { base_url: 'as the runners were given (merged from their samples)', embedded_reference: false },
    mode: 'default',
    k6: { version: k6.version, path_source: k6.source },
    passed,
    digests: [digest],
  });
  logVerdicts(args.reportDir, [digest], undefined);
  return loadExitCode(passed, [digest]);
}

/**
 * The run the samples are of: their run_id tag (svc-harness load sets it; give k6-operator
 * runners `--tag run_id=<id>`), or a new id when they carry none; samples of several runs
 * are not one verdict.
 */
function runIdOf(runIds: readonly string[]): string {
  if (runIds.length > 1)
    throw new SamplesError(
      `the samples are of ${runIds.length} runs (${RUN_TAGS.runId} ${runIds.join(', ')}); merge the samples of one run`,
    );
  if (runIds.length === 1) return runIds[0]!;
  const made = randomBytes(4).toString('hex');
  log(
    `the samples carry no ${RUN_TAGS.runId} tag: this verdict is run ${made} (give the runners --tag ${RUN_TAGS.runId}=<id> to name it)`,
  );
  return made;
}

/**
 * The merge's files, each fan-out arrivals file (`load fanout-host`) replaced by the
 * receivers' figures it gives beside the runners' samples: every arrival replayed into one
 * tally, the calls the samples name learnt, then judged as a local run judges them.
 */
async function withReplayedArrivals(args: MergeArgs): Promise<{ files: string[]; runners: number }> {
  const arrivalFiles: string[] = [];
  const others: string[] = [];
  for (const file of args.files) (isArrivalsFile(file) ? arrivalFiles : others).push(file);
  if (arrivalFiles.length === 0) return { files: args.files, runners: args.files.length };
  if (args.scenario !== 'fanout')
    throw new UsageError(`${arrivalFiles.join(', ')}: fan-out arrivals, but the scenario is ${args.scenario}`);
  const recordings = await Promise.all(arrivalFiles.map((file) => readArrivals(file)));
  const tally = new FanoutTally([...new Set(recordings.flatMap((recording) => recording.endpoints))]);
  let dropped = 0;
  let clientClosed = 0;
  for (const recording of recordings) {
    for await (const arrival of recording.arrivals) tally.arrive(arrival);
    const ending = recording.ending();
    dropped += ending.dropped;
    clientClosed += ending.receiver?.clientClosed ?? 0;
  }
  if (dropped > 0)
    log(`fanout: ${dropped} arrivals were dropped by the host (its disk fell behind); they count as lost`);
  const out = resolve(args.reportDir, 'fanout.receivers.ndjson');
  const { stats, calls } = await writeFanoutObservations({
    tally,
    samples: others,
    drainMs: 0,
    receiver: () => ({ clientClosed }),
    out,
  });
  log(
    `fanout: ${calls.placed} calls placed by the runners, ${stats.arrived}/${stats.expected} expected deliveries arrived (${stats.lost} lost), ${stats.bad_signatures} bad signatures, ${stats.duplicates} duplicates`,
  );
  return { files: [...others, out], runners: others.length };
}
