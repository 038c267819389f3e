/**
 * `npm run image`: builds the reference implementation as a container image from what is
 * on this machine (no base image is pulled): the reference bundled into one file with
 * esbuild, the Node binary and the shared libraries `ldd` lists for it, in a `FROM scratch`
 * image (Containerfile). Prints the image's name as its last line.
 *
 * Environment: IMAGE_NAME (default localhost/svc-reference:<harness version>),
 * IMAGE_BUILDER (podman | docker; default podman when on PATH, else docker).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CONTEXT_DIR = join(ROOT, '.tools', 'image', 'context');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
export const DEFAULT_IMAGE = `localhost/svc-reference:${VERSION}`;

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

export async function prepareContext(contextDir = CONTEXT_DIR): Promise<void> {
  rmSync(contextDir, { recursive: true, force: true });
  const rootfs = join(contextDir, 'rootfs');
  await build({
    entryPoints: [join(ROOT, 'scripts', 'image', 'entry.ts')],
    outfile: join(rootfs, 'app', 'reference.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    sourcemap: false,
    minify: false,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const node = realpathSync(process.execPath);
  // The binary goes to /usr/bin/node whatever its path here; the libraries keep theirs.
  mkdirSync(join(rootfs, 'usr', 'bin'), { recursive: true });
  copyFileSync(node, join(rootfs, 'usr', 'bin', 'node'));
  chmodSync(join(rootfs, 'usr', 'bin', 'node'), 0o755);
  for (const library of sharedLibraries(node)) copyInto(rootfs, library);
  // os.tmpdir() for anything that needs it; world-writable with the sticky bit.
  mkdirSync(join(rootfs, 'tmp'), { recursive: true });
  chmodSync(join(rootfs, 'tmp'), 0o1777);
  copyFileSync(join(ROOT, 'Containerfile'), join(contextDir, 'Containerfile'));
}

export function chooseBuilder(): string {
  const wanted = process.env.IMAGE_BUILDER;
  if (wanted) return wanted;
  return spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0 ? 'podman' : 'docker';
}

export async function buildImage(name = process.env.IMAGE_NAME || DEFAULT_IMAGE, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<string> {
  const started = performance.now();
  await prepareContext();
  const builder = chooseBuilder();
  log(`image: context ready in ${Math.round(performance.now() - started)} ms; building ${name} with ${builder}`);
  const result = spawnSync(builder, ['build', '--label', 'svc-conformance.reference=true', '-t', name, '-f', join(CONTEXT_DIR, 'Containerfile'), CONTEXT_DIR], {
    stdio: ['ignore', 2, 2], // stdout keeps only the image name
  });
  if (result.error) throw new Error(`${builder} build could not start: ${result.error.message} (install podman: npm run engine)`);
  if (result.status !== 0) throw new Error(`${builder} build failed with exit code ${result.status}`);
  log(`image: built ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return name;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const name = await buildImage();
    process.stdout.write(`${name}\n`);
  } catch (error) {
    process.stderr.write(`image: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
