/** CPU time of the bench's processes: a server in a child process (from /proc), and the load generator (this one, or a child once it has exited). */
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

/** User and system CPU seconds of this process's children that have exited (and been reaped) so far. */
export function exitedChildrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // cutime and cstime, the 16th and 17th fields.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS_PER_SECOND;
}

/** What the servers (processes `pids`) and the load generator used while `load` ran. */
export interface LoadedCpu<T> {
  result: T;
  /** CPU seconds of the servers together, and of the generator. */
  serverSeconds: number;
  generatorSeconds: number;
  /** CPU time over wall time: of the servers together, and of the generator. */
  serverCores: number;
  generatorCores: number;
  /** Of this process alone, whichever side it counts with. */
  thisProcessCores: number;
}

/**
 * Where the load generator runs: in this process (autocannon), or as a child process that
 * `load` waits for to exit (wrk); then this process's own CPU counts with the servers'.
 */
export type GeneratorProcess = 'this process' | 'exiting child';

export async function measureCpu<T>(
  pids: readonly number[],
  load: () => Promise<T>,
  generator: GeneratorProcess = 'this process',
): Promise<LoadedCpu<T>> {
  const serversCpu = () =>
    pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0) + (generator === 'exiting child' ? ownCpuSeconds() : 0);
  const generatorCpu = generator === 'this process' ? ownCpuSeconds : exitedChildrenCpuSeconds;
  const before = { servers: serversCpu(), generator: generatorCpu(), own: ownCpuSeconds(), at: performance.now() };
  const result = await load();
  const wallSec = (performance.now() - before.at) / 1000;
  const serverSeconds = serversCpu() - before.servers;
  const generatorSeconds = generatorCpu() - before.generator;
  const thisProcessCores = (ownCpuSeconds() - before.own) / wallSec;
  return {
    result,
    serverSeconds,
    generatorSeconds,
    serverCores: serverSeconds / wallSec,
    generatorCores: generatorSeconds / wallSec,
    thisProcessCores,
  };
}

/** A server process and the load that drives it, for two servers loaded at once. */
export interface LoadedServer<T extends { requests: { total: number } }> {
  pid: number;
  load: () => Promise<T>;
}

/**
 * Two servers loaded at the same time: the base's CPU a request over the server's (below 1,
 * the server is the dearer), and each load's result. Loaded at once, both see the same drift
 * of a shared machine, which moves a server's cost far more between servers loaded in turn.
 */
export async function cpuRatioAtOnce<T extends { requests: { total: number } }>(
  base: LoadedServer<T>,
  server: LoadedServer<T>,
): Promise<{ ratio: number; base: T; server: T }> {
  const before = [cpuSecondsOf(base.pid), cpuSecondsOf(server.pid)];
  const [baseResult, serverResult] = await Promise.all([base.load(), server.load()]);
  const baseCost = (cpuSecondsOf(base.pid) - before[0]!) / Math.max(1, baseResult.requests.total);
  const serverCost = (cpuSecondsOf(server.pid) - before[1]!) / Math.max(1, serverResult.requests.total);
  return { ratio: baseCost / serverCost, base: baseResult, server: serverResult };
}
