/**
 * Runs `svc-harness certify` (bin/svc-harness.js) as a child process, as a user or CI job would, and observes
 * what a test of the harness's bounds needs: wall time, exit code, everything printed,
 * every file the run left (report directory and its temp directory), and the peak RSS
 * of each process of the run (read from /proc while they live). Like
 * test/faults/certify-child.ts, with a signal, a clock and a memory gauge added.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunReport } from '../../src/report/model.js';
import { readReportFile } from '../../src/report/validate.js';
import { PeakRss, type RssPeaks } from './rss.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ChildOptions {
  settings: Record<string, string>;
  /** Extra environment that is not a setting (NODE_EXTRA_CA_CERTS, …). */
  env?: Record<string, string>;
  /** Sent when `at` resolves: to the run's process, or to its whole process group (Ctrl-C). */
  interrupt?: { signal: 'SIGINT' | 'SIGTERM'; at: Promise<unknown>; group?: boolean };
  /** An entry script to run instead of `svc-harness certify` (relative to the project root). */
  script?: string;
  /** The run is killed (SIGKILL) past this; the test then fails on the time bound. */
  killAfterMs?: number;
}

export interface ChildResult {
  exitCode: number | null;
  durationMs: number;
  /** From the interrupt to the exit. */
  afterSignalMs?: number;
  stdout: string;
  stderr: string;
  report?: RunReport;
  /** Every file the run left in its report directory and temp directory: path → content. */
  files: Map<string, string>;
  rss: RssPeaks;
  killed: boolean;
}

function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(SVC|RECEIVER|CERTIFY)_/.test(name)));
}

export async function runCertifyChild(options: ChildOptions): Promise<ChildResult> {
  const reportDir = mkdtempSync(join(tmpdir(), 'hostile-report-'));
  const runTmp = mkdtempSync(join(tmpdir(), 'hostile-tmp-'));
  const started = performance.now();
  const child = spawn(process.execPath, options.script ? ['--import', 'tsx', join(ROOT, options.script)] : [join(ROOT, 'bin/svc-harness.js'), 'certify'], {
    cwd: ROOT,
    env: { ...cleanEnv(), CERTIFY_REPORT_DIR: reportDir, ...options.settings, ...options.env, TMPDIR: runTmp },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.interrupt?.group === true,
  });
  const rss = new PeakRss(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let signalledAt: number | undefined;
  let killed = false;
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  let done = false;
  void exited.then(() => (done = true));
  if (options.interrupt) {
    const { signal, at, group } = options.interrupt;
    void at.then(() => {
      if (done) return;
      signalledAt = performance.now();
      if (group) process.kill(-child.pid!, signal);
      else child.kill(signal);
    });
  }
  const timer = setTimeout(() => {
    killed = true;
    if (options.interrupt?.group) process.kill(-child.pid!, 'SIGKILL');
    else child.kill('SIGKILL');
  }, options.killAfterMs ?? 240_000);
  const exitCode = await exited;
  const finished = performance.now();
  clearTimeout(timer);
  rss.stop();
  const files = new Map<string, string>();
  for (const dir of [reportDir, runTmp]) for (const file of walk(dir)) files.set(file, readFileSync(file, 'latin1'));
  let report: RunReport | undefined;
  // A report that exists must conform to the published schema; a run that wrote none has none.
  const reportPath = join(reportDir, 'report.json');
  if (existsSync(reportPath)) report = readReportFile(reportPath);
  rmSync(reportDir, { recursive: true, force: true });
  rmSync(runTmp, { recursive: true, force: true });
  return {
    exitCode,
    durationMs: finished - started,
    ...(signalledAt !== undefined ? { afterSignalMs: finished - signalledAt } : {}),
    stdout,
    stderr,
    ...(report ? { report } : {}),
    files,
    rss: rss.peaks(),
    killed,
  };
}

function walk(dir: string): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) out.push(...walk(path));
    else if (stat?.isFile()) out.push(path);
  }
  return out;
}

/** Runs `tasks` with at most `limit` at a time (certify children are heavy on a 2-core machine). */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: Array<() => void> = [];
  return async (task) => {
    if (active >= limit) await new Promise<void>((go) => queue.push(go));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      queue.shift()?.();
    }
  };
}
