/** The benches' CPU accounting (benchmarks/cpu.ts): a process's CPU seconds read from /proc agree with what node counts for itself. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuRatioAtOnce, cpuSecondsOf, measureCpu, ownCpuSeconds } from '../cpu.js';

describe('CPU seconds of a process', () => {
  it('reads a process CPU seconds from /proc as node counts them (to the 10 ms tick)', () => {
    const before = cpuSecondsOf(process.pid);
    // Busy until this process has used 0.3 CPU-s more, however busy the machine is.
    const start = process.cpuUsage();
    while (process.cpuUsage(start).user + process.cpuUsage(start).system < 300_000);
    const own = ownCpuSeconds();
    const after = cpuSecondsOf(process.pid);
    expect(after - before).toBeGreaterThan(0.2);
    // /proc counts every thread of the process, node's own figure too: within two ticks and what ran between the reads.
    expect(Math.abs(after - own)).toBeLessThan(0.05);
  });

  it('measures what the servers and the generator used while a load ran, over its wall time', async () => {
    // This process is both "server" and generator: it sleeps 200 ms, then busies itself for 0.2 CPU-s.
    const measured = await measureCpu([process.pid], async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const start = process.cpuUsage();
      while (process.cpuUsage(start).user + process.cpuUsage(start).system < 200_000);
      return 'done';
    });
    expect(measured.result).toBe('done');
    expect(measured.serverSeconds).toBeGreaterThan(0.15);
    // At least 0.4 s of wall for at most about 0.3 CPU-s: well under one core, the two alike.
    expect(measured.serverCores).toBeLessThan(0.85);
    expect(Math.abs(measured.serverCores - measured.generatorCores)).toBeLessThan(0.15);
    // This process is the generator here: its own share is the generator's.
    expect(Math.abs(measured.thisProcessCores - measured.generatorCores)).toBeLessThan(0.05);
  });

  it('counts a generator running as a child process once it has exited, and this process with the servers', async () => {
    // The child busies itself for 0.3 CPU-s and exits; this process idles meanwhile.
    const busy =
      'const s = process.cpuUsage(); while (process.cpuUsage(s).user + process.cpuUsage(s).system < 300000);';
    const measured = await measureCpu(
      [],
      async () => {
        const child = spawn(process.execPath, ['-e', busy], { stdio: 'ignore' });
        await once(child, 'exit');
        return child.exitCode;
      },
      'exiting child',
    );
    // The child's 0.3 CPU-s and its start-up, counted to the 10 ms tick; not this idle process's.
    expect(measured.generatorSeconds).toBeGreaterThan(0.28);
    expect(measured.generatorSeconds).toBeLessThan(1);
    expect(measured.serverSeconds).toBeLessThan(measured.generatorSeconds / 2);
    // No server pids: the servers' side is this process alone.
    expect(Math.abs(measured.thisProcessCores - measured.serverCores)).toBeLessThan(0.05);
  });

  it('gives two servers loaded at once the base CPU a request over the server', async () => {
    // Each child, when asked, busies itself for the CPU-s it is sent, answers, and stays up.
    const busy =
      "process.on('message', (seconds) => { const s = process.cpuUsage(); while (process.cpuUsage(s).user + process.cpuUsage(s).system < seconds * 1e6); process.send('done'); });" +
      "process.send('ready');";
    const start = () => spawn(process.execPath, ['-e', busy], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const children = [start(), start()];
    try {
      await Promise.all(children.map((child) => once(child, 'message')));
      const loaded = (child: (typeof children)[number], seconds: number, requests: number) => ({
        pid: child.pid!,
        load: async () => {
          child.send(seconds);
          await once(child, 'message');
          return { requests: { total: requests } };
        },
      });
      // The base: 0.4 CPU-s for 2 requests; the server: 0.4 CPU-s for 1, twice the base's cost a request.
      const measured = await cpuRatioAtOnce(loaded(children[0]!, 0.4, 2), loaded(children[1]!, 0.4, 1));
      expect(measured.base.requests.total).toBe(2);
      expect(measured.ratio).toBeGreaterThan(0.4);
      expect(measured.ratio).toBeLessThan(0.6);
    } finally {
      for (const child of children) child.kill();
      await Promise.all(
        children.map((child) =>
          child.exitCode === null && child.signalCode === null ? once(child, 'exit') : undefined,
        ),
      );
    }
  });
});
