/**
 * A real Prometheus for the tests that write to a metrics store: Debian's `prometheus`
 * (which .ci/run installs) on a free loopback port, with its remote-write receiver on, a
 * temporary storage folder and a short retention. startPrometheus() resolves once it is
 * ready; stop() ends it and removes its folder. It runs under a small shell that ends it as
 * soon as its standard input closes, which happens when stop() closes it and when this
 * process ends in any way (even killed); this process's exit also kills its process group.
 * So nothing is left running whatever a test does. Without the binary the tests that need
 * it are reported skipped, never passed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BINARY = spawnSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8', timeout: 10_000 }).stdout.trim();

export const PROMETHEUS_PATH: string | undefined = BINARY === '' ? undefined : BINARY;
export const PROMETHEUS_SKIP_REASON = PROMETHEUS_PATH
  ? ''
  : " (skipped: Debian's prometheus is not installed; apt-get install prometheus, as .ci/run does)";

const READY_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;
/** Kept of its log, for the message of a start that failed. */
const LOG_TAIL = 20_000;

/** One element of an instant vector: its labels and its value (Prometheus gives values as text). */
export interface VectorSample {
  metric: Record<string, string>;
  value: number;
}

export interface RunningPrometheus {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Its remote-write receiver: `<url>/api/v1/write`. */
  writeUrl: string;
  /** An instant PromQL query (GET /api/v1/query) at now. */
  query(promql: string): Promise<VectorSample[]>;
  /** Its log so far (the end of it). */
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Kills a watchdog's process group (the shell and Prometheus), if it is still there. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** On this process's exit: every Prometheus still running is killed. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) killGroup(child, 'SIGKILL');
  });
}

/**
 * Runs "$0" "$@" (Prometheus) and a watcher of the shell's standard input (the pipe from
 * this process, read on a copy: an asynchronous command reads /dev/null otherwise): when the
 * pipe closes the watcher stops Prometheus; when Prometheus ends the shell removes its folder
 * and ends with its status.
 */
const WATCHDOG =
  'exec 3<&0; "$0" "$@" </dev/null & pid=$!; { read -r _ <&3; kill "$pid" 2>/dev/null; } & watcher=$!; wait "$pid"; status=$?; kill "$watcher" 2>/dev/null; rm -rf "$PROMETHEUS_TEST_DIR"; exit "$status"';

async function get(url: string): Promise<Response> {
  return fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
}

/** Starts Prometheus and waits until it is ready; tries another port when its port was taken meanwhile. */
export async function startPrometheus(): Promise<RunningPrometheus> {
  if (!PROMETHEUS_PATH) throw new Error('prometheus is not installed');
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(await freePort());
    } catch (error) {
      lastError = error as Error;
      if (!/address already in use/.test(lastError.message)) break;
    }
  }
  throw lastError!;
}

async function startOnce(port: number): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'prometheus-test-'));
  const config = join(dir, 'prometheus.yml');
  // Nothing to scrape: the tests write to it.
  writeFileSync(config, 'global:\n  scrape_interval: 1m\n');
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    'sh',
    [
      '-c',
      WATCHDOG,
      PROMETHEUS_PATH!,
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      '--storage.tsdb.retention.time=1h',
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
      '--log.level=warn',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: { ...process.env, PROMETHEUS_TEST_DIR: dir } },
  );
  installExitHook();
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-LOG_TAIL);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ended = false;
  void exited.then(() => {
    ended = true;
    running.delete(child);
  });

  const stop = async (): Promise<void> => {
    if (!ended) {
      child.stdin!.end();
      const killer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (ended) {
      await stop();
      throw new Error(`prometheus ended before it was ready:\n${output}`);
    }
    const ready = await get(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus was not ready within ${READY_TIMEOUT_MS} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    url,
    writeUrl: `${url}/api/v1/write`,
    log: () => output,
    stop,
    async query(promql) {
      const response = await get(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
      const body = (await response.json()) as {
        status: string;
        error?: string;
        data?: { resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> };
      };
      if (body.status !== 'success' || body.data?.resultType !== 'vector')
        throw new Error(`${promql}: ${body.error ?? JSON.stringify(body).slice(0, 300)}`);
      return body.data.result.map((sample) => ({ metric: sample.metric, value: Number(sample.value[1]) }));
    },
  };
}
