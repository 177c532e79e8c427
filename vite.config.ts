import { defineConfig } from 'vitest/config';

// The projects, what each proves and how to run one: docs/internals/testing.md. `npm test` runs them all.
const targets = ['test/targets/**/*.test.ts', 'test/edge/**/*.test.ts'];
const e2e = ['test/e2e/**/*.test.ts'];
const consumer = ['test/consumer/**/*.test.ts'];
const bench = ['test/bench/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file gets its own process: WASM heaps never shrink, so files must not share one.
    pool: 'forks',
    projects: [
      {
        // Node alone: everything that needs no browser, no Deno, no workerd and no packed package.
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...targets, ...e2e, ...consumer, ...bench],
        },
      },
      {
        // The other runtimes, each a real one: Chromium (page, Worker, SharedWorker, OPFS), Deno, workerd.
        extends: true,
        test: { name: 'targets', include: targets },
      },
      {
        // The demo in Chromium end to end: the crash test's 20 kills, two tabs, the main thread's tasks.
        extends: true,
        test: { name: 'e2e', include: e2e },
      },
      {
        // Every benchmark at a tiny size, each as the child process its npm script runs, two at a time.
        extends: true,
        test: { name: 'bench', include: bench, maxConcurrency: 2 },
      },
      {
        // The package as a user installs it: packed, installed into fixture projects (test/consumer/).
        extends: true,
        test: {
          name: 'consumer',
          include: consumer,
          globalSetup: ['test/consumer/setup.ts'],
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
