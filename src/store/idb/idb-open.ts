// Opening an IndexedDB store: version, upgrade, the tab that will not let go, the embedder check.
// idb's openDB() reads the global `indexedDB`; only src/env/ may, so this opens the request on the
// factory it is given and lets idb wrap the result.

import { type IDBPDatabase, type IDBPTransaction, wrap } from 'idb';
import { defaultIndexedDB } from '../../env/indexeddb.js';
import { defaultLocks } from '../../env/locks.js';
import { defaultOpfs } from '../../env/opfs.js';
import { LongshipError } from '../../errors.js';
import type { OpenStoreOptions } from '../store.js';
import { errorName, toStoreError } from './idb-errors.js';
import { IDB_SCHEMA_VERSION, type LongshipDB, migrate, type StoreName } from './idb-schema.js';
import { IdbStore } from './idb-store.js';
import { SnapshotFiles } from './opfs-snapshots.js';

export interface IdbStoreOptions extends OpenStoreOptions {
  /** Where the database lives: `defaultIndexedDB()` from src/env, or fake-indexeddb in tests. */
  indexedDB: IDBFactory;
  /**
   * 'auto' (the default): where OPFS files can be written (sync access handles in a dedicated Worker,
   * writable streams in a SharedWorker or a page), snapshots' bytes are written to files in the origin
   * private file system, read back several times faster than IndexedDB Blobs; elsewhere, and with
   * false, to IndexedDB Blobs. Snapshots in files are read wherever there is an OPFS, whichever this says.
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
 * const store = await openIdbStore('longship', {
 *   indexedDB: defaultIndexedDB()!,
 *   embedder: { id: embedder.id, dimensions: embedder.dimensions },
 * });
 */
export async function openIdbStore(name: string, options: IdbStoreOptions): Promise<IdbStore> {
  const factory = options?.indexedDB;
  if (!factory || typeof factory.open !== 'function') {
    throw new LongshipError('INVALID_ARGUMENT', 'openIdbStore needs { indexedDB: IDBFactory }');
  }
  const snapshotFiles = options.snapshotFiles ?? 'auto';
  if (snapshotFiles !== 'auto' && snapshotFiles !== false) {
    throw new LongshipError('INVALID_ARGUMENT', "openIdbStore's snapshotFiles is 'auto' or false");
  }
  // Both take a fresh process some time (IndexedDB ~0.1 s in Chromium): side by side. OPFS is per
  // origin, like IndexedDB; a fake IndexedDB (tests) has no files beside it. Refused, snapshots stay
  // in IndexedDB.
  const filesAsked = defaultOpfs()
    .then((opfs) =>
      opfs && factory === defaultIndexedDB()
        ? SnapshotFiles.open(opfs, name, defaultLocks(), snapshotFiles === 'auto')
        : undefined,
    )
    .catch(() => undefined);
  const db = await openDatabase(factory, name);
  const files = await filesAsked;
  const store = new IdbStore(db, factory, name, files);
  try {
    if (options.embedder) await store.useEmbedder(options.embedder, options.onEmbedderMismatch);
    await store.sweepSnapshotFiles();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

function openDatabase(factory: IDBFactory, name: string): Promise<IDBPDatabase<LongshipDB>> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let migrationFailure: unknown;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    let request: IDBOpenDBRequest;
    try {
      request = factory.open(name, IDB_SCHEMA_VERSION);
    } catch (error) {
      reject(toStoreError(error, `open ${name}`));
      return;
    }
    request.onupgradeneeded = (event) => {
      const raw = request.transaction!;
      const db = wrap(request.result) as unknown as IDBPDatabase<LongshipDB>;
      const tx = wrap(raw) as unknown as IDBPTransaction<LongshipDB, StoreName[], 'versionchange'>;
      tx.done.catch(() => undefined);
      migrate(db, tx, event.oldVersion).catch((error: unknown) => {
        // Aborting the upgrade leaves the database at its old version, data untouched.
        migrationFailure = error;
        try {
          raw.abort();
        } catch {
          // The transaction already ended; the open request reports how.
        }
      });
    };
    request.onblocked = (event) => {
      settle(() =>
        reject(
          new LongshipError(
            'STORE_BLOCKED',
            `cannot upgrade ${name} from version ${event.oldVersion} to ${event.newVersion}: another tab ` +
              'holds it open at the older version. Close or reload the other tabs and try again.',
          ),
        ),
      );
    };
    request.onsuccess = () => {
      const db = request.result;
      // Blocked earlier, then let through: the caller has been told it failed, so let go.
      if (settled) db.close();
      else settle(() => resolve(wrap(db) as unknown as IDBPDatabase<LongshipDB>));
    };
    request.onerror = (event) => {
      event.preventDefault();
      settle(() => {
        if (migrationFailure !== undefined) {
          reject(
            migrationFailure instanceof LongshipError
              ? migrationFailure
              : new LongshipError('STORE_ERROR', `migrating ${name} failed; it is left as it was`, {
                  cause: migrationFailure,
                }),
          );
        } else if (errorName(request.error) === 'VersionError') {
          reject(
            new LongshipError(
              'SCHEMA_MISMATCH',
              `${name} was written by a newer Longship (schema above ${IDB_SCHEMA_VERSION}); update this app`,
              { cause: request.error },
            ),
          );
        } else {
          reject(toStoreError(request.error, `open ${name}`));
        }
      });
    };
  });
}
