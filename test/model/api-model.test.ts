// The model-based test of the public API (docs/internals/model-test.md), bounded: seeded runs on each store,
// batch after batch (the seed goes up by one each) until the store's share of 10,000 calls is made.
// A failure prints fast-check's report: the seed, the path and the shrunk sequence of calls.

import { describe, expect, it } from 'vitest';
import { loadUsearch } from '../../src/vector/usearch-module.js';
import { runModel } from './run-model.js';
import { envSwitches } from './switches.js';
import { type StoreKind, storeKinds } from './system.js';

/** Calls per store: IndexedDB (fake-indexeddb) and the file store (an fsync per commit) are slower. */
const calls: Record<StoreKind, number> = { memory: 8_400, idb: 800, file: 800 };
const firstSeed = Number(process.env.LONGSHIP_MODEL_SEED ?? 24);

describe('the public API against its model', () => {
  for (const kind of storeKinds) {
    it(`holds on the ${kind} store`, async () => {
      const usearch = await loadUsearch();
      const started = performance.now();
      let made = 0;
      let seed = firstSeed;
      while (made < calls[kind]) {
        made += await runModel({
          kind,
          usearch,
          seed: seed++,
          runs: 4,
          maxCommands: 100,
          switches: envSwitches(),
        });
      }
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `model test, ${kind} store: ${made} calls in ${seconds.toFixed(1)} s (${(made / seconds).toFixed(0)}/s), seeds ${firstSeed}-${seed - 1}`,
      );
      expect(made).toBeGreaterThanOrEqual(calls[kind]);
    }, 120_000);
  }
});
