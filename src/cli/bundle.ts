/**
 * The harness's sources bundled with esbuild (an ES module per command, split where they
 * share), so that a run starts without tsx: bin/svc-harness.js runs it while
 * bin/fresh-bundle.js finds it fresh, and makes it on a run that did not. A one-check certify
 * run took 1.95 CPU-s from the sources through tsx; from this bundle, with V8's compile cache
 * on (bin/svc-harness.js), 1.03. The fault matrix pays that start on each of its 114 runs.
 *
 * The bundle behaves as the sources do: every `import.meta.url` keeps the URL of the file it
 * is written in (the harness finds its suites, fixtures and workers beside its sources), names
 * are kept as tsx keeps them, and the packages in node_modules stay imports.
 */
import { createHash } from 'node:crypto';
import { accessSync, chmodSync, constants as fsConstants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { BUNDLE_DIR, HARNESS_ROOT, MANIFEST_NAME, type BundleManifest } from '../../bin/fresh-bundle.js';

const ENTRY = 'src/cli/main.ts';
/** Older bundles (and a crashed run's half-written one) are removed once this old: a run that read the manifest just before may still be importing one. */
const KEEP_OLD_BUNDLES_MS = 10 * 60_000;

/** Makes the bundle and its manifest in `dir`; returns the bundle's path. */
export async function writeCliBundle(dir = BUNDLE_DIR, root = HARNESS_ROOT): Promise<string> {
  const started = Date.now();
  // A read-only install (the harness image runs as nobody) is found before esbuild's work.
  mkdirSync(dir, { recursive: true });
  accessSync(dir, fsConstants.W_OK);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [ENTRY],
    bundle: true,
    // A command's modules, and the packages they import, load when it runs, as from the sources.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    keepNames: true,
    // The maps tell a bug's stack in the sources' lines (src/cli/stack.ts); Node's own
    // --enable-source-maps would cost every run 0.14 CPU-s.
    sourcemap: 'linked',
    outdir: join(dir, 'out'),
    outExtension: { '.js': '.mjs' },
    entryNames: 'main',
    write: false,
    metafile: true,
    plugins: [ownImportMetaUrl],
    logLevel: 'silent',
    legalComments: 'none',
  });
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(relative(dir, file.path)).update(file.contents);
  const name = `cli-${hash.digest('hex').slice(0, 16)}`;
  // This module decides what the bundle is, and bin/fresh-bundle.js reads its manifest: inputs too.
  const own = [import.meta.filename, fileURLToPath(new URL('../../bin/fresh-bundle.js', import.meta.url))].map((file) => relative(root, file));
  const inputs = inputsOf([...Object.keys(result.metafile.inputs), ...own], root, started);
  const manifest: BundleManifest = { root, bundle: join(name, 'main.mjs'), inputs };
  placeBundle(dir, name, result.outputFiles.map((file) => ({ path: relative(join(dir, 'out'), file.path), contents: file.contents })));
  const manifestPath = join(dir, MANIFEST_NAME);
  writeFileSync(`${manifestPath}.${process.pid}.tmp`, JSON.stringify(manifest));
  renameSync(`${manifestPath}.${process.pid}.tmp`, manifestPath);
  removeOldBundles(dir, name);
  return join(dir, manifest.bundle);
}

/** Each input's time and size, read after the build: one edited since `started` may not be in the bundle. */
function inputsOf(files: string[], root: string, started: number): BundleManifest['inputs'] {
  const inputs: BundleManifest['inputs'] = {};
  for (const file of new Set(files)) {
    const stats = statSync(join(root, file));
    if (stats.mtimeMs >= started) throw new Error(`${file} changed while the bundle was made`);
    inputs[file] = [stats.mtimeMs, stats.size];
  }
  return inputs;
}

/**
 * Writes the bundle's files whole under a folder of their own, then renames that into place:
 * another run making the same bundle at the same moment finds it there, or puts its identical
 * copy there.
 */
function placeBundle(dir: string, name: string, files: Array<{ path: string; contents: Uint8Array }>): void {
  const staging = mkdtempSync(join(dir, 'staging-'));
  try {
    // mkdtemp's 0700 would hide the bundle from every other user of the install (the harness
    // image makes it as root and runs as nobody); it is no more secret than the sources.
    chmodSync(staging, 0o755);
    for (const file of files) {
      mkdirSync(dirname(join(staging, file.path)), { recursive: true });
      writeFileSync(join(staging, file.path), file.contents);
    }
    renameSync(staging, join(dir, name));
  } catch (error) {
    if (!existsSync(join(dir, name, 'main.mjs'))) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Each source's `import.meta.url` as the literal URL of that source: in one bundle they would all be the bundle's. */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

function removeOldBundles(dir: string, current: string): void {
  const now = Date.now();
  for (const file of readdirSync(dir)) {
    if (!(file.startsWith('cli-') || file.startsWith('staging-')) || file === current) continue;
    const path = join(dir, file);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats && now - stats.mtimeMs > KEEP_OLD_BUNDLES_MS) rmSync(path, { recursive: true, force: true });
  }
}
