/**
 * The receiver pool (src/load/fanout/receiver-pool.ts) with one process and with several on one
 * port, loaded by the same generator with signed deliveries: how its rate grows with
 * processes (goal: 2 processes ≥ 1.6 × one, on 2 cores, where the load generator shares
 * the machine). The generator is wrk when it is installed (written in C, one thread: it
 * leaves the pool its cores), else autocannon, which takes most of a core of its own at one
 * process's rate and so caps any pool on a small machine well below the goal. Each row gives the cores the
 * receivers (with the pool's tally in this process, under wrk) and the generator used: when
 * the two together use the machine's every core, the figure is the machine's, not the pool's.
 * Runnable alone: `npx tsx benchmarks/receiver-pool.ts [seconds] [processes] [wrk|autocannon|-] [rounds]`.
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { LOAD_RECEIVER_KEPT_DELIVERIES } from '../src/load/fanout/start-receiver.js';
import { ReceiverPool } from '../src/load/fanout/receiver-pool.js';
import { measureCpu } from './cpu.js';
import { formatPaired } from './ratios.js';
import { SECRET } from './receiver-delivery.js';
import { runAutocannon } from './receiver.js';
import { prepareWrk, runWrk, wrkAvailable, type WrkInput } from './wrk.js';

export type PoolGenerator = 'wrk' | 'autocannon';

const CONNECTIONS = 50;
/** Distinct deliveries prepared per measured second at the warm-up's rate (the measured run is faster once warm), and per delivery a run that ran out sent. */
const WRK_HEADROOM = 2;
/** Runs of one round that may run out of deliveries, each prepared with more, before the bench gives up. */
const WRK_ATTEMPTS = 3;
/**
 * A run that ran out is prepared with this many times what it sent: its rate may have been held
 * down by a busy machine that is free for the next run, so twice was sometimes still too few.
 */
const WRK_RERUN_GROWTH = 4;
/** For the 1-s warm-up, whose repeats do not matter: more than one warm process takes in a second here. */
const WARM_UP_DELIVERIES = 20_000;

export interface PoolRow {
  processes: number;
  generator: PoolGenerator;
  rps: number;
  /**
   * CPU time over wall time during the run: of the receiver processes together (with this
   * process under wrk), and of the generator (this process under autocannon, wrk's own under wrk).
   */
  receiverCores: number;
  generatorCores: number;
  /** Of this process, where the pool's tally receives every worker's arrivals (and autocannon runs, under autocannon). */
  tallyCores: number;
  /** The rate of each round, in round order (the other figures are the median round's). */
  rpsPerRound: number[];
  /** Runs the round took: more than 1 when wrk ran out of distinct deliveries and the round was measured again. */
  runs: number;
}

/**
 * Each process count in turn, `rounds` times (1, 2, 1, 2, …): drift in a shared machine's
 * speed spreads over every count instead of landing on one, and the rates pair round by round.
 */
export async function benchReceiverPool(
  durationSec: number,
  processes: readonly number[] = [1, 2],
  generator: PoolGenerator = wrkAvailable() ? 'wrk' : 'autocannon',
  rounds = 1,
  wrkHeadroom = WRK_HEADROOM,
): Promise<PoolRow[]> {
  const runs = new Map<number, Omit<PoolRow, 'rpsPerRound'>[]>(processes.map((count) => [count, []]));
  for (let round = 0; round < rounds; round++) {
    for (const count of processes) runs.get(count)!.push(await measurePool(count, generator, durationSec, wrkHeadroom));
  }
  return processes.map((count) => rowOf(runs.get(count)!));
}

async function measurePool(
  count: number,
  generator: PoolGenerator,
  durationSec: number,
  wrkHeadroom: number,
): Promise<Omit<PoolRow, 'rpsPerRound'>> {
  // As a load run's fan-out starts it (src/load/fanout/start-receiver.ts): the pool exists for that.
  const pool = await ReceiverPool.start(count, { maxDeliveriesPerEndpoint: LOAD_RECEIVER_KEPT_DELIVERIES });
  try {
    const { url } = await pool.endpoint('bench', async () => SECRET);
    const warmUp = await load(generator, url, 1); // JIT, TLS, schemas in every process; and the rate to prepare for
    let prepared = Math.ceil(warmUp.rps * durationSec * wrkHeadroom);
    for (let attempt = 1; ; attempt++) {
      const input = generator === 'wrk' ? prepareWrk(prepared) : undefined;
      try {
        const {
          result,
          serverCores,
          generatorCores,
          thisProcessCores: tallyCores,
        } = await measureCpu(
          pool.pids(),
          () => load(generator, url, durationSec, input),
          generator === 'wrk' ? 'exiting child' : 'this process',
        );
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(`receiver pool of ${count}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
        if (result.repeated === 0)
          return {
            processes: count,
            generator,
            rps: Math.round(result.rps),
            receiverCores: serverCores,
            generatorCores,
            tallyCores,
            runs: attempt,
          };
        // A run faster than the warm-up foretold (more processes warm up faster than one): measured again with room for it.
        if (attempt === WRK_ATTEMPTS)
          throw new Error(
            `receiver pool of ${count}: wrk ran out of distinct deliveries in ${attempt} runs, the last sending ${result.repeated} event ids again; the rate would be a duplicate's, not a delivery's`,
          );
        prepared = Math.ceil((prepared + result.repeated) * WRK_RERUN_GROWTH);
      } finally {
        input?.remove();
      }
    }
  } finally {
    await pool.close();
  }
}

/** One process count's rounds: the median round's figures, and every round's rate. */
function rowOf(runs: readonly Omit<PoolRow, 'rpsPerRound'>[]): PoolRow {
  const rpsPerRound = runs.map((run) => run.rps);
  // The round at the median rate (for an even count, the upper of the two middle rounds).
  const middle = [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;
  return { ...middle, rpsPerRound };
}

/** The rate of `pool` over `one`'s in each round, in round order. */
export function pairedRateRatios(pool: PoolRow, one: PoolRow): number[] {
  return pool.rpsPerRound.slice(0, one.rpsPerRound.length).map((rps, round) => rps / one.rpsPerRound[round]!);
}

/** The same as printed: the median and the range, e.g. "1.74 × (1.38–1.94 ×)". */
export function pairedRateRatio(pool: PoolRow, one: PoolRow): string {
  return formatPaired(pairedRateRatios(pool, one), '×');
}

/** One load run; wrk sends `input` (prepared for the run; made here when not given). */
async function load(
  generator: PoolGenerator,
  url: string,
  durationSec: number,
  input?: WrkInput,
): Promise<{ rps: number; non2xx: number; errors: number; repeated: number }> {
  if (generator === 'wrk') {
    const own = input === undefined ? prepareWrk(WARM_UP_DELIVERIES) : undefined;
    try {
      const result = await runWrk(url, durationSec, CONNECTIONS, input ?? own!);
      return { rps: result.rps, non2xx: result.non2xx, errors: result.socketErrors, repeated: result.repeated };
    } finally {
      own?.remove();
    }
  }
  const result = await runAutocannon(url, durationSec, CONNECTIONS);
  return { rps: result.requests.average, non2xx: result.non2xx, errors: result.errors, repeated: 0 };
}

/**
 * The receivers' CPU a delivery (with the pool's tally in this process, under wrk). Two
 * processes can pass 2 × the rate of one when one process pays more a delivery: here it
 * leaves a core partly idle, and waking the generator on that core costs the writer.
 */
export function receiverUsPerDelivery(row: PoolRow): number {
  return (1e6 * row.receiverCores) / Math.max(1, row.rps);
}

export function formatPoolRows(rows: readonly PoolRow[]): string {
  const one = rows.find((row) => row.processes === 1)?.rps;
  return rows
    .map((row) => {
      const name = `${row.processes} process${row.processes === 1 ? '' : 'es'}`.padEnd(12);
      const ratio = one && row.processes > 1 ? `  ${(row.rps / one).toFixed(2)} × one process` : '';
      const tally = row.generator === 'wrk' ? ` (the tally in this process ${row.tallyCores.toFixed(2)})` : '';
      const cores = `  receivers ${row.receiverCores.toFixed(2)} cores${tally}, load generator (${row.generator}) ${row.generatorCores.toFixed(2)} cores, of ${availableParallelism()}`;
      const cost = `, ${receiverUsPerDelivery(row).toFixed(0)} µs of receiver CPU a delivery`;
      const again = row.runs > 1 ? ` (measured in ${row.runs} runs: wrk ran out of distinct deliveries)` : '';
      return `${name} ${String(row.rps).padStart(8)} deliveries/s${ratio}${cores}${cost}${again}`;
    })
    .join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seconds = Number(process.argv[2] ?? 6);
  const most = Number(process.argv[3] ?? 2);
  const generator = process.argv[4] === '-' ? undefined : process.argv[4];
  const rounds = Number(process.argv[5] ?? 1);
  if (generator !== undefined && generator !== 'wrk' && generator !== 'autocannon')
    throw new Error(`the generator is wrk or autocannon, not ${generator}`);
  const rows = await benchReceiverPool(
    seconds,
    Array.from({ length: most }, (_, i) => i + 1),
    generator,
    rounds,
  );
  console.log(formatPoolRows(rows));
  for (const row of rows.slice(1))
    console.log(`${row.processes} processes / 1, round by round: ${pairedRateRatio(row, rows[0]!)}`);
}
