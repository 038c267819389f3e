import { defineConfig } from 'vitest/config';

// The harness's own unit tests. The fault-catching runs have their own config
// (vitest.faults.config.ts); conformance suites run through `npm run certify`.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/faults/**', 'test/browser/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
