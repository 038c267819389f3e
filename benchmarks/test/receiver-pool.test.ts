/** The pool bench's figures (benchmarks/receiver-pool.ts): the receivers' CPU a delivery, and the rate ratio paired round by round. */
import { describe, expect, it } from 'vitest';
import {
  benchReceiverPool,
  formatPoolRows,
  pairedRateRatio,
  receiverUsPerDelivery,
  type PoolRow,
} from '../receiver-pool.js';
import { wrkAvailable } from '../wrk.js';

const ONE: PoolRow = {
  processes: 1,
  generator: 'wrk',
  rps: 12_500,
  receiverCores: 1.05,
  generatorCores: 0.36,
  tallyCores: 0.08,
  rpsPerRound: [11_000, 12_500, 13_000],
  runs: 1,
};
const TWO: PoolRow = {
  processes: 2,
  generator: 'wrk',
  rps: 22_000,
  receiverCores: 1.43,
  generatorCores: 0.42,
  tallyCores: 0.07,
  rpsPerRound: [22_000, 19_000, 26_000],
  runs: 1,
};

describe('the receiver pool bench', () => {
  it("gives the receivers' CPU a delivery as their cores over the rate", () => {
    expect(receiverUsPerDelivery(ONE)).toBeCloseTo(84, 6);
    expect(receiverUsPerDelivery(TWO)).toBeCloseTo(65, 0);
  });

  it('prints each row with its ratio to one process and its cost a delivery', () => {
    const [one, two] = formatPoolRows([ONE, TWO]).split('\n');
    expect(one).toMatch(
      /^1 process +12500 deliveries\/s {2}receivers 1\.05 cores .*, 84 µs of receiver CPU a delivery$/,
    );
    expect(two).toMatch(
      /^2 processes +22000 deliveries\/s {2}1\.76 × one process .*, 65 µs of receiver CPU a delivery$/,
    );
    expect(formatPoolRows([{ ...ONE, runs: 2 }])).toMatch(
      /a delivery \(measured in 2 runs: wrk ran out of distinct deliveries\)$/,
    );
  });

  it('pairs the rates round by round: the median ratio and the range', () => {
    // Rounds: 22000/11000 = 2.00, 19000/12500 = 1.52, 26000/13000 = 2.00.
    expect(pairedRateRatio(TWO, ONE)).toBe('2.00 × (1.52–2.00 ×)');
    expect(pairedRateRatio({ ...TWO, rpsPerRound: [18_000] }, ONE)).toBe('1.64 ×');
    expect(pairedRateRatio({ ...TWO, rpsPerRound: [] }, ONE)).toBe('n/a');
  });
});

describe.skipIf(!wrkAvailable())('the receiver pool bench under wrk', () => {
  it('measures a round again, with room, when wrk runs out of distinct deliveries', async () => {
    // Prepared for 2% of the warm-up's rate: the first run sends most event ids twice.
    const [row] = await benchReceiverPool(1, [1], 'wrk', 1, 0.02);
    expect(row!.runs).toBeGreaterThanOrEqual(2);
    expect(row!.rps).toBeGreaterThan(0);
  }, 60_000);
});
