/**
 * The bundle a run starts from (src/cli/bundle.ts) and the test of its freshness
 * (src/install/bundles.js): made from a small project of its own in a temporary folder, so that
 * nothing here touches the harness's sources or its cache.
 */
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshBundle, MANIFEST_NAME, type BundleManifest } from '../../src/install/bundles.js';
import { writeCliBundle } from '../../src/cli/bundle.js';
import { runHarness } from '../support/child.js';

let root: string;
let cache: string;

/** A whole second, a minute ago: sources older than the build, and times a test can set back exactly. */
const SAVED_AT = Math.floor(Date.now() / 1000) - 60;

/** A project shaped like the harness: src/cli/main.ts, which imports a module that finds a file beside itself. */
function writeProject(): void {
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  mkdirSync(join(root, 'src', 'data'), { recursive: true });
  writeFileSync(join(root, 'src', 'data', 'greeting.txt'), 'hello from beside the source');
  writeFileSync(
    join(root, 'src', 'data', 'read.ts'),
    "import { readFileSync } from 'node:fs';\nexport const HERE: string = import.meta.url;\nexport const greeting = (): string => readFileSync(new URL('./greeting.txt', import.meta.url), 'utf8');\n",
  );
  writeFileSync(
    join(root, 'src', 'cli', 'main.ts'),
    "import { greeting, HERE } from '../data/read.js';\nexport async function main(argv: readonly string[]): Promise<number> {\n  process.stdout.write(JSON.stringify({ argv, here: HERE, greeting: greeting() }));\n  return 7;\n}\n",
  );
  for (const file of ['src/data/greeting.txt', 'src/data/read.ts', 'src/cli/main.ts'])
    utimesSync(join(root, file), SAVED_AT, SAVED_AT);
}

/** Runs the bundle's main as bin/svc-harness.js does, in a node of its own. */
function runBundle(bundle: string, args: string[]) {
  const runner = join(root, 'run.mjs');
  writeFileSync(
    runner,
    `const { main } = await import(${JSON.stringify(pathToFileURL(bundle).href)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
  );
  return spawnSync(process.execPath, [runner, ...args], { encoding: 'utf8', timeout: 20_000 });
}

function manifestOf(): BundleManifest {
  return JSON.parse(readFileSync(join(cache, MANIFEST_NAME), 'utf8')) as BundleManifest;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bundle-project-'));
  cache = join(root, 'node_modules', '.cache', 'svc-harness');
  writeProject();
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('writeCliBundle', () => {
  it('makes a bundle that runs main, each module keeping its own import.meta.url', async () => {
    const bundle = await writeCliBundle(cache, root);
    expect(freshBundle(cache, root)).toBe(bundle);
    const run = runBundle(bundle, ['certify', '--help']);
    expect(run.status, run.stderr).toBe(7);
    expect(JSON.parse(run.stdout)).toEqual({
      argv: ['certify', '--help'],
      here: pathToFileURL(join(root, 'src', 'data', 'read.ts')).href,
      greeting: 'hello from beside the source',
    });
  });

  it('lists every source it read as an input, with its time and size, and the two modules that make and read it', async () => {
    await writeCliBundle(cache, root);
    const { inputs } = manifestOf();
    const own = ['../../src/cli/bundle.ts', '../../src/install/bundles.js'].map((file) =>
      relative(root, fileURLToPath(new URL(file, import.meta.url))),
    );
    for (const file of ['src/cli/main.ts', 'src/data/read.ts', ...own]) {
      const stats = statSync(join(root, file));
      expect(inputs[file]).toEqual([stats.mtimeMs, stats.size]);
    }
  });

  it('made twice at once, leaves one whole bundle that the manifest names', async () => {
    const [first, second] = await Promise.all([writeCliBundle(cache, root), writeCliBundle(cache, root)]);
    expect(first).toBe(second);
    expect(readdirSync(cache).sort()).toEqual([MANIFEST_NAME, manifestOf().bundle.split('/')[0]!].sort());
    expect(runBundle(first, []).status).toBe(7);
  });

  it('leaves the bundle readable by every user of the install (the harness image makes it as root, runs as nobody)', async () => {
    const bundle = await writeCliBundle(cache, root);
    expect(statSync(join(bundle, '..')).mode & 0o777).toBe(0o755);
    expect(statSync(bundle).mode & 0o044).toBe(0o044);
  });

  it('keeps no bundle of a source edited while it was made', async () => {
    // An edit esbuild may not have seen: the source's time is after the build began.
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src', 'data', 'read.ts'), future, future);
    await expect(writeCliBundle(cache, root)).rejects.toThrow('src/data/read.ts changed while the bundle was made');
    expect(freshBundle(cache, root)).toBeUndefined();
  });
});

describe('freshBundle', () => {
  it('is undefined without a manifest, or with one that does not parse', () => {
    expect(freshBundle(cache, root)).toBeUndefined();
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, MANIFEST_NAME), '{"root":');
    expect(freshBundle(cache, root)).toBeUndefined();
  });

  it('is undefined once a source is edited (its time or its size) or removed', async () => {
    await writeCliBundle(cache, root);
    const source = join(root, 'src', 'data', 'read.ts');
    utimesSync(source, SAVED_AT, SAVED_AT + 1);
    expect(freshBundle(cache, root)).toBeUndefined();
    utimesSync(source, SAVED_AT, SAVED_AT);
    expect(freshBundle(cache, root)).toBeDefined();
    writeFileSync(source, `${readFileSync(source, 'utf8')}// more\n`);
    utimesSync(source, SAVED_AT, SAVED_AT);
    expect(freshBundle(cache, root)).toBeUndefined();
    rmSync(source);
    expect(freshBundle(cache, root)).toBeUndefined();
  });

  it('is undefined, never a throw, for a manifest of another shape', () => {
    mkdirSync(cache, { recursive: true });
    writeFileSync(
      join(cache, MANIFEST_NAME),
      JSON.stringify({ root, bundle: 'cli-0/main.mjs', inputs: { 'src/cli/main.ts': 5 } }),
    );
    expect(freshBundle(cache, root)).toBeUndefined();
  });

  it('is undefined once the bundle itself is removed', async () => {
    const bundle = await writeCliBundle(cache, root);
    rmSync(join(bundle, '..'), { recursive: true });
    expect(freshBundle(cache, root)).toBeUndefined();
  });

  it('is undefined for a project moved since (another folder)', async () => {
    await writeCliBundle(cache, root);
    expect(freshBundle(cache, `${root}-moved`)).toBeUndefined();
  });
});

describe('bin/svc-harness.js', () => {
  it('runs from a fresh bundle of the harness after a run from the sources made it', async () => {
    const first = await runHarness(['--version'], { timeoutMs: 30_000 });
    const version = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
    expect(first.stdout).toBe(`${version}\n`);
    const bundle = freshBundle();
    expect(bundle, 'no fresh bundle after a run').toBeDefined();
    const second = runBundle(bundle!, ['--version']);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toBe(`${version}\n`);
  });
});
