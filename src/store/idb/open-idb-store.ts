// openIdbStore as the package exports it. The store's own declarations name the `idb` library's
// types and the DOM's (IDBFactory, OPFS handles); these name neither, so that a project without
// the DOM lib type-checks against the package (docs/guide/package.md).

import type { IndexedDBFactory } from '../../web-types.js';
import type { FullStore } from '../full-store.js';
import type { OpenStoreOptions } from '../store.js';
import { openIdbStore as openStore } from './idb-open.js';

export interface IdbStoreOptions extends OpenStoreOptions {
  /** Where the database lives: the global `indexedDB`, or fake-indexeddb's in Node. */
  indexedDB: IndexedDBFactory;
  /**
   * 'auto' (the default): where OPFS files can be written, snapshots' bytes are written to files in
   * the origin private file system, read back several times faster than IndexedDB Blobs; elsewhere,
   * and with false, to IndexedDB Blobs.
   */
  snapshotFiles?: 'auto' | false;
}

/**
 * Opens (creating or upgrading) the IndexedDB store called `name`.
 *
 * Fails with `STORE_BLOCKED` when another tab holds an older version open and will not close it,
 * `SCHEMA_MISMATCH` when the database is newer than this code, `EMBEDDER_MISMATCH` when it was
 * written by another embedder (unless `onEmbedderMismatch: 'reset-vectors'`), `QUOTA_EXCEEDED`.
 * Needs the IndexedDB classes (IDBRequest, IDBKeyRange…) as globals, as every runtime with
 * IndexedDB has them (in Node: `import 'fake-indexeddb/auto'`).
 *
 * @example
 * const store = await openIdbStore('longship', { indexedDB, embedder: { id: 'my-model@1', dimensions: 384 } });
 * const longship = await openLongship({ store, embedder });
 */
export function openIdbStore(name: string, options: IdbStoreOptions): Promise<FullStore> {
  return openStore(name, options as Parameters<typeof openStore>[1]);
}
