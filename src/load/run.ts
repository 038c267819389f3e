/**
 * `svc-harness load` (src/cli/commands/load.ts holds its options and help).
 *
 * Finds (or builds) k6, bundles load/scenarios, resolves the target from the same settings
 * as certify (SVC_*, RECEIVER_*; unset SVC_BASE_URL starts the reference on loopback),
 * prepares each scenario through the control interface (prepare/: workspace, tokens, webhook
 * endpoints on a capturing receiver), runs k6 once per scenario and writes reports/load/:
 * <scenario>.summary.json (k6's summary), summary.json, report.html and load-junit.xml.
 * The k6 options after `--` go to every k6 process (k6/options.ts); with a metrics store
 * (store/), k6 writes its samples there and the harness each scenario's verdict and figures.
 * Exit 0 when every threshold held and no figure regressed past the baseline, 99 (k6's code)
 * when a threshold failed, 1 when the run failed otherwise, 2 when it could not happen
 * (settings, k6 missing, target unreachable, refusal).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { k6EnvOf, parseLoadSettings } from '../config/load-settings.js';
import { loadSettings, readSettingSources } from '../config/settings.js';
import { RunAbort } from '../errors.js';
import { resolveTarget } from '../runner/target.js';
import { SPEC_RECEIVER_TIMEOUT_MS } from '../config/receiver-settings.js';
import { mask, maskDeep, registerSecret } from '../secrets/mask.js';
import { toLoadArgs, type CommandLine, type LoadArgs } from './args.js';
import { compareDigests, readBaseline } from './report/baseline.js';
import { buildLoadScripts, scenarioNames } from './k6/bundle.js';
import { newRunContext, type Prepared, type RunContext } from './context.js';
import { log } from './log.js';
import type { K6Summary } from '../../load/lib/shared-types.js';
import { digestSummary, failedDigest, runPassed, skippedDigest, type ScenarioDigest } from './report/digest.js';
import { k6Env, type FoundK6 } from './k6/binary.js';
import { k6Binary } from './k6/build.js';
import { k6TimeLimitMs, runK6, stopK6 } from './k6/run.js';
import { planOf } from './prepare/index.js';
import { loadExitCode, logVerdicts, writeLoadReport } from './report/write.js';
import { runSegments } from './distributed/segments.js';
import { extraPercentiles, k6RunArgs, type K6Options } from './k6/options.js';
import { chooseStore, publish, type MetricsStore } from './store/store.js';
import { scenarioSeries } from './store/series.js';

/** How every k6 process of a run is started: the user's options, the store, the terminal. */
interface K6Launch {
  options: K6Options;
  store?: MetricsStore;
  tty: boolean;
}

interface ScenarioOutcome {
  digest: ScenarioDigest;
  summary?: K6Summary;
}

async function runScenario(
  scenario: string,
  ctx: RunContext,
  k6: FoundK6,
  bundle: string,
  reportDir: string,
  args: LoadArgs,
  launch: K6Launch,
): Promise<ScenarioOutcome> {
  const { smoke, instances } = args;
  log(`\n== ${scenario}`);
  const plan = planOf(scenario);
  let prepared: Prepared;
  try {
    prepared = await plan.prepare(ctx, scenario);
  } catch (error) {
    log(`  preparation failed: ${(error as Error).message}`);
    return { digest: failedDigest(scenario, `preparation failed: ${mask((error as Error).message)}`) };
  }
  if (prepared.skip) {
    log(`  skipped: ${prepared.skip}`);
    return { digest: skippedDigest(scenario, prepared.skip) };
  }
  const runArgs = (extra: readonly string[]): string[] =>
    k6RunArgs({
      k6Options: launch.options,
      runId: ctx.runId,
      scenario,
      tty: launch.tty,
      extra: [...extra, ...(launch.store?.k6.args ?? [])],
    });
  Object.values(prepared.env).forEach((value) =>
    registerSecret(value.startsWith('svc_') || value.startsWith('ctl_') ? value : undefined),
  );
  const summaryPath = resolve(reportDir, `${scenario}.summary.json`);
  const dashboardFile = `${scenario}.dashboard.html`;
  const env: Record<string, string> = {
    ...plan.profiles[smoke ? 'smoke' : 'default'],
    ...k6EnvOf(ctx.load),
    ...prepared.env,
    SVC_BASE_URL: ctx.target.baseUrl,
    LOAD_SUMMARY_PATH: summaryPath,
    // k6's web dashboard (in the pinned binary), exported as one HTML file when k6 ends; its
    // live server on a free loopback port, so that runs side by side never collide.
    K6_WEB_DASHBOARD: 'true',
    K6_WEB_DASHBOARD_HOST: '127.0.0.1',
    K6_WEB_DASHBOARD_PORT: '0',
    K6_WEB_DASHBOARD_PERIOD: '1s',
    K6_WEB_DASHBOARD_EXPORT: resolve(reportDir, dashboardFile),
    LOAD_RUN_ID: ctx.runId,
    ...(ctx.target.environment ? { LOAD_ENVIRONMENT: ctx.target.environment } : {}),
    ...launch.store?.k6.env,
  };
  try {
    const started = Date.now();
    const observe = prepared.observe;
    if (instances > 1 || observe) {
      const segmentEnv = (index: number) =>
        k6Env({
          ...env,
          LOAD_INSTANCES: String(instances),
          ...(instances > 1
            ? {
                LOAD_SUMMARY_PATH: resolve(reportDir, `${scenario}.segment-${index + 1}.summary.json`),
                K6_WEB_DASHBOARD: 'false',
              }
            : { LOAD_SUMMARY_PATH: resolve(reportDir, `${scenario}.runner.summary.json`) }),
        });
      const run = await runSegments({
        k6,
        bundle,
        scenario,
        count: instances,
        reportDir,
        envOf: segmentEnv,
        timeLimitMs: k6TimeLimitMs(env),
        runArgs,
        percentiles: extraPercentiles(launch.options.trendStats),
        ...(observe ? { observe: (samples: readonly string[]) => observe({ samples, env, reportDir, scenario }) } : {}),
      });
      writeFileSync(summaryPath, JSON.stringify(maskDeep(run.summary), null, 2));
      const dashboard =
        instances === 1 && existsSync(resolve(reportDir, dashboardFile)) ? { dashboard: dashboardFile } : {};
      const digest = {
        ...digestSummary(run.summary, run.exitCode, scenario),
        ...(instances > 1 ? { segments: instances } : {}),
        ...dashboard,
      };
      const how = instances > 1 ? `${instances} segments merged` : "the runner's and the receivers' samples merged";
      log(
        `  ${scenario}: ${digest.passed ? 'passed' : 'FAILED'} (${how}, k6 exits ${run.summary.segments.map((s) => s.exit_code).join(', ')}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
      return { digest, summary: maskDeep(run.summary) };
    }
    const code = await runK6(k6, bundle, k6Env(env), scenario, k6TimeLimitMs(env), runArgs([]));
    if (!existsSync(summaryPath))
      return { digest: failedDigest(scenario, `k6 exited ${code} without a summary`, code) };
    const summary = maskDeep(JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary);
    writeFileSync(summaryPath, JSON.stringify(summary, null, 2));
    const digest = {
      ...digestSummary(summary, code, scenario),
      ...(existsSync(resolve(reportDir, dashboardFile)) ? { dashboard: dashboardFile } : {}),
    };
    log(
      `  ${scenario}: ${digest.passed ? 'passed' : 'FAILED'} (k6 exit ${code}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    return { digest, summary };
  } catch (error) {
    log(`  ${scenario}: ${mask((error as Error).message)}`);
    return { digest: failedDigest(scenario, mask((error as Error).message)) };
  } finally {
    await prepared.cleanup().catch((error: Error) => log(`  clean-up: ${error.message}`));
  }
}

/** `svc-harness load`: returns the exit code; throws RunAbort, SettingsError, UsageError or K6NotFound when the run cannot happen. */
export async function runLoad(parsed: CommandLine): Promise<number> {
  const args = toLoadArgs(parsed, scenarioNames());
  const settings = loadSettings();
  const given = parseLoadSettings(readSettingSources());
  const store = chooseStore({
    ...(args.prometheusRw !== undefined ? { flag: args.prometheusRw } : {}),
    ...(given.LOAD_PROMETHEUS_RW_URL !== undefined ? { setting: given.LOAD_PROMETHEUS_RW_URL } : {}),
    k6Options: args.k6Options,
  });
  const launch: K6Launch = { options: args.k6Options, ...(store ? { store } : {}), tty: process.stdout.isTTY === true };
  registerSecret(given.LOAD_TOKEN);
  registerSecret(settings.SVC_TOKEN);
  const allowProduction = args.allowProduction || given.LOAD_ALLOW_PRODUCTION || settings.CERTIFY_ALLOW_PRODUCTION;
  for (const [name, token] of [
    ['SVC_TOKEN', settings.SVC_TOKEN],
    ['LOAD_TOKEN', given.LOAD_TOKEN],
  ] as const) {
    if (token?.startsWith('svc_live_') && !allowProduction) {
      throw new RunAbort(`${name} is a production (svc_live_) token; load staging, or pass --allow-production`);
    }
  }
  const load = { ...given, LOAD_ALLOW_PRODUCTION: allowProduction };
  const reportDir = resolve(args.reportDir ?? load.LOAD_REPORT_DIR);
  const baseline = args.baseline ? readBaseline(args.baseline) : undefined;
  const mode = args.smoke ? 'smoke' : 'default';
  if (baseline?.mode !== undefined && baseline.mode !== mode) {
    log(
      `warning: the baseline is a ${String(baseline.mode)} run and this one a ${mode} run; rates and latencies are not comparable`,
    );
  }

  const k6 = await k6Binary({
    build: args.build,
    log,
    ...(load.LOAD_K6_BINARY ? { explicit: load.LOAD_K6_BINARY } : {}),
  });
  log(`k6 ${k6.version} (${k6.source}): ${k6.path}`);
  const bundles = await buildLoadScripts();
  mkdirSync(reportDir, { recursive: true });

  const startedAt = new Date();
  // The embedded reference keeps the spec's 30 s receiver time-out: under a load run's CPU its
  // staging 2 s is a stall away, and a timed-out attempt is sent again (a duplicate), or only
  // after a minute, past the drain.
  const target = await resolveTarget(settings, allowProduction, { deliveryTimeoutMs: SPEC_RECEIVER_TIMEOUT_MS });
  log(`target ${target.baseUrl}${target.embeddedReference ? ' (embedded reference)' : ''}`);
  const ctx = newRunContext(target, settings, load);
  log(
    `run ${ctx.runId}${store ? `: k6's samples and each scenario's verdict go to ${store.url} (${store.source})` : ''}`,
  );
  const interrupted = (): void => {
    log('interrupted: stopping k6 and cleaning up');
    stopK6();
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const digests: ScenarioDigest[] = [];
  try {
    for (const scenario of args.scenarios) {
      const { digest, summary } = await runScenario(scenario, ctx, k6, bundles[scenario]!, reportDir, args, launch);
      digests.push(digest);
      if (store) {
        const series = scenarioSeries({
          runId: ctx.runId,
          scenario,
          digest,
          ...(summary ? { summary } : {}),
          labels: args.k6Options.tags,
          timestampMs: Date.now(),
        });
        await publish(store, `${scenario}'s verdict and figures`, series);
      }
    }
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await ctx.control?.close().catch(() => undefined);
    await ctx.receiver?.close().catch(() => undefined);
    await target.stop().catch(() => undefined);
  }

  const comparison = baseline ? compareDigests(digests, baseline.digests, args.tolerance) : undefined;
  const passed = runPassed(digests) && (comparison?.regressions ?? 0) === 0;
  writeLoadReport(reportDir, {
    runId: ctx.runId,
    startedAt,
    target: { base_url: target.baseUrl, embedded_reference: target.embeddedReference },
    mode,
    k6: { version: k6.version, path_source: k6.source },
    passed,
    digests,
    ...(comparison ? { baseline: { file: args.baseline!, comparison } } : {}),
  });
  logVerdicts(reportDir, digests, comparison);
  return loadExitCode(passed, digests);
}
