// Opening the same store again, and damaging it behind its back, for each Store implementation.
// fake-indexeddb/auto installs the IDB classes idb needs as globals; every harness still gets a
// fresh IDBFactory, so no two tests share a database.

import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { FullStore } from '../../src/store/full-store.js';
import { openIdbStore } from '../../src/store/idb/idb-open.js';
import { chunkId, MemoryData } from '../../src/store/memory/memory-data.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type { OpenStoreOptions } from '../../src/store/store.js';
import type { SnapshotTamper } from '../../src/testing/harness.js';

/** The contracts' harness, as our stores offer it: each opens a FullStore, and damages its snapshots. */
export interface StoreHarness {
  open(options?: OpenStoreOptions): Promise<FullStore>;
  tamper: SnapshotTamper;
}

export function memoryHarness(): StoreHarness {
  const data = new MemoryData();
  return { open: (options) => openMemoryStore({ ...options, data }), tamper: memoryTamper(data) };
}

/** Damages the snapshots a store keeps in `data` (a MemoryStore's, or a log over the same data). */
export function memoryTamper(data: MemoryData): SnapshotTamper {
  return {
    async corruptSnapshot(name, how, index = 0) {
      const header = data.snapshots.get(name);
      if (!header) throw new Error(`no snapshot ${name}`);
      const id = chunkId(name, header.generation, index);
      const chunk = data.snapshotChunks.get(id)!;
      if (how === 'drop-chunk') data.snapshotChunks.delete(id);
      else {
        const middle = chunk.bytes.length >> 1;
        chunk.bytes[middle] = chunk.bytes[middle]! ^ 0xff;
      }
    },
    async chunkIds() {
      return [...data.snapshotChunks.values()].map((c) => [c.name, c.generation, c.index]);
    },
  };
}

let databases = 0;

/** A raw connection to the harness's database, for tampering; closed after `body`. */
async function withRaw<T>(
  factory: IDBFactory,
  name: string,
  body: (db: IDBDatabase) => Promise<T>,
): Promise<T> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    return await body(db);
  } finally {
    db.close();
  }
}

export function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

export function idbHarness(
  factory: IDBFactory = new IDBFactory(),
  name = `store-${++databases}`,
): StoreHarness {
  const edit = <T>(table: string, body: (store: IDBObjectStore) => Promise<T>) =>
    withRaw(factory, name, async (db) => {
      const tx = db.transaction(table, 'readwrite');
      const done = new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onabort = () => reject(tx.error);
      });
      const result = await body(tx.objectStore(table));
      await done;
      return result;
    });
  return {
    open: (options) => openIdbStore(name, { ...options, indexedDB: factory }),
    tamper: {
      async corruptSnapshot(snapshotName, how, index = 0) {
        const header = await edit('snapshots', (s) => request(s.get(snapshotName)));
        const key = [snapshotName, header.generation, index];
        if (how === 'drop-chunk') return edit('snapshotChunks', (s) => request(s.delete(key)));
        // Chunks are Blobs: read outside the transaction, which would not wait for the read.
        const chunk = await edit('snapshotChunks', (s) => request(s.get(key)));
        const blob = chunk.bytes instanceof Blob;
        const bytes = blob ? new Uint8Array(await chunk.bytes.arrayBuffer()) : chunk.bytes;
        bytes[bytes.length >> 1] ^= 0xff;
        await edit('snapshotChunks', (s) =>
          request(s.put({ ...chunk, bytes: blob ? new Blob([bytes]) : bytes })),
        );
      },
      chunkIds: () =>
        edit('snapshotChunks', (s) => request(s.getAllKeys()) as Promise<Array<[string, string, number]>>),
    },
  };
}
