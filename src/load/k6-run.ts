/** One `k6 run` of a bundled scenario: its output line by line (masked, printable), bounded in time, stoppable. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { durationSeconds } from '../../load/lib/duration.js';
import { writeLine } from '../text/console.js';
import { log } from './context.js';
import type { FoundK6 } from './k6-binary.js';

let activeChild: ChildProcess | undefined;

/** Stops the k6 process that is running, if any (on SIGINT/SIGTERM). */
export function stopK6(): void {
  activeChild?.kill('SIGTERM');
}

/** Runs k6 on `bundle`; resolves with its exit code (null when it was killed). */
export function runK6(k6: FoundK6, bundle: string, env: NodeJS.ProcessEnv, scenario: string, timeLimitMs: number): Promise<number | null> {
  return new Promise((resolvePromise) => {
    const child = spawn(k6.path, ['run', '--no-usage-report', '--quiet', '--no-color', bundle], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    activeChild = child;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => writeLine(process.stdout, `[${scenario}] ${line}`));
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

/** The longest a scenario's k6 process may run: its phases, drain, setup and a margin. */
export function k6TimeLimitMs(env: Record<string, string>): number {
  const duration = durationSeconds(env.LOAD_DURATION ?? '30s');
  const drain = Number(env.LOAD_DRAIN_S ?? 0);
  // rotation's revocation may poll up to 60 s past its start.
  return (duration + drain + 60 + 90) * 1000;
}
