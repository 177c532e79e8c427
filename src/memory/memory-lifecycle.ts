// How memories age, bound to one Longship (docs/guide/memory-lifecycle.md): what find() asks of each
// candidate (expired? decayed by how much?), the sweep of expired memories, and consolidation.
import type { ContextTree } from '../context/tree.js';
import { roots } from '../context/uri.js';
import type { LLM } from '../llm/llm.js';
import { checkOptions } from '../options.js';
import type { AgeJudge } from '../retrieve/sources.js';
import type { FullStore } from '../store/full-store.js';
import {
  type ConsolidateOptions,
  type Consolidation,
  consolidateMemories,
  consolidateOptionsSchema,
} from './consolidate.js';
import { decayOf } from './decay.js';
import { isExpired, type SweepResult, sweepExpired, sweepOptionsSchema } from './expiry.js';
import { type MemoryOptions, memorySettings } from './memory-options.js';

export interface MemoryLifecycle {
  /** The judge of find()'s candidates at this moment: expired memories out, event memories decayed. */
  ageing(): AgeJudge;
  /** Removes every expired memory, in one commit. */
  sweep(options?: { signal?: AbortSignal }): Promise<SweepResult>;
  /** Merges duplicate memories (see consolidate.ts). */
  consolidate(options?: ConsolidateOptions): Promise<Consolidation>;
}

export interface MemoryLifecycleDeps {
  store: Pick<FullStore, 'descendants' | 'commit'>;
  tree: Pick<ContextTree, 'write'>;
  llm?: LLM;
}

/**
 * The lifecycle of the memories in `deps.store`, under `options` (already checked by openLongship).
 *
 * @example
 * const memory = createMemoryLifecycle({ store, tree }, { ttl: { events: 30 * 86_400_000 } });
 * await memory.sweep();
 */
export function createMemoryLifecycle(deps: MemoryLifecycleDeps, options?: MemoryOptions): MemoryLifecycle {
  const settings = memorySettings(options);
  const { ttl, decay } = settings;
  return {
    ageing() {
      const now = settings.now();
      return (node) => {
        if (isExpired(node, ttl, now)) return 'expired';
        return decay === false ? undefined : decayOf(node, now, decay);
      };
    },
    sweep: async (sweepOptions) => {
      const { signal } = checkOptions(sweepOptionsSchema, sweepOptions, 'sweepMemories()');
      return sweepExpired(deps.store, roots.memory, settings, signal);
    },
    consolidate: async (consolidateOptions) => {
      checkOptions(consolidateOptionsSchema, consolidateOptions, 'consolidateMemories()');
      return consolidateMemories({ ...deps, memoryRoots: roots.memory, settings }, consolidateOptions);
    },
  };
}
