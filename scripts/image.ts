/**
 * `npm run image [-- reference|harness]`: builds a container image from what is on this
 * machine (no base image is pulled), `FROM scratch` with the Node binary and the shared
 * libraries `ldd` lists for it. Prints the image's name as its last line.
 * - reference (default): the reference implementation bundled into one file with esbuild
 *   (Containerfile);
 * - harness: the harness as published (the tarball of scripts/pack-harness.ts), `svc-harness`
 *   as entry point, with its production dependencies (`npm ci --omit=dev` from the npm cache,
 *   as its npm-shrinkwrap.json pins them) and openssl (Containerfile.harness).
 *
 * Environment: IMAGE_NAME (default localhost/svc-<kind>:<harness version>),
 * IMAGE_BUILDER (podman | docker; default podman when on PATH, else docker).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleReference } from '../reference/dev/bundle.js';
import { packHarness } from './pack-harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export type ImageKind = 'reference' | 'harness';
export const DEFAULT_IMAGES: Record<ImageKind, string> = {
  reference: `localhost/svc-reference:${VERSION}`,
  harness: `localhost/svc-harness:${VERSION}`,
};
export const DEFAULT_IMAGE = DEFAULT_IMAGES.reference;
const contextDir = (kind: ImageKind): string => join(ROOT, '.tools', 'image', kind);

/** The shared libraries (and the loader) a binary needs, as absolute paths, from `ldd`. */
export function sharedLibraries(binary: string): string[] {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  const paths = new Set<string>();
  for (const line of out.split('\n')) {
    // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)" or "/lib64/ld-linux-x86-64.so.2 (0x…)"
    const match = /(?:=>\s*)?(\/\S+)\s+\(0x[0-9a-f]+\)/.exec(line);
    if (match) paths.add(match[1]!);
    else if (/=>\s*not found/.test(line)) throw new Error(`ldd ${binary}: ${line.trim()}`);
  }
  return [...paths];
}

/** Copies a file to the same absolute path under rootfs, and, for a symlink, its target too. */
function copyInto(rootfs: string, path: string): void {
  const target = join(rootfs, path);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(realpathSync(path), target);
  chmodSync(target, statSync(realpathSync(path)).mode & 0o777);
}

/** Node at /usr/bin/node whatever its path here, its libraries at theirs, and a /tmp. */
function copyNodeRuntime(rootfs: string): void {
  copyBinary(rootfs, realpathSync(process.execPath), '/usr/bin/node');
  // os.tmpdir() for anything that needs it; world-writable with the sticky bit.
  mkdirSync(join(rootfs, 'tmp'), { recursive: true });
  chmodSync(join(rootfs, 'tmp'), 0o1777);
}

function copyBinary(rootfs: string, binary: string, at: string): void {
  mkdirSync(join(rootfs, dirname(at)), { recursive: true });
  copyFileSync(binary, join(rootfs, at));
  chmodSync(join(rootfs, at), 0o755);
  for (const library of sharedLibraries(binary)) copyInto(rootfs, library);
}

async function prepareReferenceContext(context: string): Promise<void> {
  const rootfs = join(context, 'rootfs');
  await bundleReference(join(ROOT, 'scripts', 'image', 'entry.ts'), join(rootfs, 'app', 'reference.cjs'));
  copyNodeRuntime(rootfs);
  copyFileSync(join(ROOT, 'Containerfile'), join(context, 'Containerfile'));
}

async function prepareHarnessContext(context: string): Promise<void> {
  const rootfs = join(context, 'rootfs');
  const app = join(rootfs, 'app');
  unpackHarness(app);
  // Exactly the locked production dependencies; the npm cache of this machine serves them.
  const install = spawnSync(
    'npm',
    ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
    { cwd: app, stdio: ['ignore', 2, 2] },
  );
  if (install.status !== 0)
    throw new Error(
      `npm ci --omit=dev for the harness image failed with exit code ${install.status ?? install.error?.message}`,
    );
  copyNodeRuntime(rootfs);
  // Native addons (rollup's, for one) load shared libraries the node binary itself does not.
  for (const addon of nativeAddons(join(app, 'node_modules')))
    for (const library of sharedLibraries(addon)) copyInto(rootfs, library);
  // openssl makes the receiver's certificate for each run (src/tls/self-signed.ts).
  const openssl = execFileSync('sh', ['-c', 'command -v openssl'], { encoding: 'utf8' }).trim();
  copyBinary(rootfs, realpathSync(openssl), '/usr/bin/openssl');
  mkdirSync(join(rootfs, 'etc', 'ssl'), { recursive: true });
  copyFileSync(realpathSync('/usr/lib/ssl/openssl.cnf'), join(rootfs, 'etc', 'ssl', 'openssl.cnf'));
  // The working directory: reports go to /work/reports (mount a volume there to keep them).
  mkdirSync(join(rootfs, 'work', 'reports'), { recursive: true });
  chmodSync(join(rootfs, 'work'), 0o1777);
  chmodSync(join(rootfs, 'work', 'reports'), 0o1777);
  copyFileSync(join(ROOT, 'Containerfile.harness'), join(context, 'Containerfile'));
}

/** The published package's files, as `npm install` would unpack them, in `app`. */
function unpackHarness(app: string): void {
  const packDir = mkdtempSync(join(tmpdir(), 'svc-harness-image-'));
  try {
    const { tarball } = packHarness(packDir);
    mkdirSync(app, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', app, '--strip-components=1', '--no-same-owner']);
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
}

function nativeAddons(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.node'))
    .map((path) => join(dir, path));
}

export async function prepareContext(kind: ImageKind): Promise<string> {
  const context = contextDir(kind);
  rmSync(context, { recursive: true, force: true });
  if (kind === 'reference') await prepareReferenceContext(context);
  else await prepareHarnessContext(context);
  return context;
}

export function chooseBuilder(): string {
  const wanted = process.env.IMAGE_BUILDER;
  if (wanted) return wanted;
  return spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0 ? 'podman' : 'docker';
}

export async function buildImage(
  name = process.env.IMAGE_NAME || DEFAULT_IMAGE,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  kind: ImageKind = 'reference',
): Promise<string> {
  const started = performance.now();
  const context = await prepareContext(kind);
  const builder = chooseBuilder();
  log(`image: context ready in ${Math.round(performance.now() - started)} ms; building ${name} with ${builder}`);
  const result = spawnSync(
    builder,
    ['build', '--label', `svc-conformance.${kind}=true`, '-t', name, '-f', join(context, 'Containerfile'), context],
    {
      stdio: ['ignore', 2, 2], // stdout keeps only the image name
    },
  );
  if (result.error)
    throw new Error(`${builder} build could not start: ${result.error.message} (install podman: npm run engine)`);
  if (result.status !== 0) throw new Error(`${builder} build failed with exit code ${result.status}`);
  log(`image: built ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return name;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const kind = process.argv[2] ?? 'reference';
  try {
    if (kind !== 'reference' && kind !== 'harness')
      throw new Error(`unknown image "${kind}": use reference or harness`);
    const name = await buildImage(process.env.IMAGE_NAME || DEFAULT_IMAGES[kind], undefined, kind);
    process.stdout.write(`${name}\n`);
  } catch (error) {
    process.stderr.write(`image: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
