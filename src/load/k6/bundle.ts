/**
 * Bundles each load/scenarios/*.ts into load/dist/*.js with esbuild (k6 and k6/* left
 * external, ES modules), ready for `k6 run` or a k6-operator ConfigMap. `svc-harness load`
 * does it before each run; `npm run load:build` (scripts/load-build.ts) does only this.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SCENARIO_DIR = join(ROOT, 'load', 'scenarios');
export const DIST_DIR = join(ROOT, 'load', 'dist');

export function scenarioNames(): string[] {
  return readdirSync(SCENARIO_DIR)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => basename(file, '.ts'))
    .sort();
}

/** Bundles every scenario; returns name → bundle path. */
export async function buildLoadScripts(): Promise<Record<string, string>> {
  const names = scenarioNames();
  const result = await build({
    entryPoints: names.map((name) => join(SCENARIO_DIR, `${name}.ts`)),
    outdir: DIST_DIR,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    // k6 v2's JavaScript runtime handles ES2020 syntax natively.
    target: 'es2020',
    external: ['k6', 'k6/*'],
    sourcemap: false,
    minify: false,
    logLevel: 'warning',
    legalComments: 'none',
    write: false,
  });
  mkdirSync(DIST_DIR, { recursive: true });
  for (const file of result.outputFiles) replaceWhole(file.path, file.contents);
  return Object.fromEntries(names.map((name) => [name, join(DIST_DIR, `${name}.js`)]));
}

/**
 * Puts `contents` at `path` by renaming a whole file over it, and only when it differs: load
 * runs side by side (the load tests do) each bundle before starting k6, and k6 reading a
 * file that esbuild is rewriting in place found "no exported functions in script".
 */
export function replaceWhole(path: string, contents: Uint8Array): void {
  if (sameContents(path, contents)) return;
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}

function sameContents(path: string, contents: Uint8Array): boolean {
  return existsSync(path) && readFileSync(path).equals(contents);
}
