// The demo's worker with the hashed-words embedder (`?embedder=words`): no model to load.
import { openLongship } from '../../src/engine.js';
import { exposeLongship, workerLlm } from '../../src/worker/expose.js';
import { wordsEmbedder } from './words-embedder.js';

exposeLongship({
  open: (options) =>
    openLongship({
      ...(options.store ? { store: options.store } : {}),
      ...(typeof options.usearch === 'string' ? { usearch: new URL(options.usearch) } : {}),
      embedder: wordsEmbedder(),
      llm: workerLlm(options),
    }),
});
