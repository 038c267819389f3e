import { defineConfig } from 'vitest/config';

// The container path on a real engine (`npm run test:container`): builds the reference
// image, certifies it through testcontainers, and checks a broken image is refused; builds
// the harness image and certifies the reference image with one run of it.
// Files end in .spec.ts so the unit config (test/**/*.test.ts) does not pick them up.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/container/**/*.spec.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
