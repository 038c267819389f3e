import { defineConfig } from 'vitest/config';
import unit from './vitest.unit.config.js';

// The load thresholds' runs (test/load/thresholds.test.ts) alone, after the unit tests: each
// floods loopback receivers with a fan-out over TLS, and beside four other test files on a
// two-core machine their handshakes timed out, turning a threshold that should hold into a loss.
export default defineConfig({
  test: {
    ...unit.test,
    include: ['test/load/thresholds.test.ts'],
    exclude: ['node_modules/**'],
    maxWorkers: 1,
  },
});
