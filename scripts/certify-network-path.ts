/**
 * `tsx scripts/certify-network-path.ts [--proxy tinyproxy|squid] [--plain] [--report-dir <dir>]`:
 * certifies the reference as a staging service is reached, through a real forward proxy and
 * over mutual TLS with a private CA, and exits 1 with a one-line reason unless the run is
 * clean and the network path is proven to matter:
 * - the reference runs as its own process (`svc-harness reference`), serving HTTPS with a
 *   certificate from a CA made for this run and requiring client certificates from it;
 * - certify reaches it only through the proxy (HTTPS_PROXY, CONNECT tunnels), trusting the CA
 *   (SVC_CA_CERT) and presenting a client certificate (SVC_CLIENT_CERT/KEY);
 * - the report is clean (scripts/assert-clean-report.ts) and the proxy's log holds the tunnels;
 * - a run without the client certificate, without the CA, or through a closed proxy port is
 *   refused (exit 2), so none of the three is decoration.
 * With `--plain` the reference serves plain HTTP and certify reaches it through HTTP_PROXY: the
 * proxy forwards every request itself (no tunnel), and tinyproxy closes each client connection
 * after its answer, so kept-alive connections meet closes (docs/network.md); the proxy's log must
 * hold the forwarded requests, and a run through a closed proxy port must be refused.
 * Key material lives in a temp dir that is removed on every way out; children are stopped on
 * exit, on error and on SIGINT/SIGTERM.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ReferenceSettingName } from '../src/config/reference-settings.js';

type ProxyKind = 'tinyproxy' | 'squid';

function usage(message: string): never {
  console.error(
    `certify-network-path: ${message}; usage: tsx scripts/certify-network-path.ts [--proxy tinyproxy|squid] [--plain] [--report-dir <dir>]`,
  );
  process.exit(2);
}

let args: { proxy?: string; plain?: boolean; 'report-dir'?: string };
try {
  ({ values: args } = parseArgs({
    options: {
      proxy: { type: 'string', default: 'tinyproxy' },
      plain: { type: 'boolean', default: false },
      'report-dir': { type: 'string', default: 'reports/network-path' },
    },
  }));
} catch (error) {
  usage((error as Error).message);
}
const proxyKind = args.proxy as ProxyKind;
if (proxyKind !== 'tinyproxy' && proxyKind !== 'squid')
  usage(`--proxy must be tinyproxy or squid, got "${args.proxy}"`);
const reportDir = args['report-dir']!;
const plain = args.plain === true;

// Fewer tunnels than this and the proxy cannot have carried a whole run: every check opens
// connections of its own, and the `fresh` requests one each.
const MIN_TUNNELS = 50;
// Forwarded plainly, the proxy sees every request: a whole run sends thousands.
const MIN_FORWARDED = 500;
const CLI = resolve('bin/svc-harness.js');
const REFERENCE_START_MS = 30_000;
// Squid builds its configuration and helpers before it listens; tinyproxy is up at once.
const PROXY_START_MS = proxyKind === 'squid' ? 60_000 : 15_000;
const CERTIFY_RUN_MS = 15 * 60_000;
const REFUSED_RUN_MS = 120_000;
const STOP_GRACE_MS = 5_000;

const dir = mkdtempSync(join(tmpdir(), 'certify-network-path-'));
// Keys stay readable by this user only; the proxy may run as another (squid drops root).
const pki = join(dir, 'pki');
mkdirSync(pki, { mode: 0o700 });
chmodSync(dir, 0o711);
const children = new Set<ChildProcess>();

class Stop extends Error {}

/** Stops every child and removes the temp dir; synchronous, so it also runs from 'exit'. */
function cleanUpNow(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
  rmSync(dir, { recursive: true, force: true });
}
process.on('exit', cleanUpNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`certify-network-path: ${signal}, stopping`);
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

async function stopAll(): Promise<void> {
  await Promise.all([...children].map(stopChild));
  cleanUpNow();
}

// ---- certificates -------------------------------------------------------------------------

function openssl(...opensslArgs: string[]): void {
  const run = spawnSync('openssl', opensslArgs, { encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0)
    throw new Stop(
      `openssl ${opensslArgs[0]} failed: ${(run.stderr || run.error?.message || '').trim().split('\n')[0]}`,
    );
}

const pem = (name: string) => join(pki, `${name}.pem`);
const keyPem = (name: string) => join(pki, `${name}-key.pem`);

function makeCa(name: string): void {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout',
    keyPem(name),
    '-out',
    pem(name),
  );
}

function makeLeaf(name: string, ca: string, extensions: string): void {
  const csr = join(pki, `${name}.csr`);
  const ext = join(pki, `${name}.ext`);
  openssl(
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-subj',
    `/CN=${name}`,
    '-keyout',
    keyPem(name),
    '-out',
    csr,
  );
  writeFileSync(ext, extensions);
  openssl(
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    pem(ca),
    '-CAkey',
    keyPem(ca),
    '-set_serial',
    `0x${randomBytes(8).toString('hex')}`,
    '-days',
    '1',
    '-extfile',
    ext,
    '-out',
    pem(name),
  );
}

// ---- processes ----------------------------------------------------------------------------

/**
 * The environment of a child: this one's, without any proxy variable (either case) and
 * without the settings this script decides, plus `extra`.
 */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(https?_proxy|no_proxy|all_proxy)$/i.test(name)) continue;
    if (
      /^(SVC_|RECEIVER_|IDP_)/.test(name) ||
      /^CERTIFY_(REPORT_DIR|CHECKS)$/.test(name) ||
      /^REFERENCE_(PORT|TLS_|CONTROL_TOKEN|TOKEN_FILE)/.test(name)
    )
      continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Rejects after `ms` with `what`; the caller's promise wins when it settles first. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Stop(`${what}: no result within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A loopback port free right now: the proxies take a port number, not 0. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

interface Reference {
  baseUrl: string;
  controlUrl: string;
  controlToken: string;
}

/** The reference over mutual TLS (plain HTTP with --plain), once its banner says it listens; its output goes to a log. */
async function startReference(): Promise<Reference> {
  const controlToken = `ctl_test_fake_${randomBytes(16).toString('hex')}`;
  const log = join(dir, 'reference.log');
  const child = track(
    spawn(process.execPath, [CLI, 'reference'], {
      env: childEnv({
        REFERENCE_PORT: '0',
        ...(plain
          ? {}
          : {
              REFERENCE_TLS_CERT: pem('server'),
              REFERENCE_TLS_KEY: keyPem('server'),
              REFERENCE_TLS_CLIENT_CA: pem('ca'),
            }),
        REFERENCE_CONTROL_TOKEN: controlToken,
        REFERENCE_TOKEN_FILE: join(pki, 'control-token'),
      } satisfies Partial<Record<ReferenceSettingName, string>>),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const out = createWriteStream(log);
  child.stderr!.pipe(out);
  let banner = '';
  const listening = new Promise<Reference>((done, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out.write(chunk);
      if (banner.length < 65_536) banner += chunk.toString('utf8');
      const base = /base URL:\s+(\S+)/.exec(banner);
      const control = /control URL:\s+(\S+)/.exec(banner);
      if (base && control) done({ baseUrl: base[1]!, controlUrl: control[1]!, controlToken });
    });
    child.once('exit', (code, signal) =>
      fail(new Stop(`the reference exited (${code ?? signal}) before listening: ${tail(log)}`)),
    );
  });
  return within(listening, REFERENCE_START_MS, 'starting the reference');
}

function tinyproxyConfig(port: number, log: string): string {
  // No ConnectPort line: without one tinyproxy tunnels to any port, and the reference's is
  // not 443. MaxClients above the harness's pools (64 connections each for API and control,
  // plus a connection per `fresh` request).
  return [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Allow 127.0.0.1',
    'Timeout 600',
    'MaxClients 512',
    `LogFile "${log}"`,
    'LogLevel Connect',
    '',
  ].join('\n');
}

function squidConfig(port: number, logs: string): string {
  return [
    `http_port 127.0.0.1:${port}`,
    // Squid's stock rules refuse CONNECT to anything but 443; the reference listens elsewhere.
    'acl SSL_ports port 1-65535',
    'http_access deny CONNECT !SSL_ports',
    'http_access allow localhost',
    'http_access deny all',
    'cache deny all',
    `access_log stdio:${join(logs, 'access.log')}`,
    `cache_log ${join(logs, 'cache.log')}`,
    `pid_filename ${join(logs, 'squid.pid')}`,
    `coredump_dir ${logs}`,
    'netdb_filename none',
    'pinger_enable off',
    // Its default 30 s would make every stop of this script wait for open tunnels.
    'shutdown_lifetime 1 seconds',
    '',
  ].join('\n');
}

interface Proxy {
  port: number;
  log: string;
}

async function startProxy(): Promise<Proxy> {
  const port = await freePort();
  let command: string[];
  let log: string;
  if (proxyKind === 'tinyproxy') {
    log = join(dir, 'tinyproxy.log');
    writeFileSync(join(dir, 'tinyproxy.conf'), tinyproxyConfig(port, log));
    command = ['tinyproxy', '-d', '-c', join(dir, 'tinyproxy.conf')];
  } else {
    const logs = join(dir, 'squid');
    mkdirSync(logs);
    // Started as root, squid runs as its cache_effective_user (Debian: proxy) and must
    // write its logs there.
    if (userInfo().uid === 0) {
      const proxyUser = spawnSync('id', ['-u', 'proxy'], { encoding: 'utf8' });
      const proxyGroup = spawnSync('id', ['-g', 'proxy'], { encoding: 'utf8' });
      if (proxyUser.status === 0 && proxyGroup.status === 0)
        chownSync(logs, Number(proxyUser.stdout), Number(proxyGroup.stdout));
    }
    log = join(logs, 'access.log');
    writeFileSync(join(dir, 'squid.conf'), squidConfig(port, logs));
    // A service name of its own, so that a squid of the system or of a parallel run is not
    // mistaken for this one.
    command = ['squid', '-N', '-n', `certifynetpath${process.pid}`, '-f', join(dir, 'squid.conf')];
  }
  const output = join(dir, `${proxyKind}.out`);
  const out = createWriteStream(output);
  // Debian installs squid in /usr/sbin, which a non-root PATH often leaves out.
  const env = { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` };
  const child = track(spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const spawned = new Promise<never>((_, fail) => {
    child.once('error', (error) => fail(new Stop(`${proxyKind} could not be started: ${error.message}`)));
    child.once('exit', (code, signal) =>
      fail(new Stop(`${proxyKind} exited (${code ?? signal}) before listening: ${tail(output)}`)),
    );
  });
  const listening = (async () => {
    while (!(await accepts(port))) await new Promise((done) => setTimeout(done, 200));
    return { port, log };
  })();
  return within(Promise.race([listening, spawned]), PROXY_START_MS, `starting ${proxyKind}`);
}

function tail(file: string): string {
  if (!existsSync(file)) return '(no output)';
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return lines.slice(-3).join(' | ') || '(no output)';
}

interface Run {
  code: number | null;
  seconds: number;
  lastStderr: string;
}

/** A certify run; `stream` passes its output through, else it is kept for the verdict. */
async function certify(env: Record<string, string>, stream: boolean, timeoutMs: number, what: string): Promise<Run> {
  const started = performance.now();
  const child = track(
    spawn(process.execPath, [CLI, 'certify'], {
      env: childEnv(env),
      stdio: ['ignore', stream ? 'inherit' : 'pipe', 'pipe'],
    }),
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stream) process.stderr.write(chunk);
    stderr = (stderr + chunk.toString('utf8')).slice(-8_192);
  });
  child.stdout?.resume();
  const ended = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  try {
    const code = await within(ended, timeoutMs, what);
    return {
      code,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      lastStderr: stderr.trim().split('\n').pop() ?? '',
    };
  } finally {
    await stopChild(child);
  }
}

/** The tunnels the proxy's log records to `hostPort`: tinyproxy logs each request line, squid each tunnel once it closes. */
function tunnelsIn(log: string, hostPort: string): number {
  if (!existsSync(log)) return 0;
  const request = new RegExp(`\\bCONNECT ${hostPort.replace(/[.]/g, '\\.')}\\b`);
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => request.test(line)).length;
}

/** The requests the proxy's log records forwarding to `hostPort` (absolute-form request lines, both proxies). */
function forwardedIn(log: string, hostPort: string): number {
  if (!existsSync(log)) return 0;
  const request = new RegExp(`\\b(?:GET|HEAD|POST|PUT|PATCH|DELETE) http://${hostPort.replace(/[.]/g, '\\.')}/`);
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => request.test(line)).length;
}

/** Squid writes a line when a tunnel or request closes, a little after certify's connections are gone. */
async function settledCount(count: () => number): Promise<number> {
  let seen = count();
  for (let i = 0; i < 20; i += 1) {
    await new Promise((done) => setTimeout(done, 250));
    const next = count();
    if (next === seen && i >= 3) break;
    seen = next;
  }
  return seen;
}

/** What the run's report says the network cost: requests resent and left unanswered. */
function resendsIn(dir: string): string {
  try {
    const network = (
      JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
        network?: { resent?: number; unanswered?: number };
      }
    ).network;
    return `${network?.resent ?? '?'} resent, ${network?.unanswered ?? '?'} unanswered`;
  } catch {
    return 'no report';
  }
}

// ---- the run ------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = performance.now();
  if (!plain) {
    makeCa('ca');
    makeLeaf('server', 'ca', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
    makeLeaf('client', 'ca', 'extendedKeyUsage=clientAuth\n');
  }

  const [reference, proxy] = await Promise.all([startReference(), startProxy()]);
  const hostPort = new URL(reference.baseUrl).host;
  const proxyUrl = `http://127.0.0.1:${proxy.port}`;
  console.log(
    `certify-network-path: reference at ${reference.baseUrl} (${plain ? 'plain HTTP' : 'mutual TLS, private CA'}), ${proxyKind} at ${proxyUrl}`,
  );

  const target = {
    SVC_BASE_URL: reference.baseUrl,
    SVC_CONTROL_URL: reference.controlUrl,
    SVC_CONTROL_TOKEN: reference.controlToken,
  };
  const trust: Record<string, string> = plain ? {} : { SVC_CA_CERT: pem('ca') };
  const identity: Record<string, string> = plain
    ? {}
    : { SVC_CLIENT_CERT: pem('client'), SVC_CLIENT_KEY: keyPem('client') };
  const proxyVariable = plain ? 'HTTP_PROXY' : 'HTTPS_PROXY';
  const problems: string[] = [];
  const walls: string[] = [];

  const run = await certify(
    { ...target, ...trust, ...identity, [proxyVariable]: proxyUrl, CERTIFY_REPORT_DIR: reportDir },
    true,
    CERTIFY_RUN_MS,
    'certify through the proxy',
  );
  walls.push(`certify ${run.seconds} s exit ${run.code}`);
  if (run.code !== 0)
    problems.push(`certify through ${proxyKind} exited ${run.code}, expected 0 (${reportDir}/report.md)`);

  if (existsSync(join(reportDir, 'report.json'))) {
    // The report is of a reference started apart, so it says embedded_reference false; the
    // URL tells the assertion which target is the reference.
    const clean = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/assert-clean-report.ts'], {
      env: childEnv({ CERTIFY_REPORT_DIR: reportDir, ASSERT_REFERENCE_URL: reference.baseUrl }),
      stdio: 'inherit',
      timeout: 60_000,
    });
    if (clean.status !== 0)
      problems.push(`${reportDir}/report.json is not clean (assert-clean-report exit ${clean.status ?? clean.signal})`);
  } else {
    problems.push(`no report in ${reportDir}`);
  }

  const carried = plain ? 'forwarded requests' : 'CONNECT tunnels';
  const least = plain ? MIN_FORWARDED : MIN_TUNNELS;
  const tunnels = await settledCount(() => (plain ? forwardedIn : tunnelsIn)(proxy.log, hostPort));
  // Kept beside the report as the evidence; it holds addresses and request lines, no secret.
  if (existsSync(proxy.log) && existsSync(reportDir)) copyFileSync(proxy.log, join(reportDir, `${proxyKind}.log`));
  console.log(
    `certify-network-path: ${proxyKind} carried ${tunnels} ${carried} to ${hostPort}; the run: ${resendsIn(reportDir)}`,
  );
  if (tunnels < least)
    problems.push(`${proxyKind}'s log holds ${tunnels} ${carried} to ${hostPort}, expected at least ${least}`);

  // Each proof leaves out exactly one thing the clean run had; all must be refused as an
  // unreachable target, not judged.
  const one = { CERTIFY_CHECKS: 'AUTH-WHOAMI-ACCEPTED' };
  const closedPort = await freePort();
  const proofs: Array<[string, Record<string, string>]> = [
    ...(plain
      ? []
      : ([
          ['without a client certificate', { ...target, ...trust, HTTPS_PROXY: proxyUrl }],
          ['without the private CA', { ...target, ...identity, HTTPS_PROXY: proxyUrl }],
        ] as Array<[string, Record<string, string>]>)),
    [
      'through a closed proxy port',
      { ...target, ...trust, ...identity, [proxyVariable]: `http://127.0.0.1:${closedPort}` },
    ],
  ];
  for (const [index, [what, env]] of proofs.entries()) {
    const proof = await certify(
      { ...env, ...one, CERTIFY_REPORT_DIR: join(dir, `refused-${index}`) },
      false,
      REFUSED_RUN_MS,
      `certify ${what}`,
    );
    walls.push(`${what} ${proof.seconds} s exit ${proof.code}`);
    console.log(`certify-network-path: ${what}: exit ${proof.code} after ${proof.seconds} s: ${proof.lastStderr}`);
    if (proof.code !== 2) problems.push(`certify ${what} exited ${proof.code}, expected 2 (refused)`);
  }

  const total = Math.round((performance.now() - started) / 100) / 10;
  console.log(
    `certify-network-path (${proxyKind}${plain ? ', plain HTTP' : ''}): ${walls.join('; ')}; ${tunnels} ${carried}; total ${total} s`,
  );
  if (problems.length > 0) {
    console.error(`certify-network-path: ${problems.join('; ')}`);
    return 1;
  }
  console.log(
    plain
      ? `certify-network-path: clean through ${proxyKind} forwarding plain HTTP, and refused through a closed proxy port`
      : `certify-network-path: clean through ${proxyKind} over mutual TLS, and refused without each of them`,
  );
  return 0;
}

let code: number;
try {
  code = await main();
} catch (error) {
  console.error(
    `certify-network-path: ${error instanceof Stop ? error.message : ((error as Error).stack ?? String(error))}`,
  );
  code = 1;
}
await stopAll();
process.exit(code);
