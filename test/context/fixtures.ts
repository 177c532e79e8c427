// What the context tests share: a fast deterministic embedder, and the tree over a store with its
// derived indexes, as the engine wires them.

import { expect } from 'vitest';
import { createContextTree } from '../../src/context/store-tree.js';
import { placeProblems } from '../../src/context/tree-checks.js';
import { type DerivedIndexesOptions, openDerivedIndexes } from '../../src/derived/derived-indexes.js';
import { LongshipError } from '../../src/errors.js';
import { bm25Indexes } from '../../src/lexical/bm25-index.js';
import type { FullStore } from '../../src/store/full-store.js';
import { usearchIndexes } from '../../src/vector/usearch-index.js';
import type { UsearchModule } from '../../src/vector/usearch-module.js';
import { DIMENSIONS, hashEmbedder } from './hash-embedder.js';

export { DIMENSIONS, hashEmbedder, hashedWords } from './hash-embedder.js';

export const embedderInfo = { id: hashEmbedder.id, dimensions: DIMENSIONS };

/** The tree over `store`, writing through its derived indexes. */
export async function openParts(
  store: FullStore,
  usearch: UsearchModule,
  options: Partial<DerivedIndexesOptions> = {},
) {
  const indexes = await openDerivedIndexes({
    store,
    factories: { vector: usearchIndexes(usearch), lexical: bm25Indexes },
    checks: [placeProblems],
    dimensions: DIMENSIONS,
    snapshotDelayMs: Number.POSITIVE_INFINITY,
    ...options,
  });
  const tree = await createContextTree({ store: indexes.store, embedder: hashEmbedder });
  return { store, indexes, tree };
}

/** The URI of the node that owns a vector key. */
export async function uriOfVector(store: FullStore, key: number): Promise<string> {
  const [vector] = await store.vectors([key]);
  return (await store.nodeByKey(vector!.nodeKey))!.uri;
}

/** Asserts that `promise` fails with a LongshipError of this code. */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${code}`).toBeInstanceOf(LongshipError);
  expect((error as LongshipError).code).toBe(code);
}
