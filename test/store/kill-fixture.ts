// What the kill test's child writes: a cheap deterministic embedder and its documents.
import { functionEmbedder } from '../../src/embed/function-embedder.js';

/** A cheap deterministic embedder: a word's hash picks a dimension. */
export const wordEmbedder = functionEmbedder({
  id: 'test/words',
  dimensions: 16,
  embed: async (texts) =>
    texts.map((text) => {
      const vector = new Float32Array(16);
      for (const word of text.toLowerCase().split(/\W+/).filter(Boolean)) {
        let h = 2166136261;
        for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
        vector[(h >>> 0) % 16]! += 1;
      }
      return vector;
    }),
});

const WORDS = 'river lake mountain forest harbour bridge castle meadow valley island desert glacier'.split(
  ' ',
);

/** Document `i` of run `run`: a few sentences, different for each. */
export function documentText(run: number, i: number): string {
  const pick = (k: number) => WORDS[(run * 7 + i * 3 + k) % WORDS.length];
  return `Run ${run} document ${i}. The ${pick(0)} meets the ${pick(1)}.\n\nA ${pick(2)} lies past the ${pick(3)}.`;
}
