/**
 * `npm run bench [-- --seconds s]`: throughput figures, each
 * measured beside a bare server in the same run by the same load generator (autocannon), so
 * that the ratios hold on any machine even when the absolute figures do not:
 * - the reference implementation's call placements per second vs a bare node:http 204 server,
 *   and its webhook deliveries per second over HTTPS;
 * - the capturing receiver's verified deliveries per second vs a bare node:https 204 server
 *   and vs a minimal verifier (HMAC of the raw body, constant-time compare, JSON.parse),
 *   with the suites' defaults and as a load run starts it, and what recording alone costs;
 * - k6's achieved request rate beside autocannon's against the same bare server (how much
 *   of the machine k6 itself costs);
 * - the receiver pool (several receiver processes on one port) against one process;
 * - the fast tier's wall time beside its longest check, on both reference personalities;
 * then each goal of issue 21 judged on its median round, with how many rounds met it, and the
 * noise floor. It prints the figures and writes them into docs/benchmarks.md, between its
 * markers (results-doc.ts). A run takes several minutes at the default 6 s per server.
 */
import { availableParallelism, cpus } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchCertifyWall, formatCertifyWall } from './certify-wall.js';
import { benchK6VsAutocannon } from './k6-vs-autocannon.js';
import { formatBound, formatGoals, formatNoiseFloor, GOALS, type Goal } from './goals.js';
import {
  benchReceiverPool,
  formatPoolRows,
  pairedRateRatio,
  pairedRateRatios,
  receiverUsPerDelivery,
} from './receiver-pool.js';
import { benchReceiver } from './receiver.js';
import { WRK_INSTALL_HINT } from './wrk.js';
import { formatPaired, ratioPct } from './ratios.js';
import { formatBenchTable, formatReceiverGoals, SERVER_NAMES } from './receiver-rows.js';
import { benchReference, formatReference } from './reference.js';
import { formatResults, RESULTS_DOC, writeResults } from './results-doc.js';

/** Runs every bench, printing each line as it comes; returns the lines printed. */
export async function runBench(durationSec: number): Promise<string[]> {
  const printed: string[] = [];
  const print = (text: string): void => {
    console.log(text);
    printed.push(...text.split('\n'));
  };
  const placementRounds = 5;
  print(
    `# Reference implementation (autocannon, ${placementRounds} interleaved rounds of ${durationSec / 2} s per server after a warm-up; median round, and CPU ratio paired round by round; then ${placementRounds} rounds with both loaded at once, for the goal)`,
  );
  const reference = await benchReference({ durationSec: (durationSec / 2) * placementRounds, rounds: placementRounds });
  for (const line of formatReference(reference)) print(line);

  // The receiver's goal sits within the noise of servers loaded in turn here: its figures come
  // from the receivers loaded at once with the minimal verifier, 5 rounds of half the duration,
  // each over the twin's of its round (a minimal verifier loaded as often as they are).
  const receiverRounds = 5;
  print(
    `\n# Capturing receiver (HTTPS, autocannon, ${receiverRounds} interleaved rounds of ${durationSec / 2} s per server; median round, and CPU ratios paired round by round;` +
      ` then each receiver and a second minimal verifier (the twin) loaded at once with the minimal verifier, ${receiverRounds} rounds;` +
      ' the goals take each receiver against the twin, which is loaded as often as it is)',
  );
  const receiver = await benchReceiver({ durationSec: (durationSec / 2) * receiverRounds, rounds: receiverRounds });
  print(formatBenchTable(receiver.rows));

  // Five: one process's rate moves widely between rounds of a few seconds on a shared machine,
  // and the median of five rounds holds still where one round does not.
  const poolRounds = 5;
  const poolRoundSec = Math.max(1, Math.round(durationSec / 2));
  print(
    `\n# Receiver pool: processes on one port (SO_REUSEPORT), ${poolRounds} interleaved rounds of ${poolRoundSec} s each; median round, and the rate ratio paired round by round`,
  );
  const pool = await benchReceiverPool(poolRoundSec, [1, 2], undefined, poolRounds);
  if (pool[0]?.generator === 'autocannon')
    print(`(${WRK_INSTALL_HINT}: autocannon, beside the pool, takes most of a core of its own)`);
  print(formatPoolRows(pool));

  print(`\n# Load generators against one bare node:http 204 server (${durationSec} s each)`);
  const generators = await benchK6VsAutocannon({ durationSec });
  if ('skipped' in generators) print(`skipped: ${generators.skipped}`);
  else for (const row of generators.rows) print(`${row.name.padEnd(32)} ${String(row.rps).padStart(8)} req/s`);

  print('\n# Fast tier: wall time of the whole command beside its longest check (one run per personality)');
  const walls = [await benchCertifyWall('default'), await benchCertifyWall('alternate')];
  for (const wall of walls) print(formatCertifyWall(wall));

  print(
    '\n# Summary (req/s ratio; by server CPU per request in brackets, which a saturated load generator does not blur)',
  );
  print(
    `call placement vs bare node:http:          ${ratioPct(reference.ratio, 1)} [${formatPaired(reference.cpuRatiosAtOnce, '%')} at once] (goal ${formatBound(GOALS.placementOverBareByCpu, '%')} by CPU)`,
  );
  for (const line of formatReceiverGoals(receiver.rows)) print(line);
  if (!('skipped' in generators))
    print(`k6 vs autocannon (same bare server):       ${ratioPct(generators.rows[1]?.rps, generators.rows[0]?.rps)}`);
  const [onePool, twoPool] = pool;
  const costs =
    onePool && twoPool
      ? `; receiver CPU a delivery ${receiverUsPerDelivery(onePool).toFixed(0)} µs with 1, ${receiverUsPerDelivery(twoPool).toFixed(0)} µs with 2`
      : '';
  print(
    `receiver pool, 2 processes vs 1:          ${onePool && twoPool ? pairedRateRatio(twoPool, onePool) : 'n/a'} (goal ${formatBound(GOALS.poolTwoOverOne, '×')} on 2 cores${costs})`,
  );
  for (const wall of walls)
    print(
      `fast tier wall / longest check, ${wall.personality.padEnd(9)}  ${(wall.wallMs / wall.longestCheck.ms).toFixed(2)} × (goal ${formatBound(GOALS.wallOverLongestCheck, '×')})`,
    );

  print('\n# Goals: met when the median round meets it; in how many rounds it was met');
  const row = (name: string) => receiver.rows.find((candidate) => candidate.name === name);
  const goals: Goal[] = [
    ...walls.map(
      (wall): Goal => ({
        name: `fast tier wall / longest check, ${wall.personality}`,
        rounds: [wall.wallMs / wall.longestCheck.ms],
        bound: GOALS.wallOverLongestCheck,
        unit: '×',
      }),
    ),
    // Against the twin: the minimal verifier loaded as often as the receivers (AtOnceRounds.againstTwin).
    {
      name: 'receiver / minimal verifier (the twin), by CPU, at once',
      rounds: row(SERVER_NAMES.receiver)?.atOnceAgainstTwin ?? [],
      bound: GOALS.receiverOverMinimalByCpu,
      unit: '%',
    },
    {
      name: 'receiver (load run) / minimal verifier (the twin), by CPU, at once',
      rounds: row(SERVER_NAMES.loadReceiver)?.atOnceAgainstTwin ?? [],
      bound: GOALS.receiverOverMinimalByCpu,
      unit: '%',
    },
    {
      name: 'receiver pool, 2 processes / 1, by rate',
      rounds: onePool && twoPool ? pairedRateRatios(twoPool, onePool) : [],
      bound: GOALS.poolTwoOverOne,
      unit: '×',
    },
    {
      name: 'call placement / bare node:http, by CPU, at once',
      rounds: reference.cpuRatiosAtOnce,
      bound: GOALS.placementOverBareByCpu,
      unit: '%',
    },
  ];
  for (const line of formatGoals(goals)) print(line);
  print(
    formatNoiseFloor({
      name: 'minimal verifier, the twin / the first, loaded in every pairing, by CPU, at once',
      rounds: row(SERVER_NAMES.minimalTwin)?.atOnceWithMinimal ?? [],
      unit: '%',
    }),
  );
  return printed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '6' } } });
  const durationSec = Number(values.seconds);
  if (!Number.isFinite(durationSec) || durationSec <= 0) {
    console.error('usage: npm run bench [-- --seconds s] (measured seconds per server, a positive number; default 6)');
    process.exit(2);
  }
  const printed = await runBench(durationSec);
  const setting = {
    node: process.version,
    cpus: `${availableParallelism()} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}`,
    secondsPerServer: durationSec,
  };
  const doc = resolve(fileURLToPath(new URL('..', import.meta.url)), RESULTS_DOC);
  writeResults(doc, formatResults(setting, printed));
  console.log(`\nwritten to ${RESULTS_DOC}`);
}
