// A Longship over a memory store and the bag-of-words embedder, and memories written as the
// extraction and remember() write them: files under their kind's directory with `meta.category`.
import { type Longship, type LongshipOptions, openLongship } from '../../src/engine.js';
import type { MemoryKind } from '../../src/memory/memory-options.js';
import { memoryUri } from '../../src/session/extract.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

export const DAY = 86_400_000;
/** A fixed "now" for the tests' clocks: 2025-06-01. */
export const NOW = Date.UTC(2025, 5, 1);

/** A Longship with the bag-of-words embedder, in memory unless `store` says where. */
export async function openWithMemory(options: Omit<LongshipOptions, 'embedder'> = {}): Promise<Longship> {
  const embedder = bagOfWordsEmbedder();
  const store =
    options.store ??
    (await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } }));
  return openLongship({ ...options, store, embedder });
}

/** Writes a memory of `kind` named `name`; resolves with its URI. */
export async function remember(
  longship: Longship,
  kind: Exclude<MemoryKind, 'profile' | 'agent'>,
  name: string,
  text: string,
  meta: Record<string, unknown> = {},
): Promise<string> {
  const uri = memoryUri(longship.namespace, kind, name);
  await longship.write(uri, text, { parents: true, meta: { category: kind, ...meta } });
  return uri;
}
