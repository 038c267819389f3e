/**
 * Benchmark of the reference implementation, each figure beside a bare node:http server
 * answering 204 measured by the same load generator (autocannon) in the same run:
 * - call placements per second (POST /v1/voice/calls, call_progress manual: no webhook work),
 *   and the server's CPU per request, with the cores the server and the generator used (when
 *   the generator is the one saturated, only the CPU figure is the server's), the two servers
 *   loaded in turn in interleaved rounds and the CPU ratio paired round by round, then loaded
 *   at once for the ratio the goal is judged on;
 * - webhook deliveries per second over HTTPS to a local node:https receiver answering 204
 *   (events fired through the control interface, 25 endpoints each).
 * The servers under load run in child processes (reference-servers.ts, bundled as the
 * image bundles the reference and run with plain node), so that the load generator in
 * this process does not share an event loop (and a CPU) with them; both rows alike.
 * Runnable alone: `npx tsx benchmarks/reference.ts [durationSec] [rounds]` (default 6 s in 5 rounds).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon, { type AutocannonOptions, type AutocannonResult } from 'autocannon';
import { cpuRatioAtOnce, measureCpu } from './cpu.js';
import { formatBound, GOALS } from './goals.js';
import { formatPaired, median, pairedCpuRatios } from './ratios.js';
import { bundleReference } from '../reference/dev/bundle.js';
import { makeSelfSignedCert } from '../reference/dev/self-signed-cert.js';
import type { RunningReference } from '../reference/index.js';

export interface BenchRow {
  name: string;
  rps: number;
  p99ms: number;
  /** The server process's CPU per request answered, and its cores and the load generator's while loaded (median round). */
  server?: { cpuUsPerRequest: number; cores: number; generatorCores: number };
  /** The server's CPU per request in each round, in round order. */
  cpuUsPerRound: number[];
}

const CONNECTIONS = 50;
const ENDPOINTS_PER_EVENT = 25;
/** Events in the delivery burst per second of bench duration (each fans out to 25 deliveries). */
const EVENTS_PER_SECOND_OF_BENCH = 80;

async function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

type ReferenceEndpoints = Pick<RunningReference, 'baseUrl' | 'controlUrl' | 'controlToken'>;

async function control(reference: ReferenceEndpoints, path: string, body: unknown): Promise<any> {
  const res = await fetch(reference.controlUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${reference.controlToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

interface ChildServer {
  info: { baseUrl: string; controlUrl?: string; controlToken?: string };
  pid: number;
  stop(): Promise<void>;
}

/** The bench's servers bundled as the image bundles the reference; removed with its folder. */
async function bundleServers(): Promise<{ file: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-reference-'));
  const file = join(dir, 'reference-servers.cjs');
  await bundleReference(fileURLToPath(new URL('./reference-servers.ts', import.meta.url)), file);
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts the bundled servers as a child serving `role`; it prints one JSON line once listening. */
async function startChild(bundle: string, role: 'bare' | 'reference'): Promise<ChildServer> {
  // The control token is made here and handed down in the environment: nothing secret
  // travels back over the child's output.
  const controlToken = `bench-control-${randomBytes(12).toString('hex')}`;
  const child: ChildProcess = spawn(process.execPath, [bundle, role], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_CONTROL_TOKEN: controlToken },
  });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(() => {
      throw new Error(`bench child ${role} exited`);
    }),
  ])) as [string];
  lines.close();
  return {
    info: { ...JSON.parse(line), controlToken },
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** The request both rows send: the bare server answers it 204 without reading it. */
function callPlacementRequest(agentId: string, token: string) {
  return {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: agentId, to: '+14155550100', metadata: { lead_id: 'lead_bench' } }),
    connections: CONNECTIONS,
  };
}

/** One autocannon run against the server in process `pid`, with what the server and this process (the generator) used of the CPU. */
async function measured(
  pid: number,
  options: AutocannonOptions,
): Promise<{ result: AutocannonResult; server: NonNullable<BenchRow['server']> }> {
  const { result, serverSeconds, serverCores, generatorCores } = await measureCpu([pid], () => autocannon(options));
  return {
    result,
    server: {
      cpuUsPerRequest: (serverSeconds * 1e6) / Math.max(1, result.requests.total),
      cores: serverCores,
      generatorCores,
    },
  };
}

/** One autocannon run and what the server used of the CPU. */
type Measured = Awaited<ReturnType<typeof measured>>;

/** One server's runs, a round each: its row has the median round's figures. */
function rowOf(name: string, runs: readonly Measured[]): BenchRow {
  const cpu = runs.map((run) => run.server.cpuUsPerRequest);
  return {
    name,
    rps: median(runs.map((run) => run.result.requests.average)),
    p99ms: median(runs.map((run) => run.result.latency.p99)),
    server: {
      cpuUsPerRequest: median(cpu),
      cores: median(runs.map((run) => run.server.cores)),
      generatorCores: median(runs.map((run) => run.server.generatorCores)),
    },
    cpuUsPerRound: cpu,
  };
}

/**
 * Placements against the bare server and the reference, in turn, `rounds` times after a
 * warm-up: drift in a shared machine's load spreads over both instead of landing on one. Then
 * `rounds` more with both loaded at once, half the connections each, for the CPU ratio the goal
 * is judged on (`atOnce`, the bare server's CPU a request over a placement's): at once, both
 * see the same drift. The reference's calls stay queued (manual progress, so no webhook work
 * runs), and it keeps every one: its later rounds pay for the earlier ones' calls, as one long
 * run would.
 */
async function benchPlacement(
  bundle: string,
  reference: ChildServer,
  durationSec: number,
  rounds: number,
): Promise<{ bare: BenchRow; calls: BenchRow; atOnce: number[] }> {
  const bare = await startChild(bundle, 'bare');
  try {
    const endpoints = reference.info as ReferenceEndpoints;
    const ws = await control(endpoints, '/workspaces', { call_progress: 'manual' });
    const token = await control(endpoints, `/workspaces/${ws.workspace_id}/tokens`, { label: 'bench' });
    const bareLoad = {
      url: `${bare.info.baseUrl}/v1/voice/calls`,
      ...callPlacementRequest('agt_0000000000000000000', 'svc_test_' + '0'.repeat(40)),
    };
    const referenceLoad = {
      url: `${endpoints.baseUrl}/v1/voice/calls`,
      ...callPlacementRequest(ws.agent_ids[0], token.token),
    };
    const roundSec = Math.max(1, Math.round(durationSec / rounds));
    // Unmeasured: without it the reference's first round cost more CPU a call than its second.
    for (const load of [bareLoad, referenceLoad]) await autocannon({ ...load, duration: 1 });
    const bareRuns: Measured[] = [];
    const referenceRuns: Measured[] = [];
    for (let round = 0; round < rounds; round++) {
      bareRuns.push(await measured(bare.pid, { ...bareLoad, duration: roundSec }));
      const placed = await measured(reference.pid, { ...referenceLoad, duration: roundSec });
      if (placed.result['2xx'] === 0 || placed.result.non2xx > 0)
        throw new Error(`call placement answered non-2xx (${placed.result.non2xx})`);
      referenceRuns.push(placed);
    }
    const atOnce: number[] = [];
    const half = Math.round(CONNECTIONS / 2);
    for (let round = 0; round < rounds; round++) {
      const once = await cpuRatioAtOnce(
        { pid: bare.pid, load: () => autocannon({ ...bareLoad, connections: half, duration: roundSec }) },
        { pid: reference.pid, load: () => autocannon({ ...referenceLoad, connections: half, duration: roundSec }) },
      );
      if (once.server['2xx'] === 0 || once.server.non2xx > 0)
        throw new Error(`call placement answered non-2xx (${once.server.non2xx})`);
      if (Number.isFinite(once.ratio)) atOnce.push(once.ratio);
    }
    return {
      bare: rowOf('bare node:http 204', bareRuns),
      calls: rowOf('reference POST /v1/voice/calls', referenceRuns),
      atOnce,
    };
  } finally {
    await bare.stop();
  }
}

async function benchDeliveries(reference: ReferenceEndpoints, durationSec: number): Promise<BenchRow> {
  let delivered = 0;
  const receiver = createHttpsServer(makeSelfSignedCert(), (req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.statusCode = 204;
      res.end();
    });
  });
  const port = await listen(receiver);
  try {
    const ws = await control(reference, '/workspaces', { call_progress: 'manual' });
    for (let i = 0; i < ENDPOINTS_PER_EVENT; i++) {
      await control(reference, `/workspaces/${ws.workspace_id}/webhook-endpoints`, {
        url: `https://127.0.0.1:${port}/hook/${i}`,
        events: ['mailer.email.sent'],
      });
    }
    // A burst of events fired by the same load generator; the figure is deliveries
    // landed per second, from the first event to the last delivery.
    const started = performance.now();
    const result = await autocannon({
      url: `${reference.controlUrl}/workspaces/${ws.workspace_id}/events`,
      method: 'POST',
      headers: { authorization: `Bearer ${reference.controlToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'mailer.email.sent', data: { email_id: 'em_bench' } }),
      connections: 4,
      amount: Math.max(40, Math.round(EVENTS_PER_SECOND_OF_BENCH * durationSec)),
    });
    const expected = result['2xx'] * ENDPOINTS_PER_EVENT;
    const deadline = performance.now() + 60_000;
    while (delivered < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const elapsedSec = (performance.now() - started) / 1000;
    return {
      name: `webhook deliveries over HTTPS (${delivered}/${expected})`,
      rps: delivered / elapsedSec,
      p99ms: Number.NaN,
      cpuUsPerRound: [],
    };
  } finally {
    await stop(receiver);
  }
}

export interface ReferenceBench {
  rows: BenchRow[];
  /** Placements' rate over the bare server's (median rounds). */
  ratio: number;
  /** The bare server's CPU a request over a placement's, round by round, the two loaded in turn. */
  cpuRatios: number[];
  /** The bare server's CPU a request over a placement's, in the rounds where both were loaded at once: the goal's figure. */
  cpuRatiosAtOnce: number[];
}

export async function benchReference(opts: {
  durationSec: number;
  rounds?: number;
  deliveries?: boolean;
}): Promise<ReferenceBench> {
  const rows: BenchRow[] = [];
  const servers = await bundleServers();
  let child: ChildServer | undefined;
  try {
    child = await startChild(servers.file, 'reference');
    const { bare, calls, atOnce } = await benchPlacement(servers.file, child, opts.durationSec, opts.rounds ?? 5);
    rows.push(bare, calls);
    if (opts.deliveries !== false) rows.push(await benchDeliveries(child.info as ReferenceEndpoints, opts.durationSec));
    // By CPU per request a cheaper server is a faster one: the base's cost over this one's, round by round.
    return { rows, ratio: calls.rps / bare.rps, cpuRatios: pairedCpuRatios(calls, bare), cpuRatiosAtOnce: atOnce };
  } finally {
    await child?.stop();
    servers.remove();
  }
}

/** One line a row, then the placement ratio by rate, by CPU in turn and at once. */
export function formatReference(bench: ReferenceBench): string[] {
  const lines = bench.rows.map((row) => {
    const p99 = Number.isNaN(row.p99ms) ? '' : `  p99 ${row.p99ms} ms`;
    const cpu = row.server
      ? `  ${row.server.cpuUsPerRequest.toFixed(0)} µs CPU/req, server ${row.server.cores.toFixed(2)} cores, generator ${row.server.generatorCores.toFixed(2)}`
      : '';
    return `${row.name.padEnd(64)} ${row.rps.toFixed(0).padStart(8)} /s${p99}${cpu}`;
  });
  lines.push(
    `call placement / bare server: ${(bench.ratio * 100).toFixed(0)}% by req/s, ${formatPaired(bench.cpuRatios, '%')} by the server's CPU per request, round by round;` +
      ` ${formatPaired(bench.cpuRatiosAtOnce, '%')} loaded at once (goal ${formatBound(GOALS.placementOverBareByCpu, '%')})`,
  );
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const durationSec = Number(process.argv[2] ?? 6);
  const rounds = Number(process.argv[3] ?? 5);
  for (const line of formatReference(await benchReference({ durationSec, rounds }))) console.log(line);
}
