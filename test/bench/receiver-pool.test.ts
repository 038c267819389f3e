/**
 * The pool bench's CPU accounting (src/bench/receiver-pool.ts): a process's CPU seconds
 * read from /proc agree with what node counts for itself, and the ceiling of a pool is the
 * machine's cores over what one process and its load generator used together.
 */
import { describe, expect, it } from 'vitest';
import { cpuSecondsOf, poolCeiling } from '../../src/bench/receiver-pool.js';

describe('the receiver pool bench', () => {
  it('reads a process CPU seconds from /proc as node counts them (to the 10 ms tick)', () => {
    const before = cpuSecondsOf(process.pid);
    // Busy until this process has used 0.3 CPU-s more, however busy the machine is.
    const start = process.cpuUsage();
    while (process.cpuUsage(start).user + process.cpuUsage(start).system < 300_000);
    const usage = process.cpuUsage();
    const after = cpuSecondsOf(process.pid);
    expect(after - before).toBeGreaterThan(0.2);
    // /proc counts every thread of the process, node's own figure too: within two ticks and what ran between the reads.
    expect(Math.abs(after - (usage.user + usage.system) / 1e6)).toBeLessThan(0.05);
  });

  it('puts the ceiling at the cores over the cores one process and its generator used', () => {
    expect(poolCeiling({ processes: 1, rps: 14_600, receiverCores: 1.02, generatorCores: 0.83 }, 2)).toBeCloseTo(1.081, 3);
    expect(poolCeiling({ processes: 1, rps: 10_000, receiverCores: 1, generatorCores: 0.25 }, 2)).toBeCloseTo(1.6, 3);
  });
});
