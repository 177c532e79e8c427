import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file gets its own process: WASM heaps never shrink, so files must not share one.
    pool: 'forks',
  },
});
