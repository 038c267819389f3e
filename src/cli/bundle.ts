/**
 * The harness's sources bundled with esbuild (an ES module per command, split where they
 * share), so that a run starts without tsx, which would transform every source on every
 * start (the fault matrix pays that start once per run). Two places hold a bundle:
 * - a published package's `dist/`, made when it is packed; bin/start.js runs it whenever
 *   it is there;
 * - in a clone, a cache under node_modules that bin/svc-harness.js runs while
 *   src/install/bundles.js finds it fresh, and makes on a run that did not.
 *
 * The bundle behaves as the sources do: every `import.meta.url` keeps the URL of the file it
 * is written in (the harness finds its suites, fixtures and workers beside its sources), names
 * are kept as tsx keeps them, and the packages in node_modules stay imports.
 */
import { RunAbort } from '../errors.js';
import { createHash } from 'node:crypto';
import {
  accessSync,
  chmodSync,
  constants as fsConstants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import {
  BUNDLE_DIR,
  HARNESS_ROOT,
  MANIFEST_NAME,
  PACKAGE_BUNDLE_DIR,
  type BundleManifest,
} from '../install/bundles.js';

const ENTRY = 'src/cli/main.ts';
/** Older bundles (and a crashed run's half-written one) are removed once this old: a run that read the manifest just before may still be importing one. */
const KEEP_OLD_BUNDLES_MS = 10 * 60_000;

/** Makes the bundle and its manifest in `dir`; returns the bundle's path. */
export async function writeCliBundle(dir = BUNDLE_DIR, root = HARNESS_ROOT): Promise<string> {
  const started = Date.now();
  // A clone this user cannot write (another user's) is found before esbuild's work.
  mkdirSync(dir, { recursive: true });
  accessSync(dir, fsConstants.W_OK);
  // Every bundle lands in a folder of its own one level under `dir` (named after its hash, known only once it is built).
  const result = await buildCli(root, join(dir, 'out'));
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(relative(dir, file.path)).update(file.contents);
  const name = `cli-${hash.digest('hex').slice(0, 16)}`;
  // This module decides what the bundle is, and src/install/bundles.js reads its manifest: inputs too.
  const own = [import.meta.filename, fileURLToPath(new URL('../install/bundles.js', import.meta.url))].map((file) =>
    relative(root, file),
  );
  const inputs = inputsOf([...Object.keys(result.metafile.inputs), ...own], root, started);
  const manifest: BundleManifest = { root, bundle: join(name, 'main.mjs'), inputs };
  placeBundle(
    dir,
    name,
    result.outputFiles.map((file) => ({ path: relative(join(dir, 'out'), file.path), contents: file.contents })),
  );
  const manifestPath = join(dir, MANIFEST_NAME);
  writeFileSync(`${manifestPath}.${process.pid}.tmp`, JSON.stringify(manifest));
  renameSync(`${manifestPath}.${process.pid}.tmp`, manifestPath);
  removeOldBundles(dir, name);
  return join(dir, manifest.bundle);
}

/**
 * The bundle of a published package, made when it is packed (`npm pack`, `npm publish`):
 * `dist/` of the package, which bin/start.js runs whenever it is there, so an installed
 * harness never bundles, compiles or writes anything in its own folder.
 */
export async function writePackageBundle(root = HARNESS_ROOT): Promise<string> {
  const outdir = join(root, PACKAGE_BUNDLE_DIR);
  rmSync(outdir, { recursive: true, force: true });
  const result = await buildCli(root, outdir);
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents);
  }
  return join(outdir, 'main.mjs');
}

/** esbuild's output for `outdir` (not written): an ES module per command, split where they share. */
function buildCli(root: string, outdir: string) {
  return build({
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
    // --enable-source-maps would slow every run's start.
    sourcemap: 'linked',
    // The sources ship beside the bundle; the maps only need to point at their lines.
    sourcesContent: false,
    outdir,
    outExtension: { '.js': '.mjs' },
    entryNames: 'main',
    write: false,
    metafile: true,
    plugins: [ownImportMetaUrl(outdir)],
    logLevel: 'silent',
    legalComments: 'none',
  });
}

/** Each input's time and size, read after the build: one edited since `started` may not be in the bundle. */
function inputsOf(files: string[], root: string, started: number): BundleManifest['inputs'] {
  const inputs: BundleManifest['inputs'] = {};
  for (const file of new Set(files)) {
    const stats = statSync(join(root, file));
    if (stats.mtimeMs >= started) throw new RunAbort(`${file} changed while the bundle was made`);
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

/**
 * Each source's `import.meta.url` as the URL of that source, found relative to the bundle's
 * own (in one bundle they would all be the bundle's): the bundle keeps working wherever the
 * folder holding it and the sources is installed or moved. Every output file of a build is
 * in one folder (`outdir`, or a folder of the same depth beside it), so one relative path
 * per source serves every chunk.
 */
function ownImportMetaUrl(outdir: string): Plugin {
  return {
    name: 'own-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.[jt]s$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const fromBundle = JSON.stringify(relative(outdir, args.path).split(sep).join('/'));
        return {
          contents: source.replaceAll('import.meta.url', `new URL(${fromBundle}, import.meta.url).href`),
          loader: args.path.endsWith('.ts') ? 'ts' : 'js',
        };
      });
    },
  };
}

function removeOldBundles(dir: string, current: string): void {
  const now = Date.now();
  for (const file of readdirSync(dir)) {
    if (!(file.startsWith('cli-') || file.startsWith('staging-')) || file === current) continue;
    const path = join(dir, file);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats && now - stats.mtimeMs > KEEP_OLD_BUNDLES_MS) rmSync(path, { recursive: true, force: true });
  }
}
