import { defineConfig } from 'vitest/config';

// The fault-catching runs: each test certifies the reference with one fault switched on.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    globalSetup: ['test/faults/global-setup.ts'],
    // Every test starts at once and waits for a slot: faults.test.ts limits the runs in two
    // pools. A test's time includes that wait; each run is killed at its own limit (certify-child.ts).
    testTimeout: 600_000,
    hookTimeout: 30_000,
    maxConcurrency: 256,
    pool: 'forks',
  },
});
