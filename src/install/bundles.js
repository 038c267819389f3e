// @ts-check
/**
 * Where the harness is installed and which bundle of its sources (made by src/cli/bundle.ts)
 * a run starts from: plain JavaScript, since bin/start.js decides before any TypeScript can
 * be loaded. A packed package's bundle is always the one; a clone's is used while fresh: the
 * folder it was made from is this one and every file it was made from has the size and
 * modification time it had then.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the bundle was made from, written beside it as manifest.json.
 * @typedef {object} BundleManifest
 * @property {string} root the harness's folder, absolute
 * @property {string} bundle the bundle's entry module, relative to the cache folder
 * @property {Record<string, [mtimeMs: number, size: number]>} inputs each file it was made from, relative to root
 */

/** The harness's folder (this file is in its src/install/). */
export const HARNESS_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Where bundles and their manifest are kept: beside the install's other caches (vite's, vitest's). */
export const BUNDLE_DIR = join(HARNESS_ROOT, 'node_modules', '.cache', 'svc-harness');

export const MANIFEST_NAME = 'manifest.json';

/** Where a packed package keeps its bundle, relative to the harness's folder (src/cli/bundle.ts writePackageBundle). */
export const PACKAGE_BUNDLE_DIR = 'dist';

/**
 * The bundle a published package ships, when this is one: made at pack time, it is never
 * checked against the sources (an install's are what it was made from) and never rewritten.
 * @param {string} [root] the harness's folder
 * @returns {string | undefined}
 */
export function packagedBundle(root = HARNESS_ROOT) {
  const bundle = join(root, PACKAGE_BUNDLE_DIR, 'main.mjs');
  return statSync(bundle, { throwIfNoEntry: false }) ? bundle : undefined;
}

/**
 * The bundle's path when it is fresh, else undefined (no bundle, a moved folder, an edited
 * or removed source, an unreadable manifest or bundle, the bundle itself removed).
 * @param {string} [dir] the cache folder
 * @param {string} [root] the harness's folder
 * @returns {string | undefined}
 */
export function freshBundle(dir = BUNDLE_DIR, root = HARNESS_ROOT) {
  // Any error (an unreadable file, a manifest of another shape) means the sources run instead.
  try {
    /** @type {BundleManifest} */
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_NAME), 'utf8'));
    if (manifest.root !== root || typeof manifest.bundle !== 'string' || typeof manifest.inputs !== 'object')
      return undefined;
    for (const [file, [mtimeMs, size]] of Object.entries(manifest.inputs)) {
      const stats = statSync(join(root, file), { throwIfNoEntry: false });
      if (!stats || stats.mtimeMs !== mtimeMs || stats.size !== size) return undefined;
    }
    const bundle = join(dir, manifest.bundle);
    return statSync(bundle, { throwIfNoEntry: false }) ? bundle : undefined;
  } catch {
    return undefined;
  }
}
