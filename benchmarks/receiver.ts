/**
 * Benchmark of the capturing receiver (issue 5, "Done when"): verified deliveries per
 * second beside a bare `node:https` server answering 204 and a minimal verifier (with and
 * without recording), all over HTTPS with the same certificate, all loaded by autocannon in
 * the same run.
 *
 * Each server runs in a child process of its own (receiver-servers.ts), so the load generator
 * and the servers share no event loop and the servers no heap. Every request is a realistic
 * signed voice.call.completed envelope with a unique event id, signed per
 * request, so the receiver does real, non-duplicate work.
 *
 * Run alone: npx tsx benchmarks/receiver.ts [durationSec=10] [connections=50] [rounds=3]
 */
import { fork, type ChildProcess } from 'node:child_process';
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ask } from '../src/ipc/ask.js';
import type { ReceiverStats } from '../src/capturing-receiver/index.js';
import { createSelfSignedCertificate } from '../src/tls/self-signed.js';
import { cpuRatioAtOnce, measureCpu } from './cpu.js';
import { signedDelivery } from './receiver-delivery.js';
import { median } from './ratios.js';
import {
  AT_ONCE_WITH_MINIMAL,
  formatBenchTable,
  formatReceiverGoals,
  SERVER_KINDS,
  SERVER_NAMES,
  type BenchRow,
  type ServerKind,
} from './receiver-rows.js';

/** How long a bench server may take to close before it is killed. */
const STOP_LIMIT_MS = 10_000;

export interface BenchReceiverOptions {
  /** Measured seconds per server, split over the rounds. */
  durationSec: number;
  connections?: number;
  /** Interleaved rounds; the median round is reported. */
  rounds?: number;
}

export function runAutocannon(url: string, durationSec: number, connections: number): Promise<AutocannonResult> {
  let seq = 0;
  return autocannon({
    url,
    connections,
    duration: durationSec,
    method: 'POST',
    requests: [{ setupRequest: (request) => ({ ...request, ...mergeHeaders(request, signedDelivery(++seq)) }) }],
  });
}

function mergeHeaders(request: AutocannonRequest, delivery: ReturnType<typeof signedDelivery>): AutocannonRequest {
  return { body: delivery.body, headers: { ...request.headers, ...delivery.headers } };
}

/** A bench server running in its own process (receiver-servers.ts). */
export interface ServerProcess {
  kind: ServerKind;
  name: string;
  url: string;
  child: ChildProcess;
}

/**
 * Forks one process per server kind, all serving `tls`'s certificate; `execArgv` adds Node
 * options (a CPU profile). On failure, the processes already started are stopped.
 */
export async function startServers(
  kinds: readonly ServerKind[],
  tls: { certPath: string; keyPath: string },
  execArgv: readonly string[] = [],
): Promise<ServerProcess[]> {
  const started = await Promise.allSettled(kinds.map((kind) => startServer(kind, tls, execArgv)));
  const servers = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failure = started.find((outcome) => outcome.status === 'rejected');
  if (failure !== undefined) {
    await stopServers(servers);
    throw failure.reason;
  }
  return servers;
}

async function startServer(
  kind: ServerKind,
  tls: { certPath: string; keyPath: string },
  execArgv: readonly string[],
): Promise<ServerProcess> {
  const child = fork(new URL('./receiver-servers.ts', import.meta.url), [kind, tls.certPath, tls.keyPath], {
    execArgv: ['--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const url = await ask<string>(child, {}, 'url', { who: `bench server ${kind}`, limitMs: 20_000 });
    return { kind, name: SERVER_NAMES[kind], url, child };
  } catch (error) {
    child.kill();
    throw error;
  }
}

/** Asks each server to close and waits for its process to exit; one still running after 10 s is killed. */
export async function stopServers(servers: readonly ServerProcess[]): Promise<void> {
  await Promise.all(
    servers.map(async ({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
      child.send({ close: true });
      await exited;
      clearTimeout(timer);
    }),
  );
}

export async function benchReceiver(opts: BenchReceiverOptions): Promise<{ rows: BenchRow[] }> {
  const connections = opts.connections ?? 50;
  const rounds = Math.max(1, opts.rounds ?? 3);
  // Each round loads every server once, in turn, so drift in a shared machine's load
  // spreads over all of them instead of landing on whichever ran last; the median round counts.
  const roundSec = Math.max(1, Math.round(opts.durationSec / rounds));
  const tls = await createSelfSignedCertificate({ hosts: ['127.0.0.1'] });
  let servers: ServerProcess[] = [];
  try {
    servers = await startServers(SERVER_KINDS, tls);
    type Run = { result: AutocannonResult; cpuUsPerRequest: number };
    const targets = servers.map((server) => ({ ...server, runs: [] as Run[] }));
    for (const target of targets) await runAutocannon(target.url, 1, connections); // warm-up: JIT, TLS
    for (let round = 0; round < rounds; round++) {
      for (const target of targets) {
        const { result, serverSeconds } = await measureCpu([target.child.pid!], () =>
          runAutocannon(target.url, roundSec, connections),
        );
        if (result.non2xx > 0 || result.errors > 0) {
          throw new Error(
            `${target.name}: ${result.non2xx} non-2xx answers and ${result.errors} errors; the comparison would be meaningless`,
          );
        }
        target.runs.push({ result, cpuUsPerRequest: (1e6 * serverSeconds) / Math.max(1, result.requests.total) });
      }
    }
    for (const target of targets) {
      const stats = await ask<ReceiverStats | null>(target.child, { stats: true }, 'stats', {
        who: target.name,
        limitMs: 10_000,
      });
      if (stats !== null && (stats.badSignatures > 0 || stats.duplicates > 0)) {
        throw new Error(
          `${target.name} saw ${stats.badSignatures} bad signatures and ${stats.duplicates} duplicates; expected none`,
        );
      }
    }
    const atOnce = await pairAtOnceWithMinimal(servers, rounds, roundSec, connections);
    const rows = targets.map(
      (target): BenchRow => ({
        name: target.name,
        rps: Math.round(median(target.runs.map((r) => r.result.requests.average))),
        p99ms: median(target.runs.map((r) => r.result.latency.p99)),
        cpuUsPerRequest: Math.round(median(target.runs.map((r) => r.cpuUsPerRequest))),
        cpuUsPerRound: target.runs.map((r) => r.cpuUsPerRequest),
        ...(atOnce.withMinimal.has(target.kind) ? { atOnceWithMinimal: atOnce.withMinimal.get(target.kind) } : {}),
        ...(atOnce.againstTwin.has(target.kind) ? { atOnceAgainstTwin: atOnce.againstTwin.get(target.kind) } : {}),
      }),
    );
    return { rows };
  } finally {
    await stopServers(servers);
    await rm(dirname(tls.certPath), { recursive: true, force: true });
  }
}

/** Ratios of the rounds loaded at once, in round order, by server kind. */
export interface AtOnceRounds {
  /** The minimal verifier's CPU a request over the server's. */
  withMinimal: Map<ServerKind, number[]>;
  /**
   * The same over the twin's of the same round: the server against a minimal verifier loaded
   * exactly as often as it is. The minimal verifier is loaded in every pairing, and a process
   * loaded more reads cheaper: the twin read dearer than it after idling while others were
   * measured, cheaper when the twin alone had had more load, the same when both were loaded alike.
   */
  againstTwin: Map<ServerKind, number[]>;
}

/**
 * Each server of AT_ONCE_WITH_MINIMAL loaded at the same time as the minimal verifier
 * (cpuRatioAtOnce), half the connections each, `rounds` times in turn: the minimal verifier's
 * CPU a request over the server's, round by round, and that over the twin's of the same round.
 */
export async function pairAtOnceWithMinimal(
  servers: readonly ServerProcess[],
  rounds: number,
  roundSec: number,
  connections: number,
): Promise<AtOnceRounds> {
  const minimal = servers.find((server) => server.kind === 'minimal');
  const found: AtOnceRounds = { withMinimal: new Map(), againstTwin: new Map() };
  if (minimal === undefined) return found;
  const paired = servers.filter((server) => (AT_ONCE_WITH_MINIMAL as readonly ServerKind[]).includes(server.kind));
  const loaded = (p: ServerProcess) => ({
    pid: p.child.pid!,
    load: () => runAutocannon(p.url, roundSec, Math.max(1, Math.round(connections / 2))),
  });
  const push = (map: Map<ServerKind, number[]>, kind: ServerKind, ratio: number) =>
    map.set(kind, [...(map.get(kind) ?? []), ratio]);
  for (let round = 0; round < rounds; round++) {
    const thisRound = new Map<ServerKind, number>();
    for (const server of paired) {
      const once = await cpuRatioAtOnce(loaded(minimal), loaded(server));
      for (const [p, result] of [
        [minimal, once.base],
        [server, once.server],
      ] as const) {
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(
            `${p.name}, loaded at once with ${server.name}: ${result.non2xx} non-2xx answers and ${result.errors} errors`,
          );
      }
      if (Number.isFinite(once.ratio)) thisRound.set(server.kind, once.ratio);
    }
    for (const [kind, ratio] of thisRound) push(found.withMinimal, kind, ratio);
    const twin = thisRound.get('minimalTwin');
    if (twin === undefined) continue;
    for (const [kind, ratio] of thisRound) if (kind !== 'minimalTwin') push(found.againstTwin, kind, ratio / twin);
  }
  return found;
}

const runDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (runDirectly) {
  const durationSec = Number(process.argv[2] ?? 10);
  const connections = Number(process.argv[3] ?? 50);
  const rounds = Number(process.argv[4] ?? 3);
  const { rows } = await benchReceiver({ durationSec, connections, rounds });
  console.log(
    `receiver benchmark: HTTPS, autocannon, ${connections} connections, ${durationSec} s per server in ${rounds} interleaved rounds (median), unique signed ~600-byte deliveries`,
  );
  console.log(formatBenchTable(rows));
  for (const line of formatReceiverGoals(rows)) console.log(line);
}
