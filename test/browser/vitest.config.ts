import { defineConfig } from 'vitest/config';

// report.html in headless Chromium (test/browser/report.test.ts). Run after a
// certification run, so that the last run's report is rendered too:
//   vitest run --config test/browser/vitest.config.ts
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
