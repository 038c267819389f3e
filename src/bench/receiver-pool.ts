/**
 * The receiver pool (src/load/receiver-pool.ts) with one process and with several on one
 * port, loaded by the same autocannon run of signed deliveries: how its rate grows with
 * processes (goal: 2 processes ≥ 1.6 × one, on 2 cores, where the load generator shares
 * the machine). Each row gives the cores the receivers and the load generator used: when
 * the two together use the machine's every core, the figure is the machine's, not the pool's.
 * Runnable alone: `npx tsx src/bench/receiver-pool.ts [seconds] [processes]`.
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { ReceiverPool } from '../load/receiver-pool.js';
import { measureCpu } from './cpu.js';
import { SECRET } from './receiver-delivery.js';
import { runAutocannon } from './receiver.js';

export interface PoolRow {
  processes: number;
  rps: number;
  /** CPU time over wall time during the run: of the receiver processes together, and of this process (autocannon). */
  receiverCores: number;
  generatorCores: number;
}

export async function benchReceiverPool(durationSec: number, processes: readonly number[] = [1, 2]): Promise<PoolRow[]> {
  const rows: PoolRow[] = [];
  for (const count of processes) {
    const pool = await ReceiverPool.start(count);
    try {
      const { url } = await pool.endpoint('bench', async () => SECRET);
      await runAutocannon(url, 1, 50); // warm-up: JIT, TLS, schemas in every process
      const { result, serverCores, generatorCores } = await measureCpu(pool.pids(), () => runAutocannon(url, durationSec, 50));
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`receiver pool of ${count}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
      rows.push({ processes: count, rps: Math.round(result.requests.average), receiverCores: serverCores, generatorCores });
    } finally {
      await pool.close();
    }
  }
  return rows;
}

/**
 * The most any pool could reach over one process on this machine, with the load generator
 * beside it: every core spent on receivers and generator at the one-process cost per delivery.
 */
export function poolCeiling(one: PoolRow, cores = availableParallelism()): number {
  return cores / (one.receiverCores + one.generatorCores);
}

export function formatPoolRows(rows: readonly PoolRow[]): string {
  const one = rows.find((row) => row.processes === 1)?.rps;
  return rows
    .map((row) => {
      const name = `${row.processes} process${row.processes === 1 ? '' : 'es'}`.padEnd(12);
      const ratio = one && row.processes > 1 ? `  ${(row.rps / one).toFixed(2)} × one process` : '';
      const cores = `  receivers ${row.receiverCores.toFixed(2)} cores, load generator ${row.generatorCores.toFixed(2)} cores, of ${availableParallelism()}`;
      return `${name} ${String(row.rps).padStart(8)} deliveries/s${ratio}${cores}`;
    })
    .join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seconds = Number(process.argv[2] ?? 6);
  const most = Number(process.argv[3] ?? 2);
  console.log(formatPoolRows(await benchReceiverPool(seconds, Array.from({ length: most }, (_, i) => i + 1))));
}
