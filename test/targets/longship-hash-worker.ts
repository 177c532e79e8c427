// A worker script of one's own, as an app writes it to choose its embedder: Longship with a
// word-hashing embedder (instant, unlike a model), on the IndexedDB the page names.
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openLongship } from '../../src/engine.js';
import { exposeLongship } from '../../src/worker/expose.js';

const DIMENSIONS = 64;

const embedder = functionEmbedder({
  id: 'test/hashed-words',
  dimensions: DIMENSIONS,
  embed: async (texts) =>
    texts.map((text) => {
      const vector = new Float32Array(DIMENSIONS);
      for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
        let h = 2166136261;
        for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
        vector[(h >>> 0) % DIMENSIONS]! += 1;
      }
      vector[0]! += 0.01;
      return vector;
    }),
});

exposeLongship({
  open: (options) =>
    openLongship({
      embedder,
      ...(options.store ? { store: options.store } : {}),
      ...(options.usearch instanceof URL || typeof options.usearch === 'string'
        ? { usearch: new URL(options.usearch) }
        : {}),
    }),
});
