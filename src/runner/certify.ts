/**
 * One certification run (../shared/contracts/runner.md): settings, target, suites,
 * reports, clean-up; the exit code says pass (0), a must failed (1), no run (2),
 * clean-up incomplete (3), interrupted (130).
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import {
  accessSync,
  constants as fsConstants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { packagedBundle } from '../install/bundles.js';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import type { CheckSpec } from '../catalog/checks.js';
import { certificateLines, completeReport, prepareCertificate, sealReports, type Certificate } from './certificate.js';
import { loadSettings, SettingsError, type Settings } from '../config/settings.js';
import { coverageLine, shortfallLine } from '../report/coverage.js';
import { runVerdict, summarize, type CheckResult, type RunReport } from '../report/model.js';
import { writeReports } from '../report/write.js';
import { mask } from '../secrets/mask.js';
import type { RunContext } from '../suite/run-context.js';
import { createSelfSignedCertificate } from '../tls/self-signed.js';
import { removeLeftovers } from './cleanup.js';
import { PROBE_REQUEST_MS, probeReach } from './reach.js';
import { loadControlAdapter } from '../control/adapter.js';
import { ControlClient } from '../control/client.js';
import { controlText, networkText } from '../report/markdown.js';
import { CheckCollector } from './collector.js';
import { endChildren, watchChildren } from './children.js';
import { ProgressLine } from './progress.js';
import { CLOSE_LIMIT_MS, RUN_DEADLINE_MS, STOPPED_CLOSE_LIMIT_MS } from './deadline.js';
import {
  holdStopSignals,
  minutes,
  STOP_SIGNALS,
  suitesStopReason,
  watchStop,
  type HeldSignals,
  type StopReason,
} from './run-stop.js';
import { EXIT, HarnessError, RegistrationError, RunAbort } from '../errors.js';
import { namePatternFor, selectChecks, startOrder } from './selection.js';
import { resolveTarget, type ResolvedTarget } from './target.js';
import { sleep } from '../clock/wait.js';
import { pendingCreations, recordPendingCreation, recordResource } from '../run-state/created-resources.js';
import { PENDING_CREATIONS_LIMIT_MS, stopMarkerPath } from '../run-state/stop.js';
import { withTimeout } from '../async/with-timeout.js';
import { HARNESS_VERSION } from '../version.js';
import { writeLine } from '../text/console.js';
import { expectedFailureLines } from '../expected/mark.js';
import { withExpectedFailures, type ExpectedFailuresOfRun } from '../expected/run.js';
import { serviceExpectedFailures } from '../expected/commands.js';

const PROJECT_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface CertifyOptions {
  /** --allow-production: a production (svc_live_) target may be certified. */
  allowProduction?: boolean;
  env?: NodeJS.ProcessEnv;
  print?: (line: string) => void;
  /** Whole-run deadline for the checks (default RUN_DEADLINE_MS of the tier). */
  deadlineMs?: number;
  /** --rerun-failed: the report whose failed checks this run re-runs. */
  rerunFailed?: string;
}

export async function certify(options: CertifyOptions = {}): Promise<number> {
  const print = options.print ?? ((line: string) => writeLine(process.stdout, line));
  let settings: Settings;
  try {
    settings = loadSettings(options.env ?? process.env);
  } catch (error) {
    if (error instanceof SettingsError) return abort(error.message);
    throw error;
  }
  const allowProduction = options.allowProduction === true || settings.CERTIFY_ALLOW_PRODUCTION;
  let selected: CheckSpec[];
  let certificate: Certificate;
  let expected: ExpectedFailuresOfRun;
  try {
    selected = selectChecks(settings.CERTIFY_CHECKS);
    certificate = prepareCertificate(settings, selected, options.rerunFailed);
    expected = serviceExpectedFailures(settings);
  } catch (error) {
    return abort((error as Error).message);
  }

  const workDir = mkdtempSync(join(tmpdir(), 'certify-'));
  let target: ResolvedTarget | undefined;
  let releaseRunner = (): void => undefined;
  const held = holdStopSignals();
  watchChildren();
  try {
    target = await resolveTarget(settings, allowProduction);
    const receiverTls = target.receiver ?? (await receiverCertificate(settings, workDir));
    const idpTls = idpCertificate(settings);
    const run: RunContext = {
      baseUrl: target.baseUrl,
      controlUrl: target.controlUrl,
      controlToken: target.controlToken,
      ...(settings.CERTIFY_CONTROL_ADAPTER ? { controlAdapter: resolve(settings.CERTIFY_CONTROL_ADAPTER) } : {}),
      svcToken: target.svcToken,
      tier: settings.CERTIFY_TIER,
      embeddedReference: target.embeddedReference,
      receiver: target.receiver ?? {
        host: settings.RECEIVER_HOST,
        port: settings.RECEIVER_PORT,
        publicUrl: settings.RECEIVER_PUBLIC_URL,
        ...receiverTls,
      },
      idp: {
        host: settings.IDP_HOST ?? target.idp?.host ?? '127.0.0.1',
        port: settings.IDP_PORT,
        ...(settings.IDP_PUBLIC_URL
          ? { publicUrl: settings.IDP_PUBLIC_URL }
          : target.idp?.publicHost
            ? { publicHost: target.idp.publicHost }
            : {}),
        ...(idpTls ? { tls: idpTls } : {}),
      },
      createdResourcesPath: join(workDir, 'created-resources.jsonl'),
      network: target.network,
      seed: runSeed(options.env ?? process.env),
      ...(settings.CERTIFY_RATE_LIMIT ? { rateLimit: settings.CERTIFY_RATE_LIMIT } : {}),
      rotationDeployMs: settings.CERTIFY_ROTATION_DEPLOY_MS,
    };
    // The suites take the signals over once they run; before, an interrupted probe must still end in a report and a clean-up.
    const probe = await untilDoneOrSignalled(probeTargetReach(run), held.signalled);
    if ('value' in probe && probe.value) print(`reach probe: ${probe.value}; the checks will judge the target`);
    const control: NonNullable<RunReport['control']> = settings.CERTIFY_CONTROL_ADAPTER
      ? { kind: 'adapter', adapter: settings.CERTIFY_CONTROL_ADAPTER }
      : { kind: run.controlUrl ? 'interface' : 'none' };
    if (certificate.partial) print(certificate.partial);
    print(
      `certify: ${selected.length} checks against ${target.baseUrl}${target.embeddedReference ? ' (embedded reference)' : ''}, tier ${run.tier}, control: ${controlText(control)}, seed ${run.seed}`,
    );
    const startedAt = new Date();
    const deadlineMs = options.deadlineMs ?? RUN_DEADLINE_MS[run.tier];
    // An interrupted probe may still be creating on the target: wait for those, as a stopped suite does.
    if ('signal' in probe) await creationsSettled(run.createdResourcesPath, PENDING_CREATIONS_LIMIT_MS);
    const { collector, stopped, release } =
      'signal' in probe
        ? { collector: new CheckCollector(print), stopped: 'interrupted' as const, release: () => undefined }
        : await runSuites(run, selected, print, deadlineMs, held, settings.CERTIFY_CONCURRENCY);
    releaseRunner = release;
    const interrupted = stopped === 'interrupted';
    const finishedAt = new Date();
    const cleanup = await removeLeftovers(run.createdResourcesPath, run.controlUrl, run.controlToken, run.network);
    if (cleanup.removed + cleanup.failed > 0)
      print(`clean-up: removed ${cleanup.removed} leftover resources, ${cleanup.failed} could not be removed`);
    if (cleanup.leftovers.length > 0) {
      print(`clean-up incomplete: ${cleanup.leftovers.length} resources left on the target; each is removed by:`);
      for (const leftover of cleanup.leftovers) print(`  ${leftover.remove_with}`);
    }

    const report: RunReport = withExpectedFailures(
      {
        harness_version: HARNESS_VERSION,
        target: { base_url: target.baseUrl, embedded_reference: target.embeddedReference },
        started_at: startedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        finished_at: finishedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        summary: { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 },
        checks: resultsFor(selected, collector, stopped, deadlineMs),
        tier: run.tier,
        seed: run.seed,
        network: collector.network,
        control,
        ...(interrupted ? { interrupted: true } : {}),
        ...(cleanup.leftovers.length > 0 ? { leftovers: cleanup.leftovers } : {}),
      },
      expected,
    );
    report.summary = summarize(report.checks);
    completeReport(report, certificate, selected, settings, target.image);
    const files = writeReports(report, resolve(settings.CERTIFY_REPORT_DIR));
    const sealed = sealReports(report, files, resolve(settings.CERTIFY_REPORT_DIR), certificate);
    printSummary(report, print, certificateLines(report, certificate));
    print(`reports: ${[...files, ...sealed].join(', ')}`);
    if (report.coverage && !report.coverage.met)
      writeLine(process.stderr, `certify: ${shortfallLine(report.coverage)}`);
    const verdict = runVerdict(report);
    if (verdict === 'ERROR') writeLine(process.stderr, `certify: ${erredLine(report)}`);
    return {
      INTERRUPTED: EXIT.interrupted,
      FAILED: EXIT.mustFailed,
      ERROR: EXIT.noRun,
      'CLEAN-UP-INCOMPLETE': EXIT.cleanupIncomplete,
      PASSED: EXIT.passed,
    }[verdict];
  } catch (error) {
    if (error instanceof HarnessError) return abort(error.message);
    return abort(`run failed: ${(error as Error).message}`);
  } finally {
    await target?.stop().catch(() => undefined);
    // The suites' worker and whatever else the run started end before the run does.
    await endChildren();
    rmSync(workDir, { recursive: true, force: true });
    releaseRunner();
    held.release();
  }
}

/** Refuses (RunAbort) a target that cannot reach the receiver or the identity provider; needs a control interface to set them up. */
async function probeTargetReach(run: RunContext): Promise<string | undefined> {
  if (run.controlAdapter) {
    // Loaded here first, so that a broken adapter stops the run at once (exit 2).
    const adapter = await loadControlAdapter(run.controlAdapter, importWithTsx);
    try {
      return await probeReach(run, adapter);
    } finally {
      await adapter.close();
    }
  }
  if (!run.controlUrl || !run.controlToken) return undefined;
  // What the probe creates is recorded: an interrupted probe is cleaned up like a check.
  const control = new ControlClient(run.controlUrl, run.controlToken, {
    timeoutMs: PROBE_REQUEST_MS,
    network: run.network,
    onCreated: (resource) => recordResource(run.createdResourcesPath, 'created', resource),
    onRemoved: (resource) => recordResource(run.createdResourcesPath, 'removed', resource),
    onCreating: () => recordPendingCreation(run.createdResourcesPath),
  });
  try {
    return await probeReach(run, control);
  } finally {
    await control.close();
  }
}

/** The runner may run from its bundle (src/cli/bundle.ts), with no TypeScript loader: tsx loads the adapter and what it imports. */
async function importWithTsx(url: string): Promise<unknown> {
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(url, import.meta.url);
}

/**
 * FAST_CHECK_SEED, or a seed drawn for the run: one seed for every generated check, so that
 * the one value in report.json re-runs any of them (`--seed`).
 */
function runSeed(env: NodeJS.ProcessEnv): number {
  const given = env.FAST_CHECK_SEED;
  if (given === undefined || given === '') return Date.now() % 2 ** 31;
  if (!/^\d+$/.test(given) || Number(given) >= 2 ** 31)
    throw new RunAbort(`FAST_CHECK_SEED must be a whole number below 2^31, got ${JSON.stringify(given)}`);
  return Number(given);
}

function abort(reason: string): number {
  writeLine(process.stderr, `certify: ${reason}`);
  return EXIT.noRun;
}

async function receiverCertificate(
  settings: Settings,
  workDir: string,
): Promise<{ certPath: string; keyPath: string }> {
  if (settings.RECEIVER_TLS_CERT && settings.RECEIVER_TLS_KEY) {
    // Checked here, not first in the receiver: a bad file must stop the run with its setting's name.
    usablePem('RECEIVER_TLS_CERT', settings.RECEIVER_TLS_CERT, (pem) => new X509Certificate(pem));
    usablePem('RECEIVER_TLS_KEY', settings.RECEIVER_TLS_KEY, (pem) => createPrivateKey(pem));
    return { certPath: settings.RECEIVER_TLS_CERT, keyPath: settings.RECEIVER_TLS_KEY };
  }
  const hosts = ['127.0.0.1', 'localhost'];
  if (settings.RECEIVER_HOST) hosts.push(settings.RECEIVER_HOST);
  if (settings.RECEIVER_PUBLIC_URL) hosts.push(new URL(settings.RECEIVER_PUBLIC_URL).hostname);
  const { certPath, keyPath } = await createSelfSignedCertificate({ hosts, dir: workDir });
  return { certPath, keyPath };
}

/** IDP_TLS_CERT/KEY, checked like the receiver's; without them the identity provider serves plain HTTP. */
function idpCertificate(settings: Settings): { certPath: string; keyPath: string } | undefined {
  if (!settings.IDP_TLS_CERT || !settings.IDP_TLS_KEY) return undefined;
  usablePem('IDP_TLS_CERT', settings.IDP_TLS_CERT, (pem) => new X509Certificate(pem));
  usablePem('IDP_TLS_KEY', settings.IDP_TLS_KEY, (pem) => createPrivateKey(pem));
  return { certPath: settings.IDP_TLS_CERT, keyPath: settings.IDP_TLS_KEY };
}

function usablePem(setting: string, path: string, parse: (pem: Buffer) => unknown): void {
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (error) {
    throw new RunAbort(
      `${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a readable PEM file`,
    );
  }
  try {
    parse(pem);
  } catch {
    throw new RunAbort(
      `${setting}: ${path} is not a usable PEM ${setting.endsWith('KEY') ? 'private key' : 'certificate'}; give a PEM file`,
    );
  }
}

async function runSuites(
  run: RunContext,
  selected: CheckSpec[],
  print: (line: string) => void,
  deadlineMs: number,
  held: HeldSignals,
  concurrency: number,
) {
  const progress = new ProgressLine(process.stdout, selected.length);
  const collector = new CheckCollector(print, progress);
  const areas = startOrder([...new Set(selected.map((check) => check.area))]);
  const missing = areas
    .map((area) => `suites/${area}.suite.ts`)
    .filter((file) => !existsSync(join(PROJECT_ROOT, file)));
  // A catalog area without its suite would turn every check of it into a silent skip.
  if (missing.length > 0)
    throw new RegistrationError(
      `no suite for ${missing.join(', ')}: the catalog names areas that no suite file declares`,
    );
  if (areas.length === 0) return { collector, stopped: undefined, release: () => undefined };
  const rejectionsBefore = new Set(process.listeners('unhandledRejection'));
  // vitest's logger exits the process on SIGINT/SIGTERM; the runner must first remove what
  // the run created and write a partial report, so it takes those signals over. Each of
  // vitest's signal listeners is removed in the microtask after it is added: no signal
  // event can reach it in between (a signal held meanwhile is acted on below).
  const dropSignalListener = (event: string | symbol, listener: (...args: unknown[]) => void) => {
    if ((STOP_SIGNALS as readonly (string | symbol)[]).includes(event))
      queueMicrotask(() => process.off(event as NodeJS.Signals, listener));
  };
  process.on('newListener', dropSignalListener);
  const vitest = await createVitest('test', {
    root: PROJECT_ROOT,
    config: false,
    // One file imports every selected suite, so that they all run side by side (suites/selected.ts).
    include: ['suites/selected.ts'],
    watch: false,
    reporters: [collector],
    provide: { certify: run, suites: areas },
    // One forked worker for that one file: one receiver, one identity provider and one record
    // of created resources for the whole run (vitest 3's poolOptions.forks.singleFork; vitest 4 spells it
    // maxWorkers: 1 with isolate: false).
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    maxConcurrency: concurrency,
    testNamePattern: namePatternFor(selected),
    hookTimeout: 60_000,
    teardownTimeout: 15_000,
    passWithNoTests: true,
    // Its results cache orders files by their last duration: a run has one file, and an
    // installed harness writes nothing into its own folder.
    cache: false,
    experimental: transformCache(),
  }).finally(() => process.off('newListener', dropSignalListener));
  // Its unhandled-rejection handler exits the process too (e.g. when a Ctrl-C has already
  // ended the worker): such an error is reported, and the run still cleans up and reports.
  for (const listener of process.listeners('unhandledRejection'))
    if (!rejectionsBefore.has(listener)) process.off('unhandledRejection', listener);
  // A stop (signal, deadline or crash: src/runner/run-stop.ts) cancels the run; checks still
  // running after a short grace are stopped by closing the runner, and what they created is
  // removed (src/run-state/created-resources.ts).
  const stop = watchStop({
    deadlineMs,
    onSignal: (signal) => print(`${signal} received`),
    onStop: (reason, crash) => {
      if (crash) collector.suiteErrors.push(mask(crash));
      collector.stop();
      writeFileSync(stopMarkerPath(run.createdResourcesPath), reason);
      const why =
        reason === 'deadline'
          ? `the run's deadline of ${minutes(deadlineMs)} passed`
          : reason === 'crashed'
            ? collector.suiteErrors.at(-1)
            : 'interrupted';
      print(`${why}: stopping the checks, then removing what the run created`);
      void vitest.cancelCurrentRun('keyboard-input').catch(() => undefined);
    },
  });
  // A signal held while vitest was being set up stops the run before it starts.
  if (held.received) stop.signal(held.received);
  try {
    if (!stop.reason) {
      const started = vitest.start();
      started.catch(() => undefined);
      await Promise.race([started, stop.forced]);
    }
  } catch (error) {
    if (!stop.reason) throw error;
  } finally {
    stop.clear();
    progress.stop();
    if (stop.reason) await creationsSettled(run.createdResourcesPath, PENDING_CREATIONS_LIMIT_MS);
    await withTimeout(
      vitest.close().catch(() => undefined),
      stop.reason ? STOPPED_CLOSE_LIMIT_MS : CLOSE_LIMIT_MS,
      undefined,
    );
  }
  // Errors are watched until the run ends: after a stop, vitest may still post to a worker that is gone.
  return { collector, stopped: suitesStopReason(stop.reason, held), release: () => stop.release() };
}

/**
 * Where vitest keeps the suites' transformed modules on disk between runs (its content-hashed
 * cache), so that a run starts sooner. A clone keeps them under its node_modules; an installed
 * package never writes into its own folder, and keeps them in the user's cache folder. Where
 * that folder cannot be written (the image runs as nobody), a run goes without.
 */
function transformCache(): { fsModuleCache: boolean; fsModuleCachePath?: string } {
  const installed = packagedBundle(PROJECT_ROOT) !== undefined;
  const home = process.env.HOME;
  const userCache = process.env.XDG_CACHE_HOME || (home ? join(home, '.cache') : undefined);
  const path = installed
    ? userCache
      ? join(userCache, 'svc-harness', 'vitest')
      : undefined
    : join(PROJECT_ROOT, 'node_modules', '.experimental-vitest-cache');
  if (!path) return { fsModuleCache: false };
  try {
    mkdirSync(path, { recursive: true });
    accessSync(path, fsConstants.W_OK);
    return { fsModuleCache: true, fsModuleCachePath: path };
  } catch {
    return { fsModuleCache: false };
  }
}

/** Waits (polling the record of created resources) until no creating request of the worker is under way, or `limitMs` passed. */
async function creationsSettled(createdResourcesPath: string, limitMs: number): Promise<void> {
  const until = performance.now() + limitMs;
  while (pendingCreations(createdResourcesPath) > 0 && performance.now() < until) await sleep(50);
}

/**
 * Awaits `work`, or `signal`, whichever comes first. Abandoned work winds down on its own
 * time-outs; what it creates is recorded, and the clean-up waits on it.
 */
async function untilDoneOrSignalled<T>(
  work: Promise<T>,
  signal: Promise<NodeJS.Signals>,
): Promise<{ value: T } | { signal: NodeJS.Signals }> {
  try {
    return await Promise.race([work.then((value) => ({ value })), signal.then((received) => ({ signal: received }))]);
  } finally {
    work.catch(() => undefined);
  }
}

function resultsFor(
  selected: CheckSpec[],
  collector: CheckCollector,
  stopped: StopReason | undefined,
  deadlineMs: number,
): CheckResult[] {
  const suiteError = collector.suiteErrors[0];
  const interrupted = stopped === 'interrupted';
  return selected.map((spec) => {
    const result = collector.results.get(spec.id);
    if (result) return result;
    // A check that never ran never counts as passed.
    const reason = interrupted
      ? 'not run: the run was interrupted'
      : stopped === 'deadline'
        ? `not run or not finished: the run's deadline of ${minutes(deadlineMs)} passed`
        : suiteError
          ? `not run: ${suiteError}`
          : 'not implemented in this harness version';
    const verdict = (stopped === 'deadline' || suiteError) && !interrupted && spec.level === 'must' ? 'fail' : 'skip';
    // (a crash puts its reason first in suiteErrors, so it reads "not run: <reason>")
    return {
      id: spec.id,
      title: spec.title,
      clause: spec.clause,
      level: spec.level,
      verdict,
      duration_ms: 0,
      detail: reason,
      area: spec.area,
    };
  });
}

/** The one-line reason on stderr of a run that ends without a verdict (exit 2). */
function erredLine(report: RunReport): string {
  const erred = report.checks
    .filter((check) => check.level === 'must' && check.verdict === 'error')
    .map((check) => check.id);
  return `no verdict for ${erred.length} must check${erred.length === 1 ? '' : 's'} (${erred.join(', ')}): the network kept their answers away; see report.json`;
}

/** What rate limits and lost connections cost the run, when they cost anything. */
function networkLine(network: NonNullable<RunReport['network']>): string | undefined {
  if (network.rate_limited + network.resent + network.unanswered === 0) return undefined;
  return `network: ${networkText(network)}`;
}

function printSummary(report: RunReport, print: (line: string) => void, aboutRun: readonly string[]): void {
  const { summary } = report;
  const verdict = runVerdict(report);
  const byArea = new Map<string, Record<string, number>>();
  for (const check of report.checks) {
    const counts = byArea.get(check.area) ?? {};
    counts[check.verdict] = (counts[check.verdict] ?? 0) + 1;
    byArea.set(check.area, counts);
  }
  print('');
  const columns = ['pass', 'fail', 'warn', 'skip', 'error'] as const;
  const row = (name: string, counts: Partial<Record<string, number>>) =>
    `${name.padEnd(24)} ${columns.map((column) => String(counts[column] ?? 0).padStart(column.length)).join(' ')}`;
  print(`${'suite'.padEnd(24)} ${columns.join(' ')}`);
  for (const [area, counts] of byArea) print(row(area, counts));
  print(row('total', summary));
  for (const line of aboutRun) print(line);
  if (report.coverage) print(`coverage: ${coverageLine(report.coverage)}`);
  const network = report.network && networkLine(report.network);
  if (network) print(network);
  for (const line of expectedFailureLines(report)) print(line);
  print(`verdict: ${verdict}`);
}
