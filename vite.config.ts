import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file gets its own process: WASM heaps never shrink, so files must not share one.
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/consumer/**'] },
      },
      {
        // The package as a user installs it: packed, installed into fixture projects (test/consumer/).
        extends: true,
        test: {
          name: 'consumer',
          include: ['test/consumer/**/*.test.ts'],
          globalSetup: ['test/consumer/setup.ts'],
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
