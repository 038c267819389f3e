/**
 * The processes a run started, so that it exits only after them. The suites' worker is closed
 * with a bound (a stopped run does not wait long for it), and esbuild's service lives as long as
 * its parent: a process that outlived the run would go on writing (Node's compile cache, at its
 * own exit, into the run's temporary folder) after the run had said it was done, and be left
 * behind. Node announces every child process on its `child_process` diagnostics channel.
 */
import type { ChildProcess } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';

/** How long a child has to end after SIGTERM before it is killed. */
export const CHILD_TERM_GRACE_MS = 1_000;
/** How long the end of a killed child is waited for. */
const KILL_WAIT_MS = 1_000;

const running = new Set<ChildProcess>();
let watching = false;

/** From now on, every child process this process starts is known until it exits. */
export function watchChildren(): void {
  if (watching) return;
  watching = true;
  subscribe('child_process', (message) => {
    const child = (message as { process: ChildProcess }).process;
    running.add(child);
    const forget = () => running.delete(child);
    child.once('exit', forget);
    child.once('error', forget);
  });
}

/** The children started since watchChildren() that have not exited. */
export function runningChildren(): ChildProcess[] {
  return [...running].filter(
    (child) => child.pid !== undefined && child.exitCode === null && child.signalCode === null,
  );
}

/**
 * Ends every child still running: SIGTERM, then SIGKILL after `graceMs`, and waits for each to
 * exit. Resolves with how many there were.
 */
export async function endChildren(graceMs = CHILD_TERM_GRACE_MS): Promise<number> {
  const children = runningChildren();
  await Promise.all(children.map((child) => endChild(child, graceMs)));
  return children.length;
}

async function endChild(child: ChildProcess, graceMs: number): Promise<void> {
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  if (await settlesWithin(exited, graceMs)) return;
  child.kill('SIGKILL');
  await settlesWithin(exited, KILL_WAIT_MS);
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
