// What the context tests share: a fast deterministic embedder, and the tree over a store with its
// derived indexes, as the engine wires them.

import { expect } from 'vitest';
import { type DerivedIndexesOptions, openDerivedIndexes } from '../../src/context/derived-indexes.js';
import { createContextTree } from '../../src/context/store-tree.js';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { LongshipError } from '../../src/errors.js';
import type { UsearchModule } from '../../src/index/usearch-module.js';
import type { Store } from '../../src/store/store.js';

export const DIMENSIONS = 32;

/**
 * Bag of hashed words, normalised: texts sharing words get close vectors, so searches mean something,
 * and the same text always gets the same vector.
 */
export const hashEmbedder = functionEmbedder({
  id: 'test/hashed-words',
  dimensions: DIMENSIONS,
  embed: async (texts) =>
    texts.map((text) => {
      const vector = new Float32Array(DIMENSIONS);
      for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
        let h = 2166136261;
        for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
        vector[(h >>> 0) % DIMENSIONS]! += 1;
        vector[(h >>> 7) % DIMENSIONS]! += 0.5;
      }
      vector[0]! += 0.01; // never all zeros
      const norm = Math.hypot(...vector);
      return vector.map((x) => x / norm);
    }),
});

export const embedderInfo = { id: hashEmbedder.id, dimensions: DIMENSIONS };

/** The tree over `store`, writing through its derived indexes. */
export async function openParts(
  store: Store,
  usearch: UsearchModule,
  options: Partial<DerivedIndexesOptions> = {},
) {
  const indexes = await openDerivedIndexes({
    store,
    usearch,
    dimensions: DIMENSIONS,
    snapshotDelayMs: Number.POSITIVE_INFINITY,
    ...options,
  });
  const tree = await createContextTree({ store: indexes.store, embedder: hashEmbedder });
  return { store, indexes, tree };
}

/** The URI of the node that owns a vector key. */
export async function uriOfVector(store: Store, key: number): Promise<string> {
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
