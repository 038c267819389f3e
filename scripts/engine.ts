/**
 * `npm run engine`: a Docker-compatible container engine for machines without Docker.
 * When DOCKER_HOST or /var/run/docker.sock already answers, prints that and starts
 * nothing. Otherwise installs Debian's podman and runc (apt-get, as root) if missing,
 * writes a containers.conf this machine accepts, starts `podman system service` on a unix
 * socket under .tools/engine/, and records its pid. The last line printed is
 * `DOCKER_HOST=unix://…`; .tools/engine/env holds every export a run needs (source it).
 *
 * `npm run engine -- stop`: stops the service it started (by the recorded pid), after
 * removing any container the harness left (label svc-conformance.certify).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = join(ROOT, '.tools', 'engine');
const PID_FILE = join(DIR, 'pid');
const CONF = join(DIR, 'containers.conf');
const ENV_FILE = join(DIR, 'env');
const LOG = join(DIR, 'service.log');
const DOCKER_SOCKET = '/var/run/docker.sock';
const LABEL = 'svc-conformance.certify';
const READY_TIMEOUT_MS = 30_000;

const log = (line: string) => process.stderr.write(`engine: ${line}\n`);

/** A unix socket path must fit in 108 bytes; a deep checkout falls back to the temp dir. */
function socketPath(): string {
  const inTree = join(DIR, 'podman.sock');
  return inTree.length < 100 ? inTree : join(tmpdir(), `svc-conformance-${process.getuid?.() ?? 0}.sock`);
}

/** GET /_ping on a Docker API socket: true when it answers OK. */
function ping(socket: string, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((done) => {
    const req = request({ socketPath: socket, path: '/_ping', timeout: timeoutMs }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(false));
    req.end();
  });
}

function unixPath(dockerHost: string | undefined): string | undefined {
  return dockerHost?.startsWith('unix://') ? dockerHost.slice('unix://'.length) : undefined;
}

function has(command: string): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

function installPodman(): void {
  if (has('podman') && has('runc')) return;
  if (process.getuid?.() !== 0)
    throw new Error('podman is not installed and installing it needs root: apt-get install podman runc');
  log('installing podman and runc (apt-get)…');
  const started = performance.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    [
      'install',
      '-y',
      '-qq',
      '--no-install-recommends',
      'podman',
      'runc',
      'containernetworking-plugins',
      'iptables',
      'uidmap',
      'fuse-overlayfs',
    ],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 2, 2], env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status})`);
  }
  log(`installed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Hard limits of this shell: default ulimits above them make every container start fail. */
function hardLimit(flag: '-Hn' | '-Hu'): number {
  const raw = execFileSync('bash', ['-c', `ulimit ${flag}`], { encoding: 'utf8' }).trim();
  return raw === 'unlimited' ? Number.POSITIVE_INFINITY : Number(raw);
}

function writeContainersConf(): void {
  const nofile = Math.min(hardLimit('-Hn'), 1_048_576);
  const nproc = Math.min(hardLimit('-Hu'), 32_768);
  writeFileSync(
    CONF,
    [
      "# Written by `npm run engine`: limits no higher than this machine's hard limits,",
      '# and runc (crun refuses a hybrid cgroup layout).',
      '[containers]',
      `default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]`,
      '',
      '[engine]',
      'runtime = "runc"',
      '',
    ].join('\n'),
  );
}

function recordedPid(): number | undefined {
  if (!existsSync(PID_FILE)) return undefined;
  const pid = Number(readFileSync(PID_FILE, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The pid is ours only while it is still a `podman system service` process. */
function isOurService(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes('system service');
  } catch {
    return false;
  }
}

function writeEnvFile(dockerHost: string, extra: Record<string, string>): void {
  const lines = Object.entries({
    DOCKER_HOST: dockerHost,
    TESTCONTAINERS_RYUK_DISABLED: 'true',
    TESTCONTAINERS_HOST_OVERRIDE: 'localhost',
    ...extra,
  }).map(([name, value]) => `export ${name}=${value}`);
  writeFileSync(ENV_FILE, lines.join('\n') + '\n');
}

async function start(): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  const given = unixPath(process.env.DOCKER_HOST) ?? (existsSync(DOCKER_SOCKET) ? DOCKER_SOCKET : undefined);
  if (given && (await ping(given))) {
    log(`an engine already answers at ${given}; starting none`);
    writeEnvFile(`unix://${given}`, {});
    process.stdout.write(`DOCKER_HOST=unix://${given}\n`);
    return;
  }
  const socket = socketPath();
  const pid = recordedPid();
  if (pid && isOurService(pid) && (await ping(socket))) {
    log(`podman service already running (pid ${pid})`);
  } else {
    installPodman();
    writeContainersConf();
    rmSync(socket, { force: true });
    const started = performance.now();
    const out = openSync(LOG, 'a');
    const child = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], {
      detached: true,
      stdio: ['ignore', out, out],
      env: { ...process.env, CONTAINERS_CONF: CONF },
    });
    if (!child.pid) throw new Error('podman system service did not start');
    writeFileSync(PID_FILE, `${child.pid}\n`);
    child.unref();
    while (!(await ping(socket, 500))) {
      if (child.exitCode !== null || !isOurService(child.pid))
        throw new Error(`podman system service exited; see ${LOG}`);
      if (performance.now() - started > READY_TIMEOUT_MS)
        throw new Error(`podman system service did not answer within ${READY_TIMEOUT_MS} ms; see ${LOG}`);
      await new Promise((done) => setTimeout(done, 100));
    }
    log(`podman system service (pid ${child.pid}) answers after ${Math.round(performance.now() - started)} ms`);
  }
  writeEnvFile(`unix://${socket}`, { CONTAINERS_CONF: CONF });
  log(`exports for a run: source ${ENV_FILE}`);
  process.stdout.write(`DOCKER_HOST=unix://${socket}\n`);
}

async function stop(): Promise<void> {
  const pid = recordedPid();
  if (!pid || !isOurService(pid)) {
    log('no engine started by `npm run engine` is running');
    rmSync(PID_FILE, { force: true });
    return;
  }
  // Containers the harness left (a killed run) would outlive the service: remove them first.
  const leftovers = spawnSync('podman', ['ps', '-aq', '--filter', `label=${LABEL}`], {
    encoding: 'utf8',
    env: { ...process.env, CONTAINERS_CONF: CONF },
  });
  const ids = (leftovers.stdout ?? '').split('\n').filter(Boolean);
  if (ids.length > 0) {
    spawnSync('podman', ['rm', '-f', ...ids], { stdio: 'ignore', env: { ...process.env, CONTAINERS_CONF: CONF } });
    log(`removed ${ids.length} leftover container(s)`);
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (isOurService(pid) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
  if (isOurService(pid)) process.kill(pid, 'SIGKILL');
  rmSync(PID_FILE, { force: true });
  rmSync(socketPath(), { force: true });
  log(`stopped podman system service (pid ${pid})`);
}

try {
  if (process.argv[2] === 'stop') await stop();
  else if (process.argv[2] === undefined || process.argv[2] === 'start') await start();
  else throw new Error(`unknown command "${process.argv[2]}": use \`npm run engine\` or \`npm run engine -- stop\``);
} catch (error) {
  log((error as Error).message);
  process.exit(1);
}
