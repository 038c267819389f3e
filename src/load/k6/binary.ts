/**
 * Finding the k6 binary for `svc-harness load` (building it is build.ts).
 *
 * Order: `LOAD_K6_BINARY` (an explicit path), `k6` on PATH when it is a v2 release, the
 * cached build in `.tools/k6/<version>/k6`. Every k6 invocation gets
 * K6_AUTO_EXTENSION_RESOLUTION=false (k6Env), so k6 never fetches an extension-enabled
 * binary on its own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { K6NotFound } from '../../errors.js';

/** The one k6 release this harness builds and tests with. */
export const K6_VERSION = 'v2.2.0';
export const K6_MODULE = 'go.k6.io/k6/v2';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const VERSION_TIMEOUT_MS = 15_000;

export function toolsDir(root = REPO_ROOT, version = K6_VERSION): string {
  return join(root, '.tools', 'k6', version);
}

export function cachedBinaryPath(root = REPO_ROOT, version = K6_VERSION): string {
  return join(toolsDir(root, version), process.platform === 'win32' ? 'k6.exe' : 'k6');
}

/** The environment every k6 process gets: automatic extension resolution off, always. */
export function k6Env(
  extra: Record<string, string | undefined> = {},
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return { ...base, ...extra, K6_AUTO_EXTENSION_RESOLUTION: 'false' };
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
export function findK6(root = REPO_ROOT, explicit = process.env.LOAD_K6_BINARY): FoundK6 | undefined {
  if (explicit) {
    const version = binaryVersion(explicit);
    if (!isV2(version))
      throw new K6NotFound(`LOAD_K6_BINARY=${explicit} is not a runnable k6 v2 (reports ${version ?? 'nothing'})`);
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
