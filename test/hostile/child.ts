/**
 * Runs `svc-harness certify` (bin/svc-harness.js) as a child process, as a user or CI job would, and observes
 * what a test of the harness's bounds needs: wall time, exit code, everything printed,
 * every file the run left (report directory and its temp directory), and the peak RSS
 * of each process of the run (read from /proc while they live). Built on
 * test/support/child.ts, with a signal, a clock and a memory gauge added.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../src/report/model.js';
import { readReportFile } from '../../src/report/validate.js';
import { runHarness, runScript } from '../support/child.js';
import { PeakRss, type RssPeaks } from './rss.js';

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
  /** A line the run prints at a moment worth timing from (its stop): `afterMarkMs` is measured from it. */
  mark?: RegExp;
}

export interface ChildResult {
  exitCode: number | null;
  durationMs: number;
  /** From the interrupt to the exit. */
  afterSignalMs?: number;
  /**
   * From the first output matching `mark` to the exit. Unlike `durationMs` it leaves out the
   * child's start-up (compiling, loading), which a loaded CI machine stretched by seconds.
   */
  afterMarkMs?: number;
  stdout: string;
  stderr: string;
  report?: RunReport;
  /** Every file the run left in its report directory and temp directory: path → content. */
  files: Map<string, string>;
  rss: RssPeaks;
  killed: boolean;
  /** Processes of the run still running when it had exited (found by its TMPDIR): pid and command line. */
  outlived: string[];
}

export async function runCertifyChild(options: ChildOptions): Promise<ChildResult> {
  const reportDir = mkdtempSync(join(tmpdir(), 'hostile-report-'));
  const runTmp = mkdtempSync(join(tmpdir(), 'hostile-tmp-'));
  let rss: PeakRss | undefined;
  let signalledAt: number | undefined;
  let markedAt: number | undefined;
  let exited = false;
  const group = options.interrupt?.group === true;
  const childOptions = {
    env: { CERTIFY_REPORT_DIR: reportDir, ...options.settings, ...options.env, TMPDIR: runTmp },
    timeoutMs: options.killAfterMs ?? 240_000,
    detached: group,
    onSpawn: (child: ChildProcess) => {
      rss = new PeakRss(child.pid!);
      child.on('close', () => (exited = true));
      if (options.mark) watchOutput(child, options.mark, () => (markedAt ??= performance.now()));
      const interrupt = options.interrupt;
      if (!interrupt) return;
      void interrupt.at.then(() => {
        if (exited) return;
        signalledAt = performance.now();
        if (group) process.kill(-child.pid!, interrupt.signal);
        else child.kill(interrupt.signal);
      });
    },
  };
  const run = options.script
    ? await runScript(options.script, [], childOptions)
    : await runHarness(['certify'], childOptions);
  rss!.stop();
  const outlived = processesWithTmp(runTmp);
  const files = new Map<string, string>();
  for (const dir of [reportDir, runTmp]) for (const file of walk(dir)) files.set(file, readFileSync(file, 'latin1'));
  // A report that exists must conform to the published schema; a run that wrote none has none.
  const reportPath = join(reportDir, 'report.json');
  const report = existsSync(reportPath) ? readReportFile(reportPath) : undefined;
  rmSync(reportDir, { recursive: true, force: true });
  rmSync(runTmp, { recursive: true, force: true });
  return {
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    ...(signalledAt !== undefined ? { afterSignalMs: run.exitedAtMs - signalledAt } : {}),
    ...(markedAt !== undefined ? { afterMarkMs: run.exitedAtMs - markedAt } : {}),
    stdout: run.stdout,
    stderr: run.stderr,
    ...(report ? { report } : {}),
    files,
    rss: rss!.peaks(),
    killed: run.killed,
    outlived,
  };
}

/**
 * Every process whose environment holds `tmp` (each run has a TMPDIR of its own, and its
 * processes inherit it), read from /proc; none where there is no /proc.
 */
function processesWithTmp(tmp: string): string[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').includes(`TMPDIR=${tmp}\0`)) continue;
      found.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ').trim().slice(0, 200)}`);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Calls `seen` once, when the child's stdout or stderr first matches `pattern` (across chunks, up to 64 KiB kept). */
function watchOutput(child: ChildProcess, pattern: RegExp, seen: () => void): void {
  let text = '';
  let matched = false;
  const onData = (chunk: Buffer) => {
    if (matched) return;
    text = (text + chunk.toString('utf8')).slice(-65_536);
    if (!pattern.test(text)) return;
    matched = true;
    seen();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
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
