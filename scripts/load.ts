/**
 * `svc-harness load` (src/cli/commands/load.ts holds its options and help).
 *
 * Finds (or builds) k6, bundles load/scenarios, resolves the target from the same settings
 * as certify (SVC_*, RECEIVER_*; unset SVC_BASE_URL starts the reference on loopback),
 * prepares each scenario through the control interface (workspace, tokens, webhook
 * endpoints on a capturing receiver), runs k6 once per scenario and writes
 * reports/load/: <scenario>.summary.json (k6's summary), summary.json and report.html.
 * Exit 0 when every threshold held and no figure regressed past the baseline, 1 when not,
 * 2 when the run could not happen (settings, k6 missing, target unreachable, refusal).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { loadSettings, readSettingSources, SettingsError, type Settings } from '../src/config/settings.js';
import { ControlClient } from '../src/control/client.js';
import { CapturingReceiver, type ReceiverEndpoint } from '../src/receiver/index.js';
import { resolveTarget, type ResolvedTarget } from '../src/runner/target.js';
import { RunAbort } from '../src/errors.js';
import { mask, maskDeep, registerSecret } from '../src/secrets/mask.js';
import { baselineDigests, compareDigests } from './k6/baseline.js';
import { k6Binary, k6Env, REPO_ROOT, type FoundK6 } from './k6/binary.js';
import { digestSummary, failedDigest, runPassed, skippedDigest, type K6Summary, type ScenarioDigest } from './k6/digest.js';
import { startFanoutMonitor, type RunningMonitor } from './k6/fanout-monitor.js';
import { renderHtml, type LoadReport } from './k6/html.js';
import { buildLoadScripts, scenarioNames } from './load-build.js';
import { UsageError, type ParsedArgs } from '../src/cli/command.js';

const HARNESS_VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** The spec's limit of active webhook endpoints per workspace. */
const MAX_ENDPOINTS = 25;
/** Time scale of the fan-out workspace (capped by the target's max_time_scale). */
const FANOUT_TIME_SCALE = 60;

/** LOAD_ settings a user may give (environment or .env); others are refused, like SVC_ typos. */
export const LOAD_SETTINGS = [
  'LOAD_RATE', 'LOAD_DURATION', 'LOAD_MAX_VUS', 'LOAD_P95_MS', 'LOAD_P99_MS', 'LOAD_MAX_ERROR_RATE',
  'LOAD_ABORT_ON_FAIL', 'LOAD_DRAIN_S', 'LOAD_ENDPOINTS', 'LOAD_K6_BINARY', 'LOAD_REPORT_DIR',
  'LOAD_ALLOW_PRODUCTION', 'LOAD_TOKEN', 'LOAD_AGENT_ID', 'LOAD_INSTANCES',
] as const;
/** Set by this script for k6 only. */
const LOAD_INTERNAL = ['LOAD_OLD_TOKEN', 'LOAD_OLD_TOKEN_ID', 'LOAD_NEW_TOKEN', 'LOAD_WORKSPACE_ID', 'LOAD_MONITOR_URL', 'LOAD_SUMMARY_PATH', 'LOAD_RUN_ID', 'LOAD_ENVIRONMENT'];

/** Per-scenario shape: rate (calls/s) and measured duration, smoke and default. */
const PROFILES: Record<string, { smoke: Record<string, string>; default: Record<string, string> }> = {
  calls: { smoke: { LOAD_RATE: '20', LOAD_DURATION: '5s' }, default: { LOAD_RATE: '50', LOAD_DURATION: '20s' } },
  'calls-ramp': { smoke: { LOAD_RATE: '20', LOAD_DURATION: '6s' }, default: { LOAD_RATE: '50', LOAD_DURATION: '24s' } },
  rotation: { smoke: { LOAD_RATE: '10', LOAD_DURATION: '8s' }, default: { LOAD_RATE: '20', LOAD_DURATION: '16s' } },
  fanout: { smoke: { LOAD_RATE: '4', LOAD_DURATION: '5s', LOAD_DRAIN_S: '15' }, default: { LOAD_RATE: '6', LOAD_DURATION: '15s', LOAD_DRAIN_S: '30' } },
};

export interface LoadArgs {
  scenarios: string[];
  smoke: boolean;
  baseline?: string;
  tolerance: number;
  reportDir?: string;
  allowProduction: boolean;
  build: boolean;
}

/** The load command's parsed command line (src/cli/commands/load.ts) as LoadArgs; scenario names checked. */
export function toLoadArgs({ values, positionals }: ParsedArgs, known: readonly string[]): LoadArgs {
  const args: LoadArgs = {
    scenarios: [],
    smoke: values.smoke === true,
    tolerance: 0.1,
    allowProduction: values['allow-production'] === true,
    build: values['no-build'] !== true,
    ...(typeof values.baseline === 'string' ? { baseline: values.baseline } : {}),
    ...(typeof values['report-dir'] === 'string' ? { reportDir: values['report-dir'] } : {}),
  };
  if (typeof values.tolerance === 'string') {
    const pct = Number(values.tolerance);
    if (values.tolerance.trim() === '' || !Number.isFinite(pct) || pct < 0) throw new UsageError('--tolerance takes a percentage, e.g. 10');
    args.tolerance = pct / 100;
  }
  for (const name of positionals) {
    if (name === 'all') args.scenarios.push(...known);
    else if (known.includes(name)) args.scenarios.push(name);
    else throw new UsageError(`unknown scenario ${name} (known: ${known.join(', ')})`);
  }
  if (args.scenarios.length === 0) args.scenarios = [...known];
  args.scenarios = [...new Set(args.scenarios)];
  return args;
}

/** Reads LOAD_ settings (environment over .env) and refuses unknown LOAD_ names. */
export function loadSettingsOf(sources: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(sources)) {
    if (!name.startsWith('LOAD_') || value === '') continue;
    if (!(LOAD_SETTINGS as readonly string[]).includes(name)) {
      if (LOAD_INTERNAL.includes(name)) throw new SettingsError(`${name} is set by npm run load itself; remove it`);
      throw new SettingsError(`unknown setting ${name} (known: ${LOAD_SETTINGS.join(', ')})`);
    }
    out[name] = value;
  }
  return out;
}

const log = (line: string): void => {
  process.stderr.write(`${mask(line)}\n`);
};

/** Everything one scenario needs before k6 starts, and how to undo it. */
interface Prepared {
  env: Record<string, string>;
  cleanup: () => Promise<void>;
  skip?: string;
}

interface RunContext {
  target: ResolvedTarget;
  settings: Settings;
  loadEnv: Record<string, string>;
  control?: ControlClient;
  runId: string;
  receiver?: CapturingReceiver;
}

async function prepareWorkspace(ctx: RunContext, label: string, tokens: number, timeScale = 1): Promise<{ ws: string; agentId: string; tokens: { id: string; token: string }[]; cleanup: () => Promise<void> }> {
  const control = ctx.control!;
  const { workspaceId, agentIds } = await control.createWorkspace({ callProgress: 'auto', ...(timeScale > 1 ? { timeScale } : {}) });
  const made: { id: string; token: string }[] = [];
  const cleanup = async (): Promise<void> => {
    for (const t of made) await control.revokeToken(workspaceId, t.id).catch(() => undefined);
    await control.deleteWorkspace(workspaceId).catch((error: Error) => log(`  clean-up of ${workspaceId}: ${error.message}`));
  };
  try {
    for (let i = 0; i < tokens; i++) {
      const created = await control.createToken(workspaceId, `load-${label}-${ctx.runId}-${i}`, ['voice:read', 'voice:write']);
      made.push({ id: created.tokenId, token: created.token });
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  const agentId = agentIds[0];
  if (!agentId) {
    await cleanup();
    throw new RunAbort(`POST /workspaces answered without an agt_ id`);
  }
  return { ws: workspaceId, agentId, tokens: made, cleanup };
}

async function prepare(scenario: string, ctx: RunContext): Promise<Prepared> {
  const none = async (): Promise<void> => undefined;
  const needsControl = `needs the control interface (SVC_CONTROL_URL, SVC_CONTROL_TOKEN)`;
  switch (scenario) {
    case 'calls':
    case 'calls-ramp': {
      if (ctx.loadEnv.LOAD_TOKEN || !ctx.control) {
        const token = ctx.loadEnv.LOAD_TOKEN ?? ctx.target.svcToken;
        if (!token) return { env: {}, cleanup: none, skip: `no token: set SVC_TOKEN (or LOAD_TOKEN), or give a control interface` };
        return { env: { LOAD_TOKEN: token }, cleanup: none };
      }
      const w = await prepareWorkspace(ctx, scenario, 1);
      return { env: { LOAD_TOKEN: w.tokens[0]!.token, LOAD_AGENT_ID: w.agentId, LOAD_WORKSPACE_ID: w.ws }, cleanup: w.cleanup };
    }
    case 'rotation': {
      if (!ctx.control) return { env: {}, cleanup: none, skip: `rotation ${needsControl} to create and revoke tokens` };
      const w = await prepareWorkspace(ctx, scenario, 2);
      return {
        env: {
          LOAD_OLD_TOKEN: w.tokens[0]!.token,
          LOAD_OLD_TOKEN_ID: w.tokens[0]!.id,
          LOAD_NEW_TOKEN: w.tokens[1]!.token,
          LOAD_AGENT_ID: w.agentId,
          LOAD_WORKSPACE_ID: w.ws,
          SVC_CONTROL_URL: ctx.target.controlUrl!,
          SVC_CONTROL_TOKEN: ctx.target.controlToken!,
        },
        cleanup: w.cleanup,
      };
    }
    case 'fanout': {
      if (!ctx.control) return { env: {}, cleanup: none, skip: `fanout ${needsControl} to register webhook endpoints` };
      const count = Math.min(MAX_ENDPOINTS, Math.max(1, Number(ctx.loadEnv.LOAD_ENDPOINTS ?? MAX_ENDPOINTS)));
      ctx.receiver ??= await startReceiver(ctx.settings, ctx.target.receiver);
      // Retries run faster (1 min -> 1 s at scale 60) so that a delivery whose first attempt
      // failed under load can still arrive within the drain window; it then counts as a
      // duplicate-free late arrival, and the receiver's client_closed count shows the failures.
      const capabilities = await ctx.control.capabilities();
      const timeScale = Math.max(1, Math.min(FANOUT_TIME_SCALE, Number(capabilities.max_time_scale) || 1));
      const w = await prepareWorkspace(ctx, scenario, 1, timeScale);
      const endpoints: ReceiverEndpoint[] = [];
      let monitor: RunningMonitor | undefined;
      const cleanup = async (): Promise<void> => {
        await monitor?.close();
        await w.cleanup();
      };
      try {
        for (let i = 0; i < count; i++) {
          const endpoint = ctx.receiver.createEndpoint({ name: `load-${ctx.runId}-${scenario}-${i}` });
          const created = await ctx.control.createEndpoint(w.ws, endpoint.url, ['*']);
          endpoint.setSecret(created.secret);
          endpoints.push(endpoint);
        }
        const receiver = ctx.receiver;
        monitor = await startFanoutMonitor(endpoints, () => receiver.stats());
      } catch (error) {
        await cleanup();
        throw error;
      }
      log(`  fanout: ${count} endpoints on the receiver at ${ctx.receiver.publicUrl}; monitor ${monitor.url}`);
      return {
        env: { LOAD_TOKEN: w.tokens[0]!.token, LOAD_AGENT_ID: w.agentId, LOAD_WORKSPACE_ID: w.ws, LOAD_MONITOR_URL: monitor.url, LOAD_ENDPOINTS: String(count) },
        cleanup,
      };
    }
    default:
      return { env: {}, cleanup: none, skip: `no preparation known for ${scenario}` };
  }
}

/**
 * The capturing receiver, where the settings put it, or where the target needs it: a
 * container (SVC_IMAGE) reaches it at the engine's gateway with the certificate it was given.
 */
async function startReceiver(settings: Settings, placement: ResolvedTarget['receiver']): Promise<CapturingReceiver> {
  const certPath = placement?.certPath ?? settings.RECEIVER_TLS_CERT;
  const keyPath = placement?.keyPath ?? settings.RECEIVER_TLS_KEY;
  const tls = certPath && keyPath ? { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') } : undefined;
  const publicUrl = placement?.publicUrl ?? settings.RECEIVER_PUBLIC_URL;
  return CapturingReceiver.start({
    port: placement?.port ?? settings.RECEIVER_PORT,
    ...(placement ? { host: placement.host } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    ...(tls ? { tls } : {}),
    // The monitor listens to every delivery; the receiver need not keep many bodies.
    maxDeliveriesPerEndpoint: 100,
    requestTimeoutMs: 30_000,
  });
}

/** The longest a scenario's k6 process may run: its phases, drain, setup and a margin. */
function k6TimeLimitMs(env: Record<string, string>): number {
  const duration = parseDurationSeconds(env.LOAD_DURATION ?? '30s');
  const drain = Number(env.LOAD_DRAIN_S ?? 0);
  // rotation's revocation may poll up to 60 s past its start.
  return (duration + drain + 60 + 90) * 1000;
}

export function parseDurationSeconds(text: string): number {
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  let total = 0;
  const parts = text.match(/(\d+(?:\.\d+)?)(ms|s|m|h)/g);
  if (!parts || parts.join('') !== text) throw new SettingsError(`LOAD_DURATION: not a duration: ${text} (use e.g. 20s, 1m30s)`);
  for (const part of parts) {
    const [, amount, unit] = /(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(part)!;
    total += Number(amount) * ({ ms: 0.001, s: 1, m: 60, h: 3600 } as Record<string, number>)[unit!]!;
  }
  return total;
}

let activeChild: ChildProcess | undefined;

function runK6(k6: FoundK6, bundle: string, env: NodeJS.ProcessEnv, scenario: string, timeLimitMs: number): Promise<number | null> {
  return new Promise((resolvePromise) => {
    const child = spawn(k6.path, ['run', '--no-usage-report', '--quiet', '--no-color', bundle], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    activeChild = child;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${scenario}] ${mask(line)}\n`));
    }
    let killer: NodeJS.Timeout | undefined;
    const limit = setTimeout(() => {
      log(`[${scenario}] k6 still running after ${Math.round(timeLimitMs / 1000)} s; stopping it`);
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    }, timeLimitMs);
    child.on('error', (error) => log(`[${scenario}] k6 did not start: ${error.message}`));
    child.on('close', (code) => {
      clearTimeout(limit);
      if (killer) clearTimeout(killer);
      activeChild = undefined;
      resolvePromise(code);
    });
  });
}

async function runScenario(scenario: string, ctx: RunContext, k6: FoundK6, bundle: string, reportDir: string, smoke: boolean): Promise<ScenarioDigest> {
  log(`\n== ${scenario}`);
  let prepared: Prepared;
  try {
    prepared = await prepare(scenario, ctx);
  } catch (error) {
    log(`  preparation failed: ${(error as Error).message}`);
    return failedDigest(scenario, `preparation failed: ${mask((error as Error).message)}`);
  }
  if (prepared.skip) {
    log(`  skipped: ${prepared.skip}`);
    return skippedDigest(scenario, prepared.skip);
  }
  Object.values(prepared.env).forEach((value) => registerSecret(value.startsWith('svc_') || value.startsWith('ctl_') ? value : undefined));
  const summaryPath = resolve(reportDir, `${scenario}.summary.json`);
  const profile = PROFILES[scenario]?.[smoke ? 'smoke' : 'default'] ?? {};
  const env: Record<string, string> = {
    ...profile,
    ...ctx.loadEnv,
    ...prepared.env,
    SVC_BASE_URL: ctx.target.baseUrl,
    LOAD_SUMMARY_PATH: summaryPath,
    LOAD_RUN_ID: ctx.runId,
    ...(ctx.target.environment ? { LOAD_ENVIRONMENT: ctx.target.environment } : {}),
  };
  try {
    const started = Date.now();
    const code = await runK6(k6, bundle, k6Env(env), scenario, k6TimeLimitMs(env));
    if (!existsSync(summaryPath)) return failedDigest(scenario, `k6 exited ${code} without a summary`, code);
    const summary = maskDeep(JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary);
    writeFileSync(summaryPath, JSON.stringify(summary, null, 2));
    const digest = digestSummary(summary, code, scenario);
    log(`  ${scenario}: ${digest.passed ? 'passed' : 'FAILED'} (k6 exit ${code}, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return digest;
  } finally {
    await prepared.cleanup().catch((error: Error) => log(`  clean-up: ${error.message}`));
  }
}

/** `svc-harness load`: returns the exit code; throws RunAbort, SettingsError or K6NotFound when the run cannot happen. */
export async function runLoad(parsed: ParsedArgs): Promise<number> {
  const args = toLoadArgs(parsed, scenarioNames());
  const settings = loadSettings();
  const loadEnv = loadSettingsOf(readSettingSources());
  registerSecret(loadEnv.LOAD_TOKEN);
  registerSecret(settings.SVC_TOKEN);
  const allowProduction = args.allowProduction || loadEnv.LOAD_ALLOW_PRODUCTION === 'true' || settings.CERTIFY_ALLOW_PRODUCTION;
  for (const [name, token] of [['SVC_TOKEN', settings.SVC_TOKEN], ['LOAD_TOKEN', loadEnv.LOAD_TOKEN]] as const) {
    if (token?.startsWith('svc_live_') && !allowProduction) {
      throw new RunAbort(`${name} is a production (svc_live_) token; load staging, or pass --allow-production`);
    }
  }
  if (allowProduction) loadEnv.LOAD_ALLOW_PRODUCTION = 'true';
  const reportDir = resolve(args.reportDir ?? loadEnv.LOAD_REPORT_DIR ?? 'reports/load');
  const baselineJson = args.baseline ? (JSON.parse(readFileSync(args.baseline, 'utf8')) as { mode?: unknown }) : undefined;
  const baseline = baselineJson ? baselineDigests(baselineJson) : undefined;
  const mode = args.smoke ? 'smoke' : 'default';
  if (baselineJson?.mode !== undefined && baselineJson.mode !== mode) {
    log(`warning: the baseline is a ${String(baselineJson.mode)} run and this one a ${mode} run; rates and latencies are not comparable`);
  }

  const k6 = await k6Binary({ build: args.build, log });
  log(`k6 ${k6.version} (${k6.source}): ${k6.path}`);
  const bundles = await buildLoadScripts();
  mkdirSync(reportDir, { recursive: true });

  const startedAt = new Date();
  const target = await resolveTarget(settings, allowProduction);
  log(`target ${target.baseUrl}${target.embeddedReference ? ' (embedded reference)' : ''}`);
  const ctx: RunContext = {
    target,
    settings,
    loadEnv,
    runId: randomBytes(4).toString('hex'),
    ...(target.controlUrl && target.controlToken ? { control: new ControlClient(target.controlUrl, target.controlToken, { timeoutMs: 15_000 }) } : {}),
  };
  const interrupted = (): void => {
    log('interrupted: stopping k6 and cleaning up');
    activeChild?.kill('SIGTERM');
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const digests: ScenarioDigest[] = [];
  try {
    for (const scenario of args.scenarios) {
      digests.push(await runScenario(scenario, ctx, k6, bundles[scenario]!, reportDir, args.smoke));
    }
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await ctx.control?.close().catch(() => undefined);
    await ctx.receiver?.close().catch(() => undefined);
    await target.stop().catch(() => undefined);
  }

  const comparison = baseline ? compareDigests(digests, baseline, args.tolerance) : undefined;
  const passed = runPassed(digests) && (comparison?.regressions ?? 0) === 0;
  const report: LoadReport = maskDeep({
    harness_version: HARNESS_VERSION,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    target: { base_url: target.baseUrl, embedded_reference: target.embeddedReference },
    mode,
    k6: { version: k6.version, path_source: k6.source },
    passed,
    scenarios: digests,
    ...(comparison ? { baseline: { file: args.baseline!, comparison } } : {}),
  });
  writeFileSync(join(reportDir, 'summary.json'), JSON.stringify(report, null, 2));
  writeFileSync(join(reportDir, 'report.html'), renderHtml(report));

  log('');
  for (const d of digests) log(`${d.passed ? 'passed ' : d.skipped ? 'skipped' : 'FAILED '} ${d.scenario}${d.skipped ?? d.error ? `: ${d.skipped ?? d.error}` : ''}`);
  if (comparison) {
    for (const row of comparison.rows.filter((r) => r.regression)) {
      log(`REGRESSION ${row.scenario} ${row.figure}: ${row.baseline.toFixed(2)} -> ${row.current.toFixed(2)}`);
    }
    log(`baseline: ${comparison.regressions} regression(s) beyond ${(comparison.tolerance * 100).toFixed(0)} % in ${comparison.rows.length} figures`);
  }
  log(`reports: ${join(reportDir, 'summary.json')}, ${join(reportDir, 'report.html')}`);
  return passed ? 0 : 1;
}
