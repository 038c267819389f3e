/**
 * Stryker's command for one mutant of a reference module (scripts/mutate/modules.ts): starts
 * the mutated reference from the working folder (Stryker's sandbox) and certifies it with the
 * module's checks only, through the harness of this repository, as a user would.
 *
 *   node --import tsx scripts/mutate/certify-mutant.ts <calls|auth|webhooks> [<area>,…]
 *
 * The areas, when given (`npm run mutate -- --areas`), narrow the module's checks to theirs.
 * Exit 0 when every check passed (the mutant survived); 1 as soon as a `must` check fails,
 * a `should` check warns or any check ends in `error` (the mutant is killed: on loopback,
 * only the mutant keeps an answer away), or when the reference or the run cannot start.
 * The harness is stopped at the first such verdict: a killed mutant costs its first failing
 * check, not the longest one. Prints only what decided, which Stryker keeps in its report.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { checkIdsOf, isModuleName, MODULE_NAMES, narrowedAreas } from './modules.js';

const ROOT = resolve(import.meta.dirname, '../..');
const HARNESS = join(ROOT, 'bin', 'svc-harness.js');
const REFERENCE_CHILD = join(import.meta.dirname, 'reference-child.ts');
const REFERENCE_START_MS = 30_000;
/** Settings of the harness a caller's environment might hold: the run sets its own. */
const HARNESS_SETTING = /^(SVC|RECEIVER|CERTIFY|IDP)_/;
/** A verdict line of the harness (src/runner/collector.ts) that kills a mutant. */
const KILLING_LINE = /^\s*(FAIL|warn|ERR)\s+([A-Z0-9-]+)\s/;
/**
 * ROTATION-DEPLOY-PHASE's deploy phase, shortened from the default that fits beside the
 * slowest check of a whole run: still several revocation propagation cycles of the reference.
 */
const ROTATION_DEPLOY_MS = '5000';
/** Full runs of the module's checks before a mutant whose every kill was unconfirmed is called a survivor. */
const ATTEMPTS = 2;

const moduleName = process.argv[2] ?? '';
if (!isModuleName(moduleName)) {
  process.stderr.write(`certify-mutant: name the mutated module, one of ${MODULE_NAMES.join(', ')}\n`);
  process.exit(2);
}
const moduleChecks = checkIdsOf(moduleName, narrowedAreas(moduleName, process.argv[3]));

const controlToken = `ctl_mutant_${randomBytes(20).toString('hex')}`;
const reference = spawn(process.execPath, ['--import', 'tsx', REFERENCE_CHILD], {
  cwd: process.cwd(),
  env: { ...process.env, MUTATE_CONTROL_TOKEN: controlToken },
  stdio: ['pipe', 'pipe', 'pipe'],
});

const harnessGroups: ChildProcess[] = [];
const workDir = mkdtempSync(join(tmpdir(), 'mutant-'));

/** A harness run leads its own process group (its suites' worker is in it). */
function killGroup(harness: ChildProcess): void {
  if (harness.exitCode !== null || harness.signalCode !== null || harness.pid === undefined) return;
  try {
    process.kill(-harness.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function stopAll(): void {
  for (const harness of harnessGroups) killGroup(harness);
  if (reference.exitCode === null && reference.signalCode === null) reference.kill('SIGKILL');
  rmSync(workDir, { recursive: true, force: true });
}

function finish(code: number, message: string): never {
  stopAll();
  process.stdout.write(`${message}\n`);
  // Stryker writes its reports at the end: a run stopped midway still leaves what each mutant decided.
  const logDir = join(ROOT, 'reports', 'mutation', moduleName);
  mkdirSync(logDir, { recursive: true });
  appendFileSync(
    join(logDir, 'mutants.log'),
    `${process.env.__STRYKER_ACTIVE_MUTANT__ ?? 'dry-run'}\t${code}\t${message}\n`,
  );
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => finish(130, `stopped by ${signal}`));
// Stryker kills a timed-out mutant's whole process tree; should this process be orphaned all the same, it stops.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) finish(1, 'orphaned: stopped');
}, 1_000).unref();

const urls = await referenceUrls(reference);
/** The verdicts that did not hold when their check ran alone, for the report. */
const unconfirmed: string[] = [];
/** Their checks: the next run leaves them out, so that one check's flake cannot hide a later check's kill. */
const unconfirmedChecks = new Set<string>();
for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
  const run = await certify(moduleChecks.filter((id) => !unconfirmedChecks.has(id)));
  if (run.outcome === 'passed') finish(0, 'survived: every check passed');
  if (run.outcome === 'broken') finish(1, `killed: ${run.line}`);
  // A verdict of a loaded machine (a delivery late under CPU contention) must not kill a
  // mutant: the check that decided is run again alone, on a calm run, and must decide again.
  const again = await certify([run.checkId]);
  if (again.outcome !== 'passed') finish(1, `killed by ${run.checkId}, alone too: ${again.line}`);
  unconfirmed.push(run.line);
  unconfirmedChecks.add(run.checkId);
}
finish(0, `survived: no verdict against it held when its check ran alone: ${unconfirmed.join('; ')}`);

type RunOutcome =
  | { outcome: 'passed' }
  | { outcome: 'killed'; checkId: string; line: string }
  | { outcome: 'broken'; line: string };

/** One harness run of `checkIds` against the mutant, stopped at the first verdict that kills. */
function certify(checkIds: readonly string[]): Promise<RunOutcome> {
  const reportDir = mkdtempSync(join(workDir, 'run-'));
  const harness = spawn(process.execPath, [HARNESS, 'certify'], {
    cwd: reportDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !HARNESS_SETTING.test(name))),
      SVC_BASE_URL: urls.baseUrl,
      SVC_CONTROL_URL: urls.controlUrl,
      SVC_CONTROL_TOKEN: controlToken,
      CERTIFY_CHECKS: checkIds.join(','),
      CERTIFY_REPORT_DIR: reportDir,
      CERTIFY_ROTATION_DEPLOY_MS: ROTATION_DEPLOY_MS,
    },
  });
  harnessGroups.push(harness);
  return new Promise((resolveRun) => {
    let lastError = '';
    let decided = false;
    const decide = (outcome: RunOutcome): void => {
      if (decided) return;
      decided = true;
      killGroup(harness);
      resolveRun(outcome);
    };
    createInterface({ input: harness.stderr! }).on('line', (line) => {
      if (line.trim()) lastError = line;
    });
    createInterface({ input: harness.stdout! }).on('line', (line) => {
      const killing = KILLING_LINE.exec(line);
      if (killing)
        decide({
          outcome: 'killed',
          checkId: killing[2]!,
          line: `${killing[2]} ${killing[1]!.trim()}:${line.slice(killing[0].length)}`,
        });
    });
    harness.on('exit', (code, signal) => {
      decide(
        code === 0
          ? { outcome: 'passed' }
          : { outcome: 'broken', line: `the harness exited ${code ?? signal}: ${lastError}` },
      );
    });
  });
}

/** The reference's URLs from its first line; the mutant is killed when it cannot start. */
function referenceUrls(child: ChildProcess): Promise<{ baseUrl: string; controlUrl: string }> {
  return new Promise((resolveUrls) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2_000);
    });
    const timer = setTimeout(
      () => finish(1, `killed: the reference did not start within ${REFERENCE_START_MS} ms`),
      REFERENCE_START_MS,
    );
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolveUrls(JSON.parse(line) as { baseUrl: string; controlUrl: string });
    });
    child.on('exit', (code) =>
      finish(1, `killed: the reference exited ${code}: ${stderr.trim().split('\n').pop() ?? ''}`),
    );
  });
}
