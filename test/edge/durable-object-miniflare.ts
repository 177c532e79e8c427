// Starts Miniflare with durable-object-worker.ts and its SQLite-backed Durable Object class.

import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { bundleWorker } from './workerd-bundle.js';

const worker = fileURLToPath(new URL('./durable-object-worker.ts', import.meta.url));

/** `persist`: a folder the objects' SQLite files are kept in, to start Miniflare again over them. */
export async function startStoreObjects(persist?: string): Promise<Miniflare> {
  return new Miniflare({
    compatibilityDate: '2026-04-01',
    modules: [{ type: 'ESModule', path: 'worker.mjs', contents: await bundleWorker(worker) }],
    // The same class without SQLite too, to open a store where there is no SQL storage.
    durableObjects: {
      STORE: { className: 'StoreObject', useSQLite: true },
      KV_STORE: { className: 'KvStoreObject' },
    },
    ...(persist ? { durableObjectsPersist: persist } : {}),
  });
}
