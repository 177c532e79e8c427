// The demo's worker with the bundled model: Longship as openLongshipInWorker() would start it, with the
// page's options, over a store first filled from the sample corpus's pack when it is empty
// (pack-import.ts). A page that asks for no corpus names its worker `…?corpus=none` (backend.ts).
// The engine opens without waiting for the model: what needs no model (BM25, reading, listing) is
// answered at once, and the first search by meaning waits for the load (demo/src/main.ts).
import { packHash, packPath } from 'virtual:demo-pack';
import type { Embedder } from '../../src/embed/embedder.js';
import { TransformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { openLongship } from '../../src/engine.js';
import { defaultIndexedDB } from '../../src/env/indexeddb.js';
import { openIdbStore } from '../../src/store/idb/idb-open.js';
import { exposeLongship, workerLlm } from '../../src/worker/expose.js';
import { databaseOf, type WorkerOptions } from '../../src/worker/worker-options.js';
import { importPack } from './pack-import.js';

const withCorpus = !self.name.endsWith('?corpus=none');

/**
 * The worker's one model, made from the first page's options and kept for every engine it opens (a
 * SharedWorker may open one again after its last tab left). It loads at its first embedding, once
 * the store is open: its session's start holds this thread for a second or more, which would
 * otherwise hold up the open and the first search by words.
 */
let model: TransformersEmbedder | undefined;

async function open(options: WorkerOptions) {
  const { usearch, embedder } = options;
  const llm = workerLlm(options);
  model ??= new TransformersEmbedder(embedder?.transformers);
  const { id, dimensions } = model;
  const loaded = model;
  // Not the TransformersEmbedder itself, whose load openLongship() would wait for: a model that
  // cannot load fails each search by meaning instead, which the page reports.
  const notWaitedFor: Embedder = { id, dimensions, embed: (texts, opts) => loaded.embed(texts, opts) };
  const store = await openIdbStore(databaseOf(options), {
    indexedDB: defaultIndexedDB()!,
    embedder: { id, dimensions },
  });
  try {
    if (withCorpus) {
      const url = new URL(`${import.meta.env.BASE_URL}${packPath}`, self.location.href);
      const outcome = await importPack(store, { id, dimensions }, { url, hash: packHash });
      console.info(`the sample corpus's pack: ${outcome}`);
    }
  } catch (error) {
    // Without the pack the page indexes the corpus as before: slower, never wrong.
    console.warn("the sample corpus's pack could not be imported:", error);
  }
  // A URL arrives as a string (worker-options.ts).
  return openLongship({
    store,
    usearch: typeof usearch === 'string' ? new URL(usearch) : usearch,
    embedder: notWaitedFor,
    ...(llm ? { llm } : {}),
  }).catch(async (error: unknown) => {
    await store.close().catch(() => {});
    throw error;
  });
}

exposeLongship({ open });
