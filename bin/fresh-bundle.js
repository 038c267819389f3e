// @ts-check
/**
 * Whether the bundle of the harness's sources (made by src/cli/bundle.ts) may run instead of
 * the sources: plain JavaScript, since it decides before any TypeScript can be loaded. The
 * bundle is fresh when the folder it was made from is this one and every file it was made
 * from has the size and modification time it had then.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * What the bundle was made from, written beside it as manifest.json.
 * @typedef {object} BundleManifest
 * @property {string} root the harness's folder, absolute
 * @property {string} bundle the bundle's entry module, relative to the cache folder
 * @property {Record<string, [mtimeMs: number, size: number]>} inputs each file it was made from, relative to root
 */

/** The harness's folder (this file is in its bin/). */
export const HARNESS_ROOT = resolve(import.meta.dirname, '..');

/** Where bundles and their manifest are kept: beside the install's other caches (vite's, vitest's). */
export const BUNDLE_DIR = join(HARNESS_ROOT, 'node_modules', '.cache', 'svc-harness');

export const MANIFEST_NAME = 'manifest.json';

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
    if (manifest.root !== root || typeof manifest.bundle !== 'string' || typeof manifest.inputs !== 'object') return undefined;
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
