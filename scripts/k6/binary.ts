/**
 * Finding (or building) the k6 binary for `npm run load`.
 *
 * Order: `LOAD_K6_BINARY` (an explicit path), `k6` on PATH when it is a v2 release, the
 * cached build in `.tools/k6/<version>/k6`, and, only when allowed, a build of the pinned
 * `go.k6.io/k6/v2` module through the Go module proxy into that folder. Nothing is
 * downloaded from anywhere else. Every k6 invocation gets K6_AUTO_EXTENSION_RESOLUTION=false
 * (k6Env), so k6 never fetches an extension-enabled binary on its own.
 *
 * CLI:  npx tsx scripts/k6/binary.ts --ensure   find or build; prints the path (CI runs this)
 *       npx tsx scripts/k6/binary.ts --find     find only; exit 1 with how-to when absent
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The one k6 release this harness builds and tests with. */
export const K6_VERSION = 'v2.2.0';
export const K6_MODULE = 'go.k6.io/k6/v2';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, '..', '..');
/** The pinned build module: go.mod + go.sum fix every dependency version. */
const BUILD_MODULE_DIR = join(HERE, 'build');
/** Generous: a cold build on 2 cores takes several minutes. */
const BUILD_TIMEOUT_MS = 25 * 60_000;
const VERSION_TIMEOUT_MS = 15_000;

export function toolsDir(root = REPO_ROOT, version = K6_VERSION): string {
  return join(root, '.tools', 'k6', version);
}

export function cachedBinaryPath(root = REPO_ROOT, version = K6_VERSION): string {
  return join(toolsDir(root, version), process.platform === 'win32' ? 'k6.exe' : 'k6');
}

/** The environment every k6 process gets: automatic extension resolution off, always. */
export function k6Env(extra: Record<string, string | undefined> = {}, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, ...extra, K6_AUTO_EXTENSION_RESOLUTION: 'false' };
}

export class K6NotFound extends Error {
  override name = 'K6NotFound';
}

export const INSTALL_HINT = [
  `k6 ${K6_VERSION.replace(/\.\d+\.\d+$/, '')}.x was not found. Either:`,
  `  - build the pinned release (Go ${'>='} 1.25, through the Go module proxy; takes minutes):`,
  `      npx tsx scripts/k6/binary.ts --ensure      (or: npm run load, which does the same)`,
  `  - or install k6 v2 from your OS packages and put it on PATH,`,
  `  - or point LOAD_K6_BINARY at a k6 v2 binary.`,
].join('\n');

/**
 * Parses `k6 version` output ("k6 v2.2.0 (go1.26.8, linux/amd64)") into "v2.2.0". k6 prints
 * its own file name first, so a binary under another name prints "<name> v2.2.0 (...)".
 */
export function parseK6Version(output: string): string | undefined {
  return /^\S+\s+(v\d+\.\d+\.\d+[^\s(]*)/m.exec(output.trim())?.[1];
}

/** The version a binary reports, or undefined when it does not run. */
export function binaryVersion(path: string): string | undefined {
  const result = spawnSync(path, ['version'], { encoding: 'utf8', timeout: VERSION_TIMEOUT_MS, env: k6Env() });
  if (result.error || result.status !== 0) return undefined;
  return parseK6Version(`${result.stdout}\n${result.stderr}`);
}

export function isV2(version: string | undefined): boolean {
  return version !== undefined && /^v2\./.test(version);
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export interface FoundK6 {
  path: string;
  version: string;
  source: 'env' | 'path' | 'tools' | 'built';
}

/** Finds a usable k6 v2 without building anything; undefined when there is none. */
export function findK6(root = REPO_ROOT): FoundK6 | undefined {
  const explicit = process.env.LOAD_K6_BINARY;
  if (explicit) {
    const version = binaryVersion(explicit);
    if (!isV2(version)) throw new K6NotFound(`LOAD_K6_BINARY=${explicit} is not a runnable k6 v2 (reports ${version ?? 'nothing'})`);
    return { path: explicit, version: version!, source: 'env' };
  }
  const fromPath = onPath(process.platform === 'win32' ? 'k6.exe' : 'k6');
  if (fromPath) {
    const version = binaryVersion(fromPath);
    if (isV2(version)) return { path: fromPath, version: version!, source: 'path' };
    process.stderr.write(`k6 on PATH (${fromPath}) reports ${version ?? 'no version'}; not v2, so it is not used\n`);
  }
  const cached = cachedBinaryPath(root);
  if (existsSync(cached)) {
    const version = binaryVersion(cached);
    if (isV2(version)) return { path: cached, version: version!, source: 'tools' };
  }
  return undefined;
}

function goAvailable(): string | undefined {
  const result = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8', timeout: VERSION_TIMEOUT_MS });
  if (result.error || result.status !== 0) return undefined;
  return result.stdout.trim();
}

type Log = (line: string) => void;

/** Runs one command, printing a progress line every 30 s; resolves with its exit code and output tail. */
function runWithProgress(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; log: Log; label: string; timeoutMs: number }): Promise<{ code: number | null; tail: string }> {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const progress = setInterval(() => options.log(`  ${options.label}: still running, ${Math.round((Date.now() - started) / 1000)} s`), 30_000);
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
 * `go install` asks for, the pinned build module in scripts/k6/build (same module, every
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
  log(`building k6 ${K6_VERSION} (${K6_MODULE}) with ${goVersion} into ${dir}; this takes a few minutes on a small machine`);

  const installed = await runWithProgress('go', ['install', `${K6_MODULE}@${K6_VERSION}`], { cwd: root, env, log, label: 'go install', timeoutMs: BUILD_TIMEOUT_MS });
  if (installed.code !== 0 || !existsSync(target)) {
    const reason = installed.tail.trim().split('\n').slice(-1)[0] ?? '';
    log(`  go install did not produce k6 (${reason.slice(0, 200)}); building the pinned module in scripts/k6/build instead`);
    rmSync(partial, { force: true });
    const built = await runWithProgress('go', ['build', '-mod=readonly', '-o', partial, '.'], { cwd: BUILD_MODULE_DIR, env, log, label: 'go build', timeoutMs: BUILD_TIMEOUT_MS });
    if (built.code !== 0 || !existsSync(partial)) {
      rmSync(partial, { force: true });
      throw new K6NotFound(`building k6 failed (exit ${built.code}):\n${built.tail.trim().split('\n').slice(-15).join('\n')}\n\n${INSTALL_HINT}`);
    }
    renameSync(partial, target);
  }
  const version = binaryVersion(target);
  if (!isV2(version)) throw new K6NotFound(`the built ${target} reports ${version ?? 'no version'}, not v2`);
  log(`built k6 ${version} in ${Math.round((Date.now() - started) / 1000)} s: ${target}`);
  return { path: target, version: version!, source: 'built' };
}

/** The k6 binary to use: found, or (when `build` is true) built. Throws K6NotFound with how-to. */
export async function k6Binary(options: { build?: boolean; root?: string; log?: Log } = {}): Promise<FoundK6> {
  const found = findK6(options.root);
  if (found) return found;
  if (!options.build) throw new K6NotFound(INSTALL_HINT);
  return buildK6(options);
}

async function main(argv: string[]): Promise<number> {
  const ensure = argv.includes('--ensure');
  if (!ensure && !argv.includes('--find')) {
    process.stderr.write('usage: tsx scripts/k6/binary.ts --ensure | --find\n');
    return 2;
  }
  try {
    const found = await k6Binary({ build: ensure });
    process.stdout.write(`${found.path}\n`);
    process.stderr.write(`k6 ${found.version} (${found.source})\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(await main(process.argv.slice(2)));
}
