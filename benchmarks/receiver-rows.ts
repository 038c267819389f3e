/**
 * The servers of the receiver bench by name, and the summary lines read from their rows.
 * Apart from receiver-servers.ts because that module starts the servers when imported.
 */
import { LOAD_RECEIVER_KEPT_DELIVERIES } from '../src/load/fanout/start-receiver.js';
import { DEFAULT_KEPT_DELIVERIES } from '../src/capturing-receiver/index.js';
import { formatBound, GOALS } from './goals.js';
import { cpuRatioPct, formatPaired, pairedCpuRatio, ratioPct } from './ratios.js';

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
  /**
   * The minimal verifier's CPU a request over this server's, in each round where the two were
   * loaded at once (the servers that have a goal against it, and its twin): whatever slows the
   * machine down slows both alike. Rounds in turn read two identical servers much further
   * apart than rounds at once do.
   */
  atOnceWithMinimal?: number[];
  /**
   * Those rounds over the twin's of the same round: against a minimal verifier loaded as often
   * as this server (AtOnceRounds.againstTwin); what the receiver goals are judged on.
   */
  atOnceAgainstTwin?: number[];
}

/** The bench's servers (receiver-servers.ts) by kind, with the names the table gives them, in the order they are loaded. */
export const SERVER_NAMES = {
  bare: 'bare node:https 204',
  minimal: 'minimal verifier',
  minimalRecording: `minimal verifier keeping ${DEFAULT_KEPT_DELIVERIES}`,
  receiver: `capturing receiver (keeps ${DEFAULT_KEPT_DELIVERIES})`,
  loadReceiver: `capturing receiver, load run (keeps ${LOAD_RECEIVER_KEPT_DELIVERIES})`,
  // The minimal verifier again, in a process of its own and loaded last: how far apart the
  // bench reads two identical servers (the noise floor of every ratio above), and, loaded at
  // once as often as the receivers are, the minimal verifier they are judged against.
  minimalTwin: 'minimal verifier, second process',
} as const;

/** The servers loaded at once with the minimal verifier, for the goals and the noise floor. */
export const AT_ONCE_WITH_MINIMAL = [
  'receiver',
  'loadReceiver',
  'minimalTwin',
] as const satisfies readonly ServerKind[];

export type ServerKind = keyof typeof SERVER_NAMES;

export const SERVER_KINDS = Object.keys(SERVER_NAMES) as ServerKind[];

export function isServerKind(value: unknown): value is ServerKind {
  return typeof value === 'string' && Object.hasOwn(SERVER_NAMES, value);
}

/**
 * The receiver's lines of the bench summary: req/s ratio, then by CPU per request, paired round
 * by round, in brackets (against the minimal verifier, from the rounds loaded at once).
 */
export function formatReceiverGoals(rows: readonly BenchRow[]): string[] {
  const row = (name: string): BenchRow | undefined => rows.find((r) => r.name === name);
  const bare = row(SERVER_NAMES.bare);
  const minimal = row(SERVER_NAMES.minimal);
  const recording = row(SERVER_NAMES.minimalRecording);
  const both = (server: BenchRow | undefined, base: BenchRow | undefined): string =>
    `${ratioPct(server?.rps, base?.rps)} [${pairedCpuRatio(server, base)}]`;
  const againstTwin = (server: BenchRow): string =>
    server.atOnceAgainstTwin === undefined ? '' : `; ${formatPaired(server.atOnceAgainstTwin, '%')} against the twin`;
  // Against the minimal verifier, the CPU figure is the one measured at once when there is one.
  const withMinimal = (server: BenchRow | undefined): string =>
    server?.atOnceWithMinimal === undefined || minimal === undefined
      ? both(server, minimal)
      : `${ratioPct(server.rps, minimal.rps)} [${formatPaired(server.atOnceWithMinimal, '%')} at once${againstTwin(server)}]`;
  const line = (label: string, figures: string, goal: string): string => `${label.padEnd(42)} ${figures} (${goal})`;
  const receiverGoal = formatBound(GOALS.receiverOverMinimalByCpu, '%');
  return [
    line('receiver vs bare node:https:', both(row(SERVER_NAMES.receiver), bare), 'target ≥ 60%'),
    line('minimal verifier vs bare node:https:', both(minimal, bare), 'the ceiling for any verifying receiver'),
    line(
      `minimal keeping ${DEFAULT_KEPT_DELIVERIES} vs minimal:`,
      both(recording, minimal),
      'what recording alone costs',
    ),
    line('receiver vs minimal verifier:', withMinimal(row(SERVER_NAMES.receiver)), `goal ${receiverGoal} by CPU`),
    line(
      'receiver, load run vs minimal verifier:',
      withMinimal(row(SERVER_NAMES.loadReceiver)),
      `goal ${receiverGoal} by CPU`,
    ),
    line(
      `receiver vs minimal keeping ${DEFAULT_KEPT_DELIVERIES}:`,
      both(row(SERVER_NAMES.receiver), recording),
      'both record',
    ),
    line(
      'minimal verifier, second process vs first:',
      withMinimal(row(SERVER_NAMES.minimalTwin)),
      'identical servers: the noise, and the load-history bias the goals divide out',
    ),
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
  return lines
    .map((line) =>
      line
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
