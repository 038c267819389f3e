/** One `k6 run` of a bundled scenario: its output line by line (masked, printable), bounded in time, stoppable. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { durationSeconds } from '../../../load/lib/duration.js';
import { writeLine } from '../../text/console.js';
import { log } from '../log.js';
import type { FoundK6 } from './binary.js';

const activeChildren = new Set<ChildProcess>();

/** Stops the k6 processes that are running, if any (on SIGINT/SIGTERM). */
export function stopK6(): void {
  for (const child of activeChildren) child.kill('SIGTERM');
}

/**
 * Runs `k6 <runArgs> <bundle>` (runArgs from k6RunArgs in ./options.ts: `run`, the harness's
 * options, the user's); resolves with its exit code (null when it was killed). Its output
 * comes line by line, prefixed with `label`: k6's progress too when it was not told --quiet.
 */
export function runK6(
  k6: FoundK6,
  bundle: string,
  env: NodeJS.ProcessEnv,
  label: string,
  timeLimitMs: number,
  runArgs: readonly string[],
): Promise<number | null> {
  return new Promise((resolvePromise) => {
    const child = spawn(k6.path, [...runArgs, bundle], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    activeChildren.add(child);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => writeLine(process.stdout, `[${label}] ${line}`));
    }
    let killer: NodeJS.Timeout | undefined;
    const limit = setTimeout(() => {
      log(`[${label}] k6 still running after ${Math.round(timeLimitMs / 1000)} s; stopping it`);
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    }, timeLimitMs);
    child.on('error', (error) => log(`[${label}] k6 did not start: ${error.message}`));
    child.on('close', (code) => {
      clearTimeout(limit);
      if (killer) clearTimeout(killer);
      activeChildren.delete(child);
      resolvePromise(code);
    });
  });
}

/** The longest a scenario's k6 process may run: its phases, drain, setup and a margin. */
export function k6TimeLimitMs(env: Record<string, string>): number {
  const duration = durationSeconds(env.LOAD_DURATION ?? '30s');
  const drain = Number(env.LOAD_DRAIN_S ?? 0);
  // rotation's revocation may poll up to 60 s past its start.
  return (duration + drain + 60 + 90) * 1000;
}
