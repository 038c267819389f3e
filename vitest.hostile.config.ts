import { defineConfig } from 'vitest/config';

// The harness under attack (test/hostile/README.md): certification runs against hostile
// targets, interrupts, secret leaks, bad settings, and a flood of the capturing receiver.
export default defineConfig({
  test: {
    // `.hostile.ts`, not `.test.ts`: the unit config (test/**/*.test.ts) must not pick these up.
    include: ['test/hostile/**/*.hostile.ts'],
    testTimeout: 240_000,
    hookTimeout: 30_000,
    maxConcurrency: 32,
    pool: 'forks',
    // vitest 4: poolOptions.forks.maxForks is now the top-level maxWorkers (minForks is gone).
    maxWorkers: 4,
  },
});
