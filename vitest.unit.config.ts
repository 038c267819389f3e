import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/support/longest-first.js';

// The harness's own unit tests. The fault-catching runs have their own config
// (vitest.faults.config.ts); conformance suites run through `npm run certify`.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'benchmarks/test/**/*.test.ts'],
    // test/load/thresholds.test.ts runs alone (vitest.load.config.ts).
    exclude: ['test/faults/**', 'test/browser/**', 'test/load/thresholds.test.ts', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: one, on a 2-core CI machine, which
    // ran the files one after another. The long ones (k6 smoke and threshold runs, receiver
    // certification, the red-team rounds' scaled waits) mostly wait on their child processes or
    // timers, so they share the cores well: with four, a fifth of the two cores sat idle.
    maxWorkers: 6,
    // Each worker keeps the modules it imported from one file to the next: importing them again
    // for every file (vitest's default) was most of the step's CPU. No file may leave state behind
    // (a server, a timer, a changed global or environment variable): one that did would show as an
    // order-dependent failure here.
    isolate: false,
    sequence: { sequencer: LongestFirstSequencer },
  },
});
