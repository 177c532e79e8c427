// How memories age, bound to one Longship (docs/guide/memory-lifecycle.md): what find() asks of each
// candidate (expired? decayed by how much?), the sweep of expired memories, and consolidation.
import type { ContextTree } from '../context/tree.js';
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
import { isExpired, type SweepResult, sweepExpired, sweepOptionsSchema } from './expiry.js';
import { type EventDecayOptions, type MemoryOptions, memorySettings } from './memory-options.js';
import { type MemoryFields, memoryKindOf, memoryTimeOf } from './memory-time.js';

export interface MemoryLifecycle {
  /** The judge of find()'s candidates at this moment: expired memories out, event memories decayed. */
  ageing(): AgeJudge;
  /** Removes every expired memory of every user and agent, in one commit. */
  sweep(options?: { signal?: AbortSignal }): Promise<SweepResult>;
  /** Longship's methods, under their names there, for the namespace whose memories are under `memoryRoots`. */
  methods(memoryRoots: readonly string[]): {
    /** Removes every expired memory (of every namespace), in one commit. */
    sweepMemories(options?: { signal?: AbortSignal }): Promise<SweepResult>;
    /** Merges duplicate memories (see consolidate.ts). */
    consolidateMemories(options?: ConsolidateOptions): Promise<Consolidation>;
  };
}

export interface MemoryLifecycleDeps {
  store: Pick<FullStore, 'descendants' | 'commit'>;
  tree: Pick<ContextTree, 'write'>;
  llm: LLM | undefined;
}

/**
 * The lifecycle of the memories in `deps.store`, under `options` (already checked by openLongship),
 * once the memories that expired while the store was closed are swept.
 *
 * @example
 * const memory = await openMemoryLifecycle({ store, tree, llm }, { ttl: { events: 30 * 86_400_000 } });
 * await memory.methods(namespaceRoots(namespace).memory).consolidateMemories();
 */
export async function openMemoryLifecycle(
  deps: MemoryLifecycleDeps,
  options?: MemoryOptions,
): Promise<MemoryLifecycle> {
  const settings = memorySettings(options);
  const { ttl, decay } = settings;
  const { llm, ...rest } = deps;
  const lifecycle: MemoryLifecycle = {
    ageing() {
      const now = settings.now();
      return (node) => {
        if (isExpired(node, ttl, now)) return 'expired';
        return decay === false ? undefined : decayOf(node, now, decay);
      };
    },
    async sweep(sweepOptions) {
      const { signal } = checkOptions(sweepOptionsSchema, sweepOptions, 'sweepMemories()');
      // Every user's and agent's space: expiry is the store's, whoever asks.
      return sweepExpired(deps.store, ['viking://user', 'viking://agent'], settings, signal);
    },
    methods: (memoryRoots) => ({
      sweepMemories: (sweepOptions) => lifecycle.sweep(sweepOptions),
      consolidateMemories: async (consolidateOptions) => {
        checkOptions(consolidateOptionsSchema, consolidateOptions, 'consolidateMemories()');
        const consolidateDeps = { ...rest, ...(llm ? { llm } : {}), memoryRoots, settings };
        return consolidateMemories(consolidateDeps, consolidateOptions);
      },
    }),
  };
  await lifecycle.sweep();
  return lifecycle;
}

// Time decay of event memories in ranking (docs/guide/memory-lifecycle.md, "Decay"): what happened
// long ago matters less to the next prompt than what happened this month, while a preference or a
// fact about a person does not fade with time. Only kind `events` decays.

const DAY_MS = 86_400_000;

/**
 * The factor an event memory's score is multiplied by: 1 within `protectionDays` of when it
 * happened, then halving every `halfLifeDays`. Undefined for anything that does not decay (not an
 * event memory), so the trace can tell "not decayed" from "decayed by 1".
 *
 * @example
 * decayOf(eventOf97DaysAgo, now, { halfLifeDays: 90, protectionDays: 7 }); // 0.5
 */
export function decayOf(
  node: MemoryFields,
  now: number,
  options: Required<EventDecayOptions>,
): number | undefined {
  if (memoryKindOf(node) !== 'events') return undefined;
  const decayedDays = (now - memoryTimeOf(node)) / DAY_MS - options.protectionDays;
  return decayedDays <= 0 ? 1 : 2 ** (-decayedDays / options.halfLifeDays);
}
