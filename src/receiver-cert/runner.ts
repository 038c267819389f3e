/**
 * `npm run certify:receiver`: the harness plays the service against a team's webhook
 * receiver. Settings, a preflight delivery, every check of the catalog in order (each
 * with a time-out; a crash or a time-out becomes a verdict and the run goes on), then the
 * same four reports as `npm run certify`. Exit 0 when no `must` check failed, 1 when one
 * did, 2 when the run could not happen (bad settings, receiver unreachable).
 */
import { resolve } from 'node:path';
import { runVerdict, summarize, type CheckResult, type RunReport } from '../report/model.js';
import { writeReports } from '../report/write.js';
import { writeLine } from '../text/console.js';
import { RECEIVER_CHECKS, type ReceiverCheckSpec } from './catalog.js';
import { RECEIVER_CHECK_BODIES } from './checks/index.js';
import { checkResult, settle } from '../check/result.js';
import { countedIn, emptyTraffic, judgedFirst } from '../http/tally.js';
import { ReceiverCheck, type CheckEnv } from './context.js';
import { envelopeBody } from './fixtures.js';
import { DeliverySender, describeAnswer, type Exchange } from './sender.js';
import { loadReceiverSettings, type ReceiverCertSettings } from '../config/receiver-settings.js';
import { BudgetExhausted, EXIT, HarnessError, RunAbort, SettingsError } from '../errors.js';
import { seededSequence } from '../../reference/http/seeded.js';
import { selectFrom } from '../runner/selection.js';
import { expectedFailureLines } from '../expected/mark.js';
import { withExpectedFailures } from '../expected/run.js';
import { receiverExpectedFailures } from '../expected/commands.js';
import { HARNESS_VERSION } from '../version.js';
import { provenanceOf } from '../report/provenance.js';

export interface ReceiverRunOptions {
  print?: (line: string) => void;
}

/** One certification of one receiver; throws RunAbort when it cannot happen. */
export async function runReceiverCertification(
  settings: ReceiverCertSettings,
  options: ReceiverRunOptions = {},
): Promise<RunReport> {
  const print = options.print ?? (() => undefined);
  const selected = selectFrom(RECEIVER_CHECKS, settings.checks, 'TARGET_RECEIVER_CHECKS');
  const started = new Date();
  const deadlineMs = started.getTime() + settings.maxRunMs;
  const sender = new DeliverySender({ ...settings, deadlineMs });
  try {
    const baseline = await preflight(sender, settings);
    print(`certify:receiver: ${settings.url}; preflight delivery answered ${describeAnswer(baseline)}`);
    const env: CheckEnv = { sender, settings, baseline, shared: new Map(), random: seededSequence(settings.seed) };
    const checks: CheckResult[] = [];
    for (const spec of selected) {
      const result = await runCheck(spec, env, deadlineMs);
      checks.push(result);
      print(
        `${result.verdict.toUpperCase().padEnd(4)} ${spec.id} (${spec.level}, ${result.duration_ms} ms): ${result.detail ?? ''}`,
      );
    }
    const report: RunReport = {
      harness_version: HARNESS_VERSION,
      target: { base_url: settings.url, embedded_reference: false },
      started_at: isoSeconds(started),
      finished_at: isoSeconds(new Date()),
      summary: summarize(checks),
      checks,
      tier: 'fast',
      provenance: provenanceOf(),
      seed: settings.seed,
    };
    print(
      `certify:receiver: ${sender.requestCount} requests in ${Math.round((Date.now() - started.getTime()) / 1000)} s`,
    );
    return report;
  } finally {
    await sender.close();
  }
}

/** A valid delivery: proves the receiver answers, and is the baseline the rejection checks need. */
async function preflight(sender: DeliverySender, settings: ReceiverCertSettings): Promise<Exchange> {
  sender.currentCheck = 'PREFLIGHT';
  const baseline = await sender.deliver({
    purpose: 'valid',
    label: 'preflight',
    body: envelopeBody('voice.call.queued').body,
  });
  if (baseline.status !== null || baseline.error === 'timeout') return baseline;
  // No HTTP answer at all; one unsigned probe tells "unreachable" from "resets valid deliveries".
  const probe = await sender.deliver({
    purpose: 'invalid',
    label: 'preflight probe (unsigned)',
    body: '{}',
    signature: null,
  });
  if (probe.status !== null || probe.error === 'timeout') return baseline;
  const tlsHint =
    /certificate|self.signed|CERT_/i.test(baseline.errorMessage ?? '') && !settings.insecureTls
      ? '; to accept a self-signed certificate, set TARGET_RECEIVER_INSECURE_TLS=true'
      : '';
  throw new RunAbort(`receiver unreachable at ${settings.url}: ${baseline.errorMessage ?? baseline.error}${tlsHint}`);
}

async function runCheck(spec: ReceiverCheckSpec, env: CheckEnv, runDeadlineMs: number): Promise<CheckResult> {
  const startedMs = Date.now();
  const t = new ReceiverCheck(spec, env);
  const body = RECEIVER_CHECK_BODIES.get(spec.id)?.body;
  const budgetMs = Math.min(checkBudgetMs(spec, env.settings), runDeadlineMs - startedMs);
  // Requests stop starting at the check's deadline; one in flight ends within its own time-out.
  const hardStopMs = budgetMs + env.settings.timeoutMs + 1_000;
  let timer: NodeJS.Timeout | undefined;
  // The check's own requests, kept (the last few) as the evidence of a failure.
  const traffic = emptyTraffic();
  const outcome = await countedIn(traffic, () =>
    settle(async () => {
      if (startedMs >= runDeadlineMs) return t.skip('not run: run time cap reached (TARGET_RECEIVER_MAX_RUN_SECONDS)');
      if (body === undefined) return t.skip('not implemented in this harness version');
      env.sender.currentCheck = spec.id;
      env.sender.checkDeadlineMs = startedMs + budgetMs;
      try {
        await Promise.race([
          body(t),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`the check did not finish within ${hardStopMs} ms`)), hardStopMs);
          }),
        ]);
      } catch (error) {
        if (error instanceof BudgetExhausted) t.skip(`not finished: ${error.message}`);
        throw error;
      } finally {
        clearTimeout(timer);
        env.sender.checkDeadlineMs = Infinity;
      }
    }),
  );
  const evidence =
    outcome.state === 'failed'
      ? { exchanges: judgedFirst(outcome.judged, traffic.exchanges), rerun: rerunCommand(spec.id, env.settings.seed) }
      : undefined;
  return checkResult(spec, {
    state: outcome.state,
    ...(outcome.failure ? { failure: outcome.failure } : {}),
    meta: t.toMeta(outcome.skipReason, undefined, undefined, evidence),
    durationMs: Date.now() - startedMs,
  });
}

/** The command that runs one receiver check again, with the run's seed. */
export function rerunCommand(checkId: string, seed: number): string {
  return `svc-harness certify receiver --checks ${checkId} --seed ${seed}`;
}

/** Generous for ordinary checks; the timing probe stops sampling at its budget and reports what it has. */
function checkBudgetMs(spec: ReceiverCheckSpec, settings: ReceiverCertSettings): number {
  if (spec.id === 'RCV-TIMING-CONSTANT-TIME') return 60_000;
  return Math.max(30_000, 16 * settings.timeoutMs);
}

function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface CertifyReceiverOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  print?: (line: string) => void;
  printError?: (line: string) => void;
}

/** The command: settings, run, reports, summary; returns the exit code. */
export async function certifyReceiver(options: CertifyReceiverOptions = {}): Promise<number> {
  const print = options.print ?? ((line: string) => writeLine(process.stdout, line));
  const printError = options.printError ?? ((line: string) => writeLine(process.stderr, line));
  const abort = (reason: string): number => {
    printError(`certify:receiver: ${reason}`);
    return EXIT.noRun;
  };
  let settings: ReceiverCertSettings;
  try {
    settings = loadReceiverSettings(options.env ?? process.env, options.cwd ?? process.cwd());
  } catch (error) {
    if (error instanceof SettingsError) return abort(error.message);
    throw error;
  }
  let report: RunReport;
  try {
    // As given: the setting's check found it from the working directory, and the reports name it as the user did.
    const expected = receiverExpectedFailures(settings.expectedFailures, settings.strict);
    report = withExpectedFailures(await runReceiverCertification(settings, { print }), expected);
  } catch (error) {
    if (error instanceof HarnessError) return abort(error.message);
    return abort(`run failed: ${(error as Error).message}`);
  }
  const files = writeReports(report, resolve(options.cwd ?? process.cwd(), settings.reportDir));
  const { summary } = report;
  const failed = runVerdict(report) === 'FAILED';
  for (const line of expectedFailureLines(report)) print(line);
  print(
    `summary: ${summary.pass} pass, ${summary.fail} fail, ${summary.warn} warn, ${summary.skip} skip; seed ${settings.seed}; verdict: ${failed ? 'FAILED' : 'PASSED'}`,
  );
  print(`reports: ${files.join(', ')}`);
  return failed ? EXIT.mustFailed : EXIT.passed;
}
