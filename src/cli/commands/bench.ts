import type { Command } from '../command.js';
import { UsageError } from '../command.js';

export const benchCommand: Command = {
  words: ['bench'],
  summary: 'Throughput ratios, each measured beside a bare server in the same run.',
  description: 'Call placement, the capturing receiver against a minimal verifier, k6 against autocannon, the receiver pool (wrk when installed), the fast tier against its longest check; then each goal of issue 21 judged on its median round, with how many rounds met it, and the noise floor: the minimal verifier in a second process (the twin), paired with the first as the receivers are; the receiver goals take each receiver against the twin, loaded as often as it is. About 6 minutes at 6 s per server.',
  options: { seconds: { type: 'string', value: '<s>', description: 'measured seconds per server (default 6)' } },
  exitCodes: { 0: 'the figures were printed, whether or not each goal was met', 2: 'bad arguments' },
  notes: ['k6 is found as by the load command; without it the k6 row is skipped.'],
  async run({ values }) {
    const durationSec = Number(values.seconds ?? 6);
    if (!Number.isFinite(durationSec) || durationSec <= 0) throw new UsageError('--seconds takes a positive number');
    const { runBench } = await import('../../bench/run.js');
    await runBench(durationSec);
    return 0;
  },
};
