/**
 * A fixed number of certify workers (certify-worker.ts) shared by the fault matrix's short runs:
 * a run takes an idle worker, or waits for one. A worker is ended after RUNS_PER_WORKER runs (its
 * memory grows a little with each), after a run it did not finish in time (killed with its
 * suites' process, as one process group), or when it died; the next run starts a new one.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { limiter } from '../support/limit.js';
import { ROOT, withoutSettings } from '../support/child.js';
import type { WorkerAnswer, WorkerRequest } from './certify-worker.js';

const WORKER_SCRIPT = resolve(ROOT, 'test/faults/certify-worker.ts');
const RUNS_PER_WORKER = 40;
/** What a worker printed outside its runs, kept for the message when it dies: the end of it. */
const KEPT_STRAY_OUTPUT = 4_000;
const START_LIMIT_MS = 60_000;

export interface PooledRun {
  exitCode: number | null;
  output: string;
  /** How long the run took once it had a worker (not the wait for one). */
  ownMs?: number;
}

class CertifyWorker {
  private runs = 0;
  private stray = '';
  private exited = false;

  private constructor(private readonly child: ChildProcess) {
    const keep = (chunk: Buffer) => {
      this.stray = (this.stray + chunk.toString('utf8')).slice(-KEPT_STRAY_OUTPUT);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('exit', () => {
      this.exited = true;
    });
  }

  static start(): Promise<CertifyWorker> {
    const child = fork(WORKER_SCRIPT, [], {
      cwd: ROOT,
      env: withoutSettings(),
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Its own process group, so that a worker stuck past its time limit is killed with the suites' process it forked.
      detached: true,
    });
    const worker = new CertifyWorker(child);
    return new Promise((done, failed) => {
      const timer = setTimeout(() => {
        worker.kill();
        failed(new Error(`a certify worker did not start within ${START_LIMIT_MS} ms: ${worker.stray}`));
      }, START_LIMIT_MS);
      child.once('message', () => {
        clearTimeout(timer);
        done(worker);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        failed(new Error(`a certify worker exited (${code}) before it started: ${worker.stray}`));
      });
    });
  }

  /** Whether it may take another run. */
  get usable(): boolean {
    return !this.exited && this.runs < RUNS_PER_WORKER;
  }

  run(env: Record<string, string>, timeoutMs: number): Promise<PooledRun> {
    this.runs += 1;
    return new Promise((done) => {
      const finish = (run: PooledRun) => {
        clearTimeout(timer);
        this.child.off('message', onAnswer);
        this.child.off('exit', onExit);
        done(run);
      };
      const onAnswer = (answer: WorkerAnswer) => finish(answer);
      const onExit = (code: number | null) =>
        finish({ exitCode: null, output: `the certify worker exited (${code}) during the run: ${this.stray}` });
      const timer = setTimeout(() => {
        this.kill();
        finish({ exitCode: null, output: `killed after ${timeoutMs} ms: the run did not end` });
      }, timeoutMs);
      this.child.on('message', onAnswer);
      this.child.once('exit', onExit);
      this.child.send({ env } satisfies WorkerRequest);
    });
  }

  /** Ends an idle worker: it exits once its channel closes. */
  retire(): void {
    if (!this.exited && this.child.connected) this.child.disconnect();
  }

  kill(): void {
    if (this.exited) return;
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

export interface CertifyPool {
  run(env: Record<string, string>, timeoutMs: number): Promise<PooledRun>;
  /** Resolves once no run is running or waiting (at once if none is). */
  idle(): Promise<void>;
  close(): void;
}

/** A pool of `size` workers, started as runs need them. */
export function certifyPool(size: number): CertifyPool {
  const slots = limiter(size);
  const idle: CertifyWorker[] = [];
  let pending = 0;
  const idleWaiters: Array<() => void> = [];
  return {
    async run(env, timeoutMs) {
      pending += 1;
      try {
        return await slots(async () => {
          const worker = idle.pop() ?? (await CertifyWorker.start());
          const started = performance.now();
          try {
            return { ...(await worker.run(env, timeoutMs)), ownMs: performance.now() - started };
          } finally {
            if (worker.usable) idle.push(worker);
            else worker.retire();
          }
        });
      } finally {
        pending -= 1;
        if (pending === 0) for (const wake of idleWaiters.splice(0)) wake();
      }
    },
    idle: () => (pending === 0 ? Promise.resolve() : new Promise<void>((wake) => idleWaiters.push(wake))),
    close() {
      for (const worker of idle.splice(0)) worker.retire();
    },
  };
}
