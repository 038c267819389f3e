/**
 * Benchmark of the capturing receiver (issue 5, "Done when"): verified deliveries per
 * second beside a bare `node:https` server answering 204 and a minimal verifier, all over
 * HTTPS with the same certificate, all loaded by autocannon in the same run.
 *
 * The three servers run in a child process (receiver-servers.ts) so the load generator
 * and the servers do not share one event loop. Every request is a realistic
 * ~600-byte signed voice.call.completed envelope with a unique event id, signed per
 * request, so the receiver does real, non-duplicate work.
 *
 * Run alone: npx tsx src/bench/receiver.ts [durationSec=10] [connections=50] [rounds=3]
 */
import { fork, type ChildProcess } from 'node:child_process';
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import { pathToFileURL } from 'node:url';
import { ask } from '../ipc/ask.js';
import { signedDelivery } from './receiver-delivery.js';
import type { ServerPorts } from './receiver-servers.js';

export interface BenchRow {
  name: string;
  rps: number;
  p99ms: number;
  /**
   * Server CPU time (user + system) per answered request, in microseconds. On a machine
   * shared with other work, rps swings with the neighbours' load; this cost does far less,
   * so the ratios are also given by it.
   */
  cpuUsPerRequest: number;
}

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

/** Forks the bench servers (receiver-servers.ts); `execArgv` adds Node options (a CPU profile). */
export function startServers(execArgv: readonly string[] = []): Promise<{ child: ChildProcess; ports: ServerPorts }> {
  const child = fork(new URL('./receiver-servers.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bench servers did not start within 20 s')), 20_000);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench servers exited early with code ${code}`)));
    child.once('message', (message: { ports: ServerPorts }) => {
      clearTimeout(timer);
      resolve({ child, ports: message.ports });
    });
  });
}

/** A request to the servers' process: its CPU time or the receiver's counters, answered at once. */
function askServers<T>(child: ChildProcess, request: { cpu: true } | { stats: true }, key: 'cpu' | 'stats'): Promise<T> {
  return ask<T>(child, request, key, { who: 'bench servers', limitMs: 10_000 });
}

export async function benchReceiver(opts: BenchReceiverOptions): Promise<{ rows: BenchRow[] }> {
  const connections = opts.connections ?? 50;
  const rounds = Math.max(1, opts.rounds ?? 3);
  // Each round loads every server once, in turn, so drift in a shared machine's load
  // spreads over all three instead of landing on whichever ran last; the median round counts.
  const roundSec = Math.max(1, Math.round(opts.durationSec / rounds));
  const { child, ports } = await startServers();
  try {
    type Run = { result: AutocannonResult; cpuUsPerRequest: number };
    const targets: Array<{ name: string; url: string; runs: Run[] }> = [
      { name: 'bare node:https 204', url: `https://127.0.0.1:${ports.bare}/`, runs: [] },
      { name: 'minimal verifier', url: `https://127.0.0.1:${ports.minimal}/`, runs: [] },
      { name: 'capturing receiver', url: `https://127.0.0.1:${ports.receiver}${ports.receiverPath}`, runs: [] },
    ];
    for (const target of targets) await runAutocannon(target.url, 1, connections); // warm-up: JIT, TLS, schemas
    for (let round = 0; round < rounds; round++) {
      for (const target of targets) {
        // The idle servers in the child cost nothing, so its CPU time is this server's.
        const cpuBefore = await askServers<number>(child, { cpu: true }, 'cpu');
        const result = await runAutocannon(target.url, roundSec, connections);
        const cpuAfter = await askServers<number>(child, { cpu: true }, 'cpu');
        if (result.non2xx > 0 || result.errors > 0) {
          throw new Error(`${target.name}: ${result.non2xx} non-2xx answers and ${result.errors} errors; the comparison would be meaningless`);
        }
        target.runs.push({ result, cpuUsPerRequest: (cpuAfter - cpuBefore) / Math.max(1, result.requests.total) });
      }
    }
    const stats = await askServers<{ total: number; badSignatures: number; duplicates: number }>(child, { stats: true }, 'stats');
    if (stats.badSignatures > 0 || stats.duplicates > 0) {
      throw new Error(`receiver saw ${stats.badSignatures} bad signatures and ${stats.duplicates} duplicates; expected none`);
    }
    const rows = targets.map((target) => ({
      name: target.name,
      rps: Math.round(median(target.runs.map((r) => r.result.requests.average))),
      p99ms: median(target.runs.map((r) => r.result.latency.p99)),
      cpuUsPerRequest: Math.round(median(target.runs.map((r) => r.cpuUsPerRequest))),
    }));
    return { rows };
  } finally {
    child.send({ close: true });
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function formatBenchTable(rows: BenchRow[]): string {
  const [bare, minimal] = rows;
  const pct = (value: number, base: number | undefined): string => (base ? `${((100 * value) / base).toFixed(0)}%` : 'n/a');
  // A cheaper request is a faster server: the CPU ratio is base cost over this cost.
  const cpuPct = (cost: number, base: number | undefined): string => (base && cost ? `${((100 * base) / cost).toFixed(0)}%` : 'n/a');
  const lines = [
    ['server', 'req/s', 'p99 ms', 'vs bare', 'vs minimal', 'CPU µs/req', 'vs bare (CPU)', 'vs minimal (CPU)'],
    ...rows.map((row) => [
      row.name,
      String(row.rps),
      String(row.p99ms),
      pct(row.rps, bare?.rps),
      pct(row.rps, minimal?.rps),
      String(row.cpuUsPerRequest),
      cpuPct(row.cpuUsPerRequest, bare?.cpuUsPerRequest),
      cpuPct(row.cpuUsPerRequest, minimal?.cpuUsPerRequest),
    ]),
  ];
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  return lines.map((line) => line.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}

const runDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (runDirectly) {
  const durationSec = Number(process.argv[2] ?? 10);
  const connections = Number(process.argv[3] ?? 50);
  const rounds = Number(process.argv[4] ?? 3);
  const { rows } = await benchReceiver({ durationSec, connections, rounds });
  console.log(`receiver benchmark: HTTPS, autocannon, ${connections} connections, ${durationSec} s per server in ${rounds} interleaved rounds (median), unique signed ~600-byte deliveries`);
  console.log(formatBenchTable(rows));
  const [bare, , receiver] = rows;
  if (receiver !== undefined && bare !== undefined) {
    const byRps = receiver.rps / bare.rps;
    const byCpu = bare.cpuUsPerRequest / receiver.cpuUsPerRequest;
    const verdict = (ratio: number): string => `${ratio >= 0.6 ? 'met' : 'NOT met'} (${(100 * ratio).toFixed(0)}%)`;
    console.log(`target receiver >= 60% of bare: by req/s ${verdict(byRps)}; by CPU cost per request ${verdict(byCpu)}`);
  }
}
