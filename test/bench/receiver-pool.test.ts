/** The pool bench's ceiling (src/bench/receiver-pool.ts): the machine's cores over what one process and its load generator used together. */
import { describe, expect, it } from 'vitest';
import { poolCeiling } from '../../src/bench/receiver-pool.js';

describe('the receiver pool bench', () => {
  it('puts the ceiling at the cores over the cores one process and its generator used', () => {
    expect(poolCeiling({ processes: 1, generator: 'autocannon', rps: 14_600, receiverCores: 1.02, generatorCores: 0.83, tallyCores: 0.83 }, 2)).toBeCloseTo(1.081, 3);
    expect(poolCeiling({ processes: 1, generator: 'wrk', rps: 10_000, receiverCores: 1, generatorCores: 0.25, tallyCores: 0.1 }, 2)).toBeCloseTo(1.6, 3);
  });
});
