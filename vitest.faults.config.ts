import { defineConfig } from 'vitest/config';

// The fault-catching runs: each test certifies the reference with one fault switched on.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    globalSetup: ['test/faults/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 30_000,
    maxConcurrency: 6,
    pool: 'forks',
  },
});
