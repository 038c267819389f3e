/**
 * The harness as a user installs it: packed as `npm publish` would pack it, installed from the
 * tarball outside the clone into a prefix the user running it cannot write (another user owns
 * it), and run from there.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packHarness, type PackedHarness } from '../../scripts/pack-harness.js';
import { ROOT, withoutSettings } from '../support/child.js';

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  dependencies: Record<string, string>;
}

const SOURCE_PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
/** Tools the harness is built and tested with, never needed by its commands. */
const DEVELOPMENT_ONLY = ['typescript', 'playwright-core', 'express', 'autocannon', '@types/k6'];
const INSTALL_LIMIT_MS = 240_000;
const COMMAND_LIMIT_MS = 60_000;

/** The user the installed commands run as: another than the prefix's owner when this runs as root. */
const asRoot = userInfo().uid === 0;
const RUN_AS = asRoot ? 'nobody' : undefined;

let scratch: string;
let tarball: string;
let packed: PackedHarness;
let prefix: string;
let installFolder: string;
let snapshotBefore: string;
/** A folder holding this Node as `node`, which the other user can reach (the clone may be in a folder only its owner can enter). */
let nodeDir: string;
/** The other user's uid, found once. */
let runAsUid: number;

function run(command: string, args: string[], options: SpawnSyncOptions & { timeout: number }) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.error) throw result.error;
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Every file and folder under the install, with its size and modification time: any write changes it. */
function snapshot(folder: string): string {
  const lines: string[] = [];
  const walk = (path: string) => {
    const stats = statSync(path);
    lines.push(`${path} ${stats.size} ${stats.mtimeMs} ${stats.mode}`);
    if (stats.isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(path, entry));
  };
  walk(folder);
  return lines.join('\n');
}

/** `svc-harness <args>` from the install, as the other user, in a working folder of that user's. */
function installedHarness(args: string[], env: Record<string, string> = {}, options: { asOwner?: boolean } = {}) {
  const work = mkdtempSync(join(scratch, 'work-'));
  const base = {
    ...withoutSettings(),
    PATH: `${join(prefix, 'bin')}:${nodeDir}:/usr/bin:/bin`,
    HOME: RUN_AS && !options.asOwner ? '/nonexistent' : work,
    ...env,
  };
  if (RUN_AS && !options.asOwner) {
    chownSync(work, runAsUid, -1);
    const assignments = Object.entries(base).map(([name, value]) => `${name}=${value}`);
    return {
      work,
      ...run('runuser', ['-u', RUN_AS, '--', 'env', '-i', ...assignments, 'svc-harness', ...args], {
        cwd: work,
        timeout: COMMAND_LIMIT_MS,
      }),
    };
  }
  return {
    work,
    ...run(join(prefix, 'bin', 'svc-harness'), args, { cwd: work, env: base, timeout: COMMAND_LIMIT_MS }),
  };
}

function uidOf(user: string): number {
  const id = run('id', ['-u', user], { timeout: 5_000 });
  if (id.status !== 0) throw new Error(`no user ${user} on this machine: ${id.stderr}`);
  return Number(id.stdout.trim());
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'svc-harness-package-'));
  // Another user must reach what is installed here, and nothing more.
  chmodSync(scratch, 0o755);
  if (RUN_AS) runAsUid = uidOf(RUN_AS);
  nodeDir = join(scratch, 'node');
  mkdirSync(nodeDir, { mode: 0o755 });
  copyFileSync(process.execPath, join(nodeDir, 'node'));
  chmodSync(join(nodeDir, 'node'), 0o755);
  packed = packHarness(scratch);
  tarball = packed.tarball;

  prefix = join(scratch, 'prefix');
  mkdirSync(prefix, { mode: 0o755 });
  const install = run(
    'npm',
    ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball],
    { cwd: scratch, timeout: INSTALL_LIMIT_MS },
  );
  expect(install.status, install.stderr).toBe(0);
  installFolder = join(prefix, 'lib', 'node_modules', SOURCE_PACKAGE.name);
  // Run as this user (not root), the install is made read-only for it instead.
  if (!RUN_AS) run('chmod', ['-R', 'a-w', prefix], { timeout: 30_000 });
  snapshotBefore = snapshot(installFolder);
}, INSTALL_LIMIT_MS * 2);

afterAll(() => {
  if (!scratch) return;
  if (!RUN_AS && prefix) run('chmod', ['-R', 'u+w', prefix], { timeout: 30_000 });
  rmSync(scratch, { recursive: true, force: true });
});

describe('the packed harness', () => {
  it('is publishable: not private, with a licence that LICENSE states', () => {
    const pkg = JSON.parse(readFileSync(join(installFolder, 'package.json'), 'utf8')) as PackageJson;
    expect(pkg.private).toBeUndefined();
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(installFolder, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  });

  it('ships its compiled bundle and its pinned dependency tree, and none of the tests, scripts or benchmarks', () => {
    const paths = packed.files;
    expect(paths).toContain('dist/main.mjs');
    expect(paths).toContain('npm-shrinkwrap.json');
    expect(paths.filter((path) => /^(test|scripts|benchmarks|reports|\.ci)\//.test(path))).toEqual([]);
  });

  it('needs none of the development tools at run time', () => {
    expect(Object.keys(SOURCE_PACKAGE.dependencies).filter((name) => DEVELOPMENT_ONLY.includes(name))).toEqual([]);
    for (const name of DEVELOPMENT_ONLY)
      expect(existsSync(join(installFolder, 'node_modules', name)), name).toBe(false);
  });

  it('prints its version', () => {
    const version = installedHarness(['--version']);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toBe(`${SOURCE_PACKAGE.version}\n`);
  });

  it("prints certify's help", () => {
    const help = installedHarness(['certify', '--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: svc-harness certify /);
  });

  it('certifies the bundled reference on one check, from outside any clone', () => {
    const certify = installedHarness(['certify', '--checks', 'AUTH-WHOAMI-ACCEPTED', '--report-dir', 'reports']);
    expect(certify.status, certify.stdout + certify.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(certify.work, 'reports', 'report.json'), 'utf8')) as {
      checks: Array<{ id: string; verdict: string }>;
    };
    expect(report.checks.filter((check) => check.verdict === 'pass').map((check) => check.id)).toEqual([
      'AUTH-WHOAMI-ACCEPTED',
    ]);
  });

  it.runIf(asRoot)('writes nothing into its folder even where it could (run by the owner)', () => {
    const certify = installedHarness(
      ['certify', '--checks', 'AUTH-WHOAMI-ACCEPTED', '--report-dir', 'reports'],
      {},
      { asOwner: true },
    );
    expect(certify.status, certify.stdout + certify.stderr).toBe(0);
    expect(snapshot(installFolder)).toBe(snapshotBefore);
  });

  it('wrote nothing into its install folder', () => {
    expect(snapshot(installFolder)).toBe(snapshotBefore);
  });
});
