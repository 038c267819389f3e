/**
 * `svc-harness bench [--seconds s]` (src/cli/commands/bench.ts): throughput figures, each
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
 * - the fast tier's wall time beside its longest check, on both reference personalities.
 */
import { benchCertifyWall, formatCertifyWall } from './certify-wall.js';
import { benchK6VsAutocannon } from './k6-vs-autocannon.js';
import { formatBound, formatGoals, formatNoiseFloor, GOALS, type Goal } from './goals.js';
import { benchReceiverPool, formatPoolRows, pairedRateRatio, pairedRateRatios, receiverUsPerDelivery } from './receiver-pool.js';
import { benchReceiver } from './receiver.js';
import { WRK_INSTALL_HINT } from './wrk.js';
import { formatPaired, ratioPct } from './ratios.js';
import { formatBenchTable, formatReceiverGoals, SERVER_NAMES } from './receiver-rows.js';
import { benchReference } from './reference.js';

export async function runBench(durationSec: number): Promise<void> {
  const placementRounds = 5;
  console.log(`# Reference implementation (autocannon, ${placementRounds} interleaved rounds of ${durationSec / 2} s per server after a warm-up; median round, and CPU ratio paired round by round; then ${placementRounds} rounds with both loaded at once, for the goal)`);
  const reference = await benchReference({ durationSec: (durationSec / 2) * placementRounds, rounds: placementRounds });

  // The receiver's goal sits within the noise of servers loaded in turn here: its figures come
  // from the receivers loaded at once with the minimal verifier, 5 rounds of half the duration,
  // each over the twin's of its round (a minimal verifier loaded as often as they are).
  const receiverRounds = 5;
  console.log(
    `\n# Capturing receiver (HTTPS, autocannon, ${receiverRounds} interleaved rounds of ${durationSec / 2} s per server; median round, and CPU ratios paired round by round;` +
      ` then each receiver and a second minimal verifier (the twin) loaded at once with the minimal verifier, ${receiverRounds} rounds;` +
      ' the goals take each receiver against the twin, which is loaded as often as it is)',
  );
  const receiver = await benchReceiver({ durationSec: (durationSec / 2) * receiverRounds, rounds: receiverRounds });
  console.log(formatBenchTable(receiver.rows));

  // Five: one process's rate moved 7 000–13 000 deliveries/s between 3-s rounds here (2026-11-26).
  const poolRounds = 5;
  const poolRoundSec = Math.max(1, Math.round(durationSec / 2));
  console.log(`\n# Receiver pool: processes on one port (SO_REUSEPORT), ${poolRounds} interleaved rounds of ${poolRoundSec} s each; median round, and the rate ratio paired round by round`);
  const pool = await benchReceiverPool(poolRoundSec, [1, 2], undefined, poolRounds);
  if (pool[0]?.generator === 'autocannon') console.log(`(${WRK_INSTALL_HINT}: autocannon, beside the pool, takes most of a core of its own)`);
  console.log(formatPoolRows(pool));

  console.log(`\n# Load generators against one bare node:http 204 server (${durationSec} s each)`);
  const generators = await benchK6VsAutocannon({ durationSec });
  if ('skipped' in generators) console.log(`skipped: ${generators.skipped}`);
  else for (const row of generators.rows) console.log(`${row.name.padEnd(32)} ${String(row.rps).padStart(8)} req/s`);

  console.log('\n# Fast tier: wall time of the whole command beside its longest check (one run per personality)');
  const walls = [await benchCertifyWall('default'), await benchCertifyWall('alternate')];
  for (const wall of walls) console.log(formatCertifyWall(wall));

  console.log('\n# Summary (req/s ratio; by server CPU per request in brackets, which a saturated load generator does not blur)');
  console.log(`call placement vs bare node:http:          ${ratioPct(reference.ratio, 1)} [${formatPaired(reference.cpuRatiosAtOnce, '%')} at once] (goal ${formatBound(GOALS.placementOverBareByCpu, '%')} by CPU)`);
  for (const line of formatReceiverGoals(receiver.rows)) console.log(line);
  if (!('skipped' in generators)) console.log(`k6 vs autocannon (same bare server):       ${ratioPct(generators.rows[1]?.rps, generators.rows[0]?.rps)}`);
  const [onePool, twoPool] = pool;
  const costs = onePool && twoPool ? `; receiver CPU a delivery ${receiverUsPerDelivery(onePool).toFixed(0)} µs with 1, ${receiverUsPerDelivery(twoPool).toFixed(0)} µs with 2` : '';
  console.log(`receiver pool, 2 processes vs 1:          ${onePool && twoPool ? pairedRateRatio(twoPool, onePool) : 'n/a'} (goal ${formatBound(GOALS.poolTwoOverOne, '×')} on 2 cores${costs})`);
  for (const wall of walls) console.log(`fast tier wall / longest check, ${wall.personality.padEnd(9)}  ${(wall.wallMs / wall.longestCheck.ms).toFixed(2)} × (goal ${formatBound(GOALS.wallOverLongestCheck, '×')})`);

  console.log('\n# Goals: met when the median round meets it; in how many rounds it was met');
  const row = (name: string) => receiver.rows.find((candidate) => candidate.name === name);
  const goals: Goal[] = [
    ...walls.map((wall): Goal => ({ name: `fast tier wall / longest check, ${wall.personality}`, rounds: [wall.wallMs / wall.longestCheck.ms], bound: GOALS.wallOverLongestCheck, unit: '×' })),
    // Against the twin: the minimal verifier loaded as often as the receivers (AtOnceRounds.againstTwin).
    { name: 'receiver / minimal verifier (the twin), by CPU, at once', rounds: row(SERVER_NAMES.receiver)?.atOnceAgainstTwin ?? [], bound: GOALS.receiverOverMinimalByCpu, unit: '%' },
    { name: 'receiver (load run) / minimal verifier (the twin), by CPU, at once', rounds: row(SERVER_NAMES.loadReceiver)?.atOnceAgainstTwin ?? [], bound: GOALS.receiverOverMinimalByCpu, unit: '%' },
    { name: 'receiver pool, 2 processes / 1, by rate', rounds: onePool && twoPool ? pairedRateRatios(twoPool, onePool) : [], bound: GOALS.poolTwoOverOne, unit: '×' },
    { name: 'call placement / bare node:http, by CPU, at once', rounds: reference.cpuRatiosAtOnce, bound: GOALS.placementOverBareByCpu, unit: '%' },
  ];
  for (const line of formatGoals(goals)) console.log(line);
  console.log(formatNoiseFloor({ name: 'minimal verifier, the twin / the first, loaded in every pairing, by CPU, at once', rounds: row(SERVER_NAMES.minimalTwin)?.atOnceWithMinimal ?? [], unit: '%' }));
}
