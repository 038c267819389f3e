/**
 * The harness packed as `npm publish` packs it, from a staged copy of the package's files:
 * packing makes dist/ (scripts/build-package.ts), which must never appear in the clone while
 * other runs start its commands. The install test and the harness image both start from it.
 *
 *   npx tsx scripts/pack-harness.ts <folder>   writes the tarball there, prints its path
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const PACK_LIMIT_MS = 180_000;

export interface PackedHarness {
  /** The tarball's path. */
  tarball: string;
  /** Its size in bytes, and the size of what it unpacks to. */
  size: number;
  unpackedSize: number;
  /** Every file in it, relative to the package's folder. */
  files: string[];
}

export function packHarness(destination: string): PackedHarness {
  const { files } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  const stage = mkdtempSync(join(tmpdir(), 'svc-harness-stage-'));
  try {
    mkdirSync(join(stage, 'scripts'));
    for (const entry of [...files, 'package.json', 'package-lock.json', 'scripts/build-package.ts']) {
      if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(stage, entry), { recursive: true });
    }
    // The build tools (tsx, esbuild) the prepack script runs with.
    symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'));
    const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', resolve(destination)], {
      cwd: stage,
      encoding: 'utf8',
      timeout: PACK_LIMIT_MS,
    });
    if (pack.status !== 0)
      throw new Error(`npm pack failed (exit ${pack.status ?? pack.error?.message}):\n${pack.stderr}`);
    const [result] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{
      filename: string;
      size: number;
      unpackedSize: number;
      files: Array<{ path: string }>;
    }>;
    if (!result) throw new Error('npm pack printed no result');
    return {
      tarball: join(resolve(destination), result.filename),
      size: result.size,
      unpackedSize: result.unpackedSize,
      files: result.files.map((file) => file.path),
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  const destination = process.argv[2];
  if (!destination) {
    process.stderr.write('usage: tsx scripts/pack-harness.ts <folder>\n');
    process.exit(2);
  }
  process.stdout.write(`${packHarness(destination).tarball}\n`);
}
