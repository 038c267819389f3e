/**
 * Building the pinned k6 release into `.tools/k6/<version>/k6` through the Go module proxy
 * (nothing is downloaded from anywhere else), and `k6Binary`: found (binary.ts) or built.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  binaryVersion,
  cachedBinaryPath,
  findK6,
  INSTALL_HINT,
  isV2,
  K6_MODULE,
  K6_VERSION,
  k6Env,
  REPO_ROOT,
  toolsDir,
  VERSION_TIMEOUT_MS,
  type FoundK6,
} from './binary.js';
import { K6NotFound } from '../../errors.js';

/** The pinned build module: go.mod + go.sum fix every dependency version. */
const BUILD_MODULE_DIR = join(REPO_ROOT, 'load', 'k6-build');
/** Generous: a cold build on a small machine takes several minutes. */
const BUILD_TIMEOUT_MS = 25 * 60_000;

function goAvailable(): string | undefined {
  const result = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8', timeout: VERSION_TIMEOUT_MS });
  if (result.error || result.status !== 0) return undefined;
  return result.stdout.trim();
}

type Log = (line: string) => void;

/** Runs one command, printing a progress line every 30 s; resolves with its exit code and output tail. */
function runWithProgress(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; log: Log; label: string; timeoutMs: number },
): Promise<{ code: number | null; tail: string }> {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const progress = setInterval(
      () => options.log(`  ${options.label}: still running, ${Math.round((Date.now() - started) / 1000)} s`),
      30_000,
    );
    const timer = setTimeout(() => {
      options.log(`  ${options.label}: no result after ${options.timeoutMs / 60_000} min; stopping it`);
      child.kill('SIGTERM');
    }, options.timeoutMs);
    child.on('error', (error) => {
      tail += `\n${error.message}`;
    });
    child.on('close', (code) => {
      clearInterval(progress);
      clearTimeout(timer);
      resolvePromise({ code, tail });
    });
  });
}

/**
 * Builds the pinned k6 into `.tools/k6/<version>/k6`. First `go install module@version`
 * with GOBIN (the documented way); when the proxy cannot answer the version list that
 * `go install` asks for, the pinned build module in load/k6-build (same module, every
 * dependency fixed by its go.sum) is built instead. Both go through the Go module proxy only.
 */
export async function buildK6(options: { root?: string; log?: Log } = {}): Promise<FoundK6> {
  const root = options.root ?? REPO_ROOT;
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const goVersion = goAvailable();
  if (!goVersion) throw new K6NotFound(`Go is not installed, so k6 cannot be built here.\n${INSTALL_HINT}`);
  const dir = toolsDir(root);
  mkdirSync(dir, { recursive: true });
  const target = cachedBinaryPath(root);
  const partial = `${target}.partial`;
  const env = k6Env({ GOBIN: dir, GOFLAGS: [process.env.GOFLAGS, '-trimpath'].filter(Boolean).join(' ') });
  const started = Date.now();
  log(
    `building k6 ${K6_VERSION} (${K6_MODULE}) with ${goVersion} into ${dir}; this takes a few minutes on a small machine`,
  );

  const installed = await runWithProgress('go', ['install', `${K6_MODULE}@${K6_VERSION}`], {
    cwd: root,
    env,
    log,
    label: 'go install',
    timeoutMs: BUILD_TIMEOUT_MS,
  });
  if (installed.code !== 0 || !existsSync(target)) {
    const reason = installed.tail.trim().split('\n').slice(-1)[0] ?? '';
    log(
      `  go install did not produce k6 (${reason.slice(0, 200)}); building the pinned module in load/k6-build instead`,
    );
    rmSync(partial, { force: true });
    const built = await runWithProgress('go', ['build', '-mod=readonly', '-o', partial, '.'], {
      cwd: BUILD_MODULE_DIR,
      env,
      log,
      label: 'go build',
      timeoutMs: BUILD_TIMEOUT_MS,
    });
    if (built.code !== 0 || !existsSync(partial)) {
      rmSync(partial, { force: true });
      throw new K6NotFound(
        `building k6 failed (exit ${built.code}):\n${built.tail.trim().split('\n').slice(-15).join('\n')}\n\n${INSTALL_HINT}`,
      );
    }
    renameSync(partial, target);
  }
  const version = binaryVersion(target);
  if (!isV2(version)) throw new K6NotFound(`the built ${target} reports ${version ?? 'no version'}, not v2`);
  log(`built k6 ${version} in ${Math.round((Date.now() - started) / 1000)} s: ${target}`);
  return { path: target, version: version!, source: 'built' };
}

/** The k6 binary to use: found, or (when `build` is true) built. Throws K6NotFound with how-to. */
export async function k6Binary(
  options: { build?: boolean; root?: string; log?: Log; explicit?: string } = {},
): Promise<FoundK6> {
  const found = findK6(options.root, options.explicit ?? process.env.LOAD_K6_BINARY);
  if (found) return found;
  if (!options.build) throw new K6NotFound(INSTALL_HINT);
  return buildK6(options);
}
