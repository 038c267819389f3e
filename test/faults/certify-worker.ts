/**
 * A long-lived process that runs `svc-harness certify` again and again, one run at a time, for
 * the fault matrix's short runs (certify-pool.ts): the CLI's own `main(['certify'])` with each
 * run's settings as its environment, so that a run costs its checks, not a Node start-up and the
 * loading of the harness every time. It loads the CLI as bin/start.js does: the fresh bundle of
 * the sources, else the sources through tsx.
 *
 * Protocol (IPC): the parent sends `{ env }`; the worker answers `{ exitCode, output }` once the
 * run has ended, with everything the run printed.
 */
import { enableCompileCache } from 'node:module';
import { pathToFileURL } from 'node:url';
import { freshBundle } from '../../src/install/bundles.js';

export interface WorkerRequest {
  env: Record<string, string>;
}

export interface WorkerAnswer {
  exitCode: number;
  output: string;
}

type Main = (argv: readonly string[]) => Promise<number>;

async function stopEsbuild(): Promise<void> {
  const esbuild = await import('esbuild');
  await esbuild.stop();
}

// As bin/start.js: V8's code cache on disk, for this process and the suites' processes it forks.
const compileCache = enableCompileCache();
if (compileCache.directory) process.env.NODE_COMPILE_CACHE = compileCache.directory;
const bundle = freshBundle();
const { main } = (await import(bundle ? pathToFileURL(bundle).href : '../../src/cli/main.js')) as { main: Main };
/** The environment the worker started with (the parent's, without settings): each run starts from it. */
const baseEnv = { ...process.env };

/** Runs `fn` with everything written to stdout and stderr kept, not printed. */
async function captured(fn: () => Promise<number>): Promise<WorkerAnswer> {
  const chunks: string[] = [];
  const writers = [process.stdout, process.stderr].map((stream) => {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof stream.write;
    return { stream, write };
  });
  try {
    const exitCode = await fn();
    return { exitCode, output: chunks.join('') };
  } catch (error) {
    return { exitCode: -1, output: `${chunks.join('')}\ncertify-worker: ${(error as Error)?.stack ?? String(error)}` };
  } finally {
    for (const { stream, write } of writers) stream.write = write as typeof stream.write;
  }
}

/** The run's environment: the worker's own, then the run's settings; nothing of the run before. */
function useEnv(env: Record<string, string>): void {
  for (const name of Object.keys(process.env)) if (!(name in baseEnv)) delete process.env[name];
  Object.assign(process.env, baseEnv, env);
}

process.on('message', (request: WorkerRequest) => {
  useEnv(request.env);
  void captured(() => main(['certify']))
    .then(async (answer) => {
      // A run ends every child process it started (src/runner/children.ts), esbuild's service
      // among them, which esbuild's module still holds as running: forgotten here, the next run
      // starts a new one instead of writing to the dead one.
      await stopEsbuild();
      return answer;
    })
    .then((answer) => process.send!(answer));
});
// The parent gone: nothing is left to answer.
process.on('disconnect', () => process.exit(0));
process.send!({ ready: true });
