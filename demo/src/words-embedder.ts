// A tiny embedder without a model: each word is hashed into one of 256 dimensions (with a sign), and
// the sum is L2-normalised. It only matches words, not meanings, but it is instant, so the demo
// offers it (`?embedder=words`) for large folders and the end-to-end tests use it where the
// bundled model would only make them slower.
import { type Embedder, functionEmbedder } from '../../src/index.js';

const dimensions = 256;

function embedWords(text: string): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    // FNV-1a: cheap and well spread over short strings.
    let hash = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
    vector[(hash >>> 0) % dimensions]! += hash & 0x100 ? 1 : -1;
  }
  let norm = 0;
  for (const x of vector) norm += x * x;
  if (norm === 0) vector[0] = 1;
  else for (let i = 0; i < dimensions; i++) vector[i]! /= Math.sqrt(norm);
  return vector;
}

export function wordsEmbedder(): Embedder {
  return functionEmbedder({
    id: 'demo/hashed-words-256',
    dimensions,
    embed: async (texts) => texts.map(embedWords),
  });
}
