/** The pool bench's cost a delivery (src/bench/receiver-pool.ts): the receivers' CPU over the deliveries they answered. */
import { describe, expect, it } from 'vitest';
import { formatPoolRows, receiverUsPerDelivery, type PoolRow } from '../../src/bench/receiver-pool.js';

const ONE: PoolRow = { processes: 1, generator: 'wrk', rps: 12_500, receiverCores: 1.05, generatorCores: 0.36, tallyCores: 0.08 };
const TWO: PoolRow = { processes: 2, generator: 'wrk', rps: 22_000, receiverCores: 1.43, generatorCores: 0.42, tallyCores: 0.07 };

describe('the receiver pool bench', () => {
  it('gives the receivers\' CPU a delivery as their cores over the rate', () => {
    expect(receiverUsPerDelivery(ONE)).toBeCloseTo(84, 6);
    expect(receiverUsPerDelivery(TWO)).toBeCloseTo(65, 0);
  });

  it('prints each row with its ratio to one process and its cost a delivery', () => {
    const [one, two] = formatPoolRows([ONE, TWO]).split('\n');
    expect(one).toMatch(/^1 process +12500 deliveries\/s {2}receivers 1\.05 cores .*, 84 µs of receiver CPU a delivery$/);
    expect(two).toMatch(/^2 processes +22000 deliveries\/s {2}1\.76 × one process .*, 65 µs of receiver CPU a delivery$/);
  });
});
