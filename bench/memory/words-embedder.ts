// A fast hashed bag of words for the memory benchmarks' smoke runs: no model to load, and the
// same vector for the same words.
import type { Embedder } from '../../src/embed/embedder.js';
import { functionEmbedder } from '../../src/embed/function-embedder.js';

export function wordsEmbedder(): Embedder {
  const dimensions = 256;
  return functionEmbedder({
    id: 'bench/hashed-words',
    dimensions,
    embed: async (texts) =>
      texts.map((text) => {
        const vector = new Float32Array(dimensions);
        for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
          let h = 2166136261;
          for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
          vector[(h >>> 0) % dimensions]! += 1;
        }
        vector[0]! += 0.01;
        const norm = Math.hypot(...vector);
        return vector.map((x) => x / norm);
      }),
  });
}
