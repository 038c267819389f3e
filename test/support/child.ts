/**
 * The one way the harness's own tests run a command as a user would: a child process of
 * `svc-harness` (or another entry script), our settings stripped from the environment so
 * that the caller's are the only ones, a time limit after which it is killed, and
 * everything it printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = resolve(ROOT, 'bin/svc-harness.js');

const SETTING_PREFIXES = /^(SVC|RECEIVER|CERTIFY|IDP|TARGET_RECEIVER|LOAD)_/;

/** The environment without any setting of ours. */
export function withoutSettings(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SETTING_PREFIXES.test(name)));
}

export interface ChildOptions {
  /** Settings and other environment, over the environment without our settings. */
  env?: Record<string, string>;
  /** Killed (SIGKILL; its whole group when detached) past this. */
  timeoutMs: number;
  /** In its own process group, so that a signal can reach the whole group (a Ctrl-C). */
  detached?: boolean;
  /** Called once the child runs (to watch it, or to signal it later). */
  onSpawn?: (child: ChildProcess) => void;
}

export interface ChildExit {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came, interleaved. */
  output: string;
  durationMs: number;
  /** performance.now() at the exit. */
  exitedAtMs: number;
  /** Killed at the time limit. */
  killed: boolean;
}

/** `svc-harness <args>` as a child process. */
export function runHarness(args: string[], options: ChildOptions): Promise<ChildExit> {
  return runNode([BIN, ...args], options);
}

/** A TypeScript entry script of the project (relative to its root), loaded with tsx. */
export function runScript(script: string, args: string[], options: ChildOptions): Promise<ChildExit> {
  return runNode(['--import', 'tsx', resolve(ROOT, script), ...args], options);
}

function runNode(nodeArgs: string[], options: ChildOptions): Promise<ChildExit> {
  const started = performance.now();
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { ...withoutSettings(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached === true,
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk;
    output += chunk;
  });
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    if (options.detached) process.kill(-child.pid!, 'SIGKILL');
    else child.kill('SIGKILL');
  }, options.timeoutMs);
  options.onSpawn?.(child);
  return new Promise((done) => {
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const exitedAtMs = performance.now();
      done({ exitCode, stdout, stderr, output, durationMs: exitedAtMs - started, exitedAtMs, killed });
    });
  });
}
