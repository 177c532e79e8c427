// When a memory expires (docs/guide/memory-lifecycle.md, "Expiry"): at its own `meta.expiresAt`, or
// its kind's TTL after it happened. Retrieval drops expired memories at once; the sweep removes them
// from the store.
import * as v from 'valibot';
import { throwIfAborted } from '../abort.js';
import { signalSchema } from '../options.js';
import type { FullStore } from '../store/full-store.js';
import type { MemorySettings } from './memory-options.js';
import { type MemoryFields, memoryKindOf, memoryTimeOf } from './memory-time.js';

/**
 * When the memory expires, in ms since the epoch, or undefined when it never does (not a memory, no
 * `expiresAt`, no TTL for its kind).
 *
 * @example
 * expiryOf(eventNode, { events: 30 * 86_400_000 }); // its occurredAt plus 30 days
 */
export function expiryOf(node: MemoryFields, ttl: MemorySettings['ttl']): number | undefined {
  const kind = memoryKindOf(node);
  if (kind === undefined) return undefined;
  const own = node.meta.expiresAt;
  if (typeof own === 'number' && !Number.isNaN(own)) return own;
  const life = (ttl as Record<string, number | undefined>)[kind];
  return life === undefined ? undefined : memoryTimeOf(node) + life;
}

/** Whether the memory has expired at `now`. */
export function isExpired(node: MemoryFields, ttl: MemorySettings['ttl'], now: number): boolean {
  const expiry = expiryOf(node, ttl);
  return expiry !== undefined && expiry <= now;
}

/** @internal */
export const sweepOptionsSchema = v.strictObject({ signal: v.optional(signalSchema) });

/** What a sweep removed. */
export interface SweepResult {
  /** The URIs of the expired memories removed, in URI order. */
  removed: string[];
}

/**
 * Removes every expired memory under `roots`, in one commit.
 *
 * @example
 * const { removed } = await sweepExpired(store, roots.memory, settings);
 */
export async function sweepExpired(
  store: Pick<FullStore, 'descendants' | 'commit'>,
  memoryRoots: readonly string[],
  settings: Pick<MemorySettings, 'ttl' | 'now'>,
  signal?: AbortSignal,
): Promise<SweepResult> {
  throwIfAborted(signal, 'sweepMemories()');
  const now = settings.now();
  const removed: string[] = [];
  for (const root of memoryRoots) {
    for (const node of await store.descendants(root))
      if (isExpired(node, settings.ttl, now)) removed.push(node.uri);
  }
  removed.sort();
  // The store removes their vectors, postings and relations with them.
  if (removed.length > 0) await store.commit({ deleteNodes: removed }, signal);
  return { removed };
}
