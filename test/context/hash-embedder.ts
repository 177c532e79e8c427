// A fast deterministic embedder for tests, free of Vitest so that scripts (tools/model/) can use it.

import { functionEmbedder } from '../../src/embed/function-embedder.js';

export const DIMENSIONS = 32;

/** A bag of hashed words, normalised: texts sharing words get close vectors. */
export function hashedWords(text: string): Float32Array {
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
}

/**
 * {@link hashedWords} as an embedder: searches mean something, and the same text always gets the
 * same vector.
 */
export const hashEmbedder = functionEmbedder({
  id: 'test/hashed-words',
  dimensions: DIMENSIONS,
  embed: async (texts) => texts.map(hashedWords),
});
