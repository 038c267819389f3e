/** CPU time of the bench's processes: a server in a child process (from /proc), and the load generator (this one). */
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** User and system CPU seconds of a process so far, from /proc (Linux only). */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces: state is the 3rd field, utime the 14th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** User and system CPU seconds of this process so far. */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** What the servers (processes `pids`) and this process, the load generator, used while `load` ran. */
export interface LoadedCpu<T> {
  result: T;
  /** CPU seconds of the servers together. */
  serverSeconds: number;
  /** CPU time over wall time: of the servers together, and of the generator. */
  serverCores: number;
  generatorCores: number;
}

export async function measureCpu<T>(pids: readonly number[], load: () => Promise<T>): Promise<LoadedCpu<T>> {
  const serversCpu = () => pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  const before = { servers: serversCpu(), generator: ownCpuSeconds(), at: performance.now() };
  const result = await load();
  const wallSec = (performance.now() - before.at) / 1000;
  const serverSeconds = serversCpu() - before.servers;
  return { result, serverSeconds, serverCores: serverSeconds / wallSec, generatorCores: (ownCpuSeconds() - before.generator) / wallSec };
}
