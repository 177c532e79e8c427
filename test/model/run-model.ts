// Runs the model test: seeded fast-check runs of random command sequences against one kind of
// store, each run on a fresh store. Shared by the bounded test (test/model/api-model.test.ts) and the
// long runs of tools/model/run.ts.

import fc from 'fast-check';
import type { LongshipOptions } from '../../src/engine.js';
import type { UsearchModule } from '../../src/vector/usearch-module.js';
import { checkTree } from './checks.js';
import { counter, modelCommands } from './commands.js';
import type { ModelSwitches } from './switches.js';
import { RealSystem, type StoreKind } from './system.js';
import { TreeModel } from './tree-model.js';

/** When the indexes are snapshotted: often (so crashes land between snapshots), never, or the default. */
const snapshotSettings: readonly (LongshipOptions['snapshots'] | undefined)[] = [
  undefined,
  { delayMs: 0 },
  { delayMs: Number.POSITIVE_INFINITY },
  { delayMs: 0, afterChanges: 24 },
];

export interface ModelRunOptions {
  kind: StoreKind;
  usearch: UsearchModule;
  seed: number;
  runs: number;
  /** Most commands in one run. */
  maxCommands: number;
  switches: ModelSwitches;
}

/** Resolves with the number of API calls made; throws fast-check's report (seed, shrunk counterexample). */
export async function runModel(options: ModelRunOptions): Promise<number> {
  const { switches } = options;
  const start = counter.ops;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...snapshotSettings),
      fc.commands(modelCommands(switches), { maxCommands: options.maxCommands, size: 'max' }),
      async (snapshots, commands) => {
        const real = await RealSystem.open(options.kind, options.usearch, snapshots);
        try {
          const model = new TreeModel();
          await fc.asyncModelRun(() => ({ model, real }), commands);
          await checkTree(model, real.longship, 'at the end');
        } finally {
          await real.dispose();
        }
      },
    ),
    { seed: options.seed, numRuns: options.runs },
  );
  return counter.ops - start;
}
