/**
 * The servers of the receiver bench by name, and the summary lines read from their rows.
 * Apart from receiver-servers.ts because that module starts the servers when imported.
 */
import { LOAD_RECEIVER_KEPT_DELIVERIES } from '../load/receiver.js';
import { DEFAULT_KEPT_DELIVERIES } from '../receiver/index.js';
import { formatBound, GOALS } from './goals.js';
import { cpuRatioPct, pairedCpuRatio, ratioPct } from './ratios.js';

/** A server's figures: the median round's rate and the server's CPU time per request. */
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
  /** The same, in each round, in round order: rounds interleave the servers, so round i of two rows were measured minutes apart at most. */
  cpuUsPerRound: number[];
}

/** The bench's servers (receiver-servers.ts) by kind, with the names the table gives them, in the order they are loaded. */
export const SERVER_NAMES = {
  bare: 'bare node:https 204',
  minimal: 'minimal verifier',
  minimalRecording: `minimal verifier keeping ${DEFAULT_KEPT_DELIVERIES}`,
  receiver: `capturing receiver (keeps ${DEFAULT_KEPT_DELIVERIES})`,
  loadReceiver: `capturing receiver, load run (keeps ${LOAD_RECEIVER_KEPT_DELIVERIES})`,
} as const;

export type ServerKind = keyof typeof SERVER_NAMES;

export const SERVER_KINDS = Object.keys(SERVER_NAMES) as ServerKind[];

export function isServerKind(value: unknown): value is ServerKind {
  return typeof value === 'string' && Object.hasOwn(SERVER_NAMES, value);
}

/** The receiver's lines of the bench summary: req/s ratio, then by CPU per request, paired round by round, in brackets. */
export function formatReceiverGoals(rows: readonly BenchRow[]): string[] {
  const row = (name: string): BenchRow | undefined => rows.find((r) => r.name === name);
  const bare = row(SERVER_NAMES.bare);
  const minimal = row(SERVER_NAMES.minimal);
  const recording = row(SERVER_NAMES.minimalRecording);
  const both = (server: BenchRow | undefined, base: BenchRow | undefined): string =>
    `${ratioPct(server?.rps, base?.rps)} [${pairedCpuRatio(server, base)}]`;
  const line = (label: string, figures: string, goal: string): string => `${label.padEnd(42)} ${figures} (${goal})`;
  const receiverGoal = formatBound(GOALS.receiverOverMinimalByCpu, '%');
  return [
    line('receiver vs bare node:https:', both(row(SERVER_NAMES.receiver), bare), 'target ≥ 60%'),
    line('minimal verifier vs bare node:https:', both(minimal, bare), 'the ceiling for any verifying receiver'),
    line(`minimal keeping ${DEFAULT_KEPT_DELIVERIES} vs minimal:`, both(recording, minimal), 'what recording alone costs'),
    line('receiver vs minimal verifier:', both(row(SERVER_NAMES.receiver), minimal), `goal ${receiverGoal} by CPU`),
    line('receiver, load run vs minimal verifier:', both(row(SERVER_NAMES.loadReceiver), minimal), `goal ${receiverGoal} by CPU`),
    line(`receiver vs minimal keeping ${DEFAULT_KEPT_DELIVERIES}:`, both(row(SERVER_NAMES.receiver), recording), 'both record'),
  ];
}

/** The bench's table: each server's figures, and its share of the bare server and of the minimal verifier. */
export function formatBenchTable(rows: readonly BenchRow[]): string {
  const bare = rows.find((row) => row.name === SERVER_NAMES.bare);
  const minimal = rows.find((row) => row.name === SERVER_NAMES.minimal);
  const lines = [
    ['server', 'req/s', 'p99 ms', 'vs bare', 'vs minimal', 'CPU µs/req', 'vs bare (CPU)', 'vs minimal (CPU)'],
    ...rows.map((row) => [
      row.name,
      String(row.rps),
      String(row.p99ms),
      ratioPct(row.rps, bare?.rps),
      ratioPct(row.rps, minimal?.rps),
      String(row.cpuUsPerRequest),
      cpuRatioPct(row.cpuUsPerRequest, bare?.cpuUsPerRequest),
      cpuRatioPct(row.cpuUsPerRequest, minimal?.cpuUsPerRequest),
    ]),
  ];
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  return lines.map((line) => line.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}
