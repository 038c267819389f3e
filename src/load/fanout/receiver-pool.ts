/**
 * Several capturing receivers on one port, for load runs past what one process answers:
 * each worker process (receiver-pool-worker.ts) listens with SO_REUSEPORT, so the kernel
 * spreads the service's connections over them, and sends the arrival of every settled
 * delivery here, where the fan-out tally counts them as one stream. Endpoints are made on
 * every worker with the same path and secret. Linux only (SO_REUSEPORT balancing).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ask } from '../../ipc/ask.js';
import type { ReceiverOptions, ReceiverStats } from '../../capturing-receiver/index.js';
import { createSelfSignedCertificate } from '../../tls/self-signed.js';
import type { ArrivalFeed } from './watch.js';
import type { Arrival } from './tally.js';
import type { PoolRequest } from './receiver-pool-worker.js';

const WORKER = fileURLToPath(new URL('./receiver-pool-worker.ts', import.meta.url));
/** Bounds on the pool's own messages: a worker that does not answer is a broken pool. */
const ANSWER_LIMIT_MS = 15_000;
const STATS_EVERY_MS = 500;
const STOP_LIMIT_MS = 5_000;

type WorkerMessage = {
  ready?: number;
  endpointMade?: string;
  arrivals?: Arrival[];
  stats?: ReceiverStats;
  failed?: string;
};

export class ReceiverPool {
  readonly #workers: ChildProcess[];
  readonly #listeners = new Set<(arrival: Arrival) => void>();
  readonly #latestStats = new Map<ChildProcess, ReceiverStats>();
  readonly #statsTimer: NodeJS.Timeout;
  readonly #certificateDir: string | undefined;
  #closing = false;

  private constructor(
    workers: ChildProcess[],
    readonly port: number,
    readonly publicUrl: string,
    certificateDir: string | undefined,
  ) {
    this.#workers = workers;
    this.#certificateDir = certificateDir;
    for (const worker of workers) {
      worker.on('message', (message: WorkerMessage) => {
        if (message.arrivals)
          for (const arrival of message.arrivals) for (const listener of this.#listeners) listener(arrival);
        if (message.stats) this.#latestStats.set(worker, message.stats);
      });
      // A worker gone mid-run must not take the run with it: say so (its endpoints' later
      // deliveries then fail at the service, and the tally counts them lost).
      worker.on('error', (error) => {
        if (!this.#closing) process.stderr.write(`receiver pool worker ${worker.pid}: ${error.message}\n`);
      });
      worker.on('exit', (code, signal) => {
        if (!this.#closing)
          process.stderr.write(
            `receiver pool worker ${worker.pid} exited during the run (${signal ?? `code ${code}`})\n`,
          );
      });
    }
    this.#statsTimer = setInterval(() => this.#askStats(), STATS_EVERY_MS);
    this.#statsTimer.unref();
  }

  /** Starts `workers` receiver processes on one port (options.port, or one picked by the first). */
  static async start(workers: number, options: ReceiverOptions = {}): Promise<ReceiverPool> {
    if (!Number.isInteger(workers) || workers < 1)
      throw new RangeError(`a receiver pool needs 1 or more workers, got ${workers}`);
    let tls = options.tls;
    let certificateDir: string | undefined;
    if (!tls) {
      // One certificate for every worker: the service sees one receiver.
      const hosts = [
        '127.0.0.1',
        '::1',
        'localhost',
        ...(options.host && !['0.0.0.0', '::', ''].includes(options.host) ? [options.host] : []),
      ];
      if (options.publicUrl) hosts.push(new URL(options.publicUrl).hostname.replace(/^\[|\]$/g, ''));
      const made = await createSelfSignedCertificate({ hosts: [...new Set(hosts)] });
      tls = { cert: made.cert, key: made.key };
      certificateDir = dirname(made.certPath);
    }
    const started: ChildProcess[] = [];
    try {
      const first = startWorker();
      started.push(first);
      const port = await askWorker<number>(first, { start: { ...options, tls } }, 'ready');
      for (let i = 1; i < workers; i++) {
        const worker = startWorker();
        started.push(worker);
        await askWorker<number>(worker, { start: { ...options, tls, port } }, 'ready');
      }
      const host =
        options.host && !['0.0.0.0', ''].includes(options.host)
          ? options.host.includes(':')
            ? `[${options.host}]`
            : options.host
          : '127.0.0.1';
      const publicUrl = (options.publicUrl ?? `https://${host}:${port}`).replace(/\/+$/, '');
      return new ReceiverPool(started, port, publicUrl, certificateDir);
    } catch (error) {
      await Promise.all(started.map(stopWorker));
      if (certificateDir) await rm(certificateDir, { recursive: true, force: true });
      throw error;
    }
  }

  get workers(): number {
    return this.#workers.length;
  }

  /** The worker processes' ids, in start order. */
  pids(): number[] {
    return this.#workers.map((worker) => worker.pid ?? 0);
  }

  /** Deliveries each worker captured, as of their last report. */
  totalsByWorker(): number[] {
    return this.#workers.map((worker) => this.#latestStats.get(worker)?.total ?? 0);
  }

  /**
   * An endpoint on every worker at one path: `register` is given its URL (to register it
   * with the service) and answers the signing secret, which every worker then verifies with.
   */
  async endpoint(name: string, register: (url: string) => Promise<string>): Promise<{ name: string; url: string }> {
    const path = `/hooks/${randomBytes(12).toString('base64url')}`;
    const url = `${this.publicUrl}${path}`;
    const secret = await register(url);
    await Promise.all(
      this.#workers.map((worker) => askWorker(worker, { endpoint: { name, path, secret } }, 'endpointMade')),
    );
    return { name, url };
  }

  /** The arrivals of every worker, as one feed for the fan-out tally. */
  readonly arrivals: ArrivalFeed = (listener) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The workers' counters summed, as of their last report (every STATS_EVERY_MS). */
  stats(): ReceiverStats {
    const sum: ReceiverStats = {
      total: 0,
      bytes: 0,
      badSignatures: 0,
      duplicates: 0,
      dropped: 0,
      strays: 0,
      oversized: 0,
      resets: 0,
      timedOut: 0,
      clientClosed: 0,
      clientErrors: 0,
      endpoints: {},
    };
    for (const stats of this.#latestStats.values()) {
      for (const key of [
        'total',
        'bytes',
        'badSignatures',
        'duplicates',
        'dropped',
        'strays',
        'oversized',
        'resets',
        'timedOut',
        'clientClosed',
        'clientErrors',
      ] as const)
        sum[key] += stats[key];
    }
    return sum;
  }

  /** Asks every worker for its counters now; resolves once all answered. */
  async refreshStats(): Promise<ReceiverStats> {
    await Promise.all(
      this.#workers.map(async (worker) =>
        this.#latestStats.set(worker, await askWorker<ReceiverStats>(worker, { stats: true }, 'stats')),
      ),
    );
    return this.stats();
  }

  /** Flushes every worker's last arrivals, stops them and removes the certificate made for the pool. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#statsTimer);
    await Promise.all(this.#workers.map(stopWorker));
    this.#listeners.clear();
    if (this.#certificateDir) await rm(this.#certificateDir, { recursive: true, force: true });
  }

  #askStats(): void {
    for (const worker of this.#workers) if (worker.connected) worker.send({ stats: true } satisfies PoolRequest);
  }
}

function startWorker(): ChildProcess {
  return fork(WORKER, [], {
    // tsx loads the worker's TypeScript, resolved from here so any working directory will do.
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** A request to one worker, answered within ANSWER_LIMIT_MS. */
function askWorker<T>(worker: ChildProcess, request: PoolRequest, key: keyof WorkerMessage): Promise<T> {
  return ask<T>(worker, request, key, { who: 'receiver pool worker', limitMs: ANSWER_LIMIT_MS });
}

/** Asks the worker to close (its last arrivals flushed first), then kills it if it does not. */
async function stopWorker(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = once(worker, 'exit');
  if (worker.connected) worker.send({ close: true } satisfies PoolRequest);
  const timer = setTimeout(() => worker.kill('SIGKILL'), STOP_LIMIT_MS);
  await exited;
  clearTimeout(timer);
}
