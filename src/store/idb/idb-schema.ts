// The IndexedDB layout and its migrations. Each step takes the database from one version to the
// next inside the upgrade transaction, so a failed migration rolls back to the old version intact.
// A step, once released, never changes: databases in the field were built by it.

import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { StoreState } from '../plan/plan-reader.js';
import type { SnapshotChunk, SnapshotHeader } from '../snapshot/snapshot-format.js';
import type { ChangeRecord, NodeRecord, PostingRecord, RelationRecord, VectorRecord } from '../store.js';

export interface LongshipDB extends DBSchema {
  nodes: { key: string; value: NodeRecord; indexes: { key: number; parent: string } };
  vectors: { key: number; value: VectorRecord; indexes: { nodeKey: number } };
  postings: { key: number; value: PostingRecord };
  relations: { key: [string, string]; value: RelationRecord; indexes: { to: string } };
  changes: { key: number; value: ChangeRecord };
  /** One record, under `STATE_KEY`. */
  meta: { key: string; value: StoreState };
  snapshots: { key: string; value: StoredSnapshotHeader };
  snapshotChunks: { key: [string, string, number]; value: StoredSnapshotChunk };
}

/**
 * A header as IndexedDB keeps it. `file`: its bytes are in a file of the origin private file system
 * (opfs-snapshots.ts), not in snapshotChunks; headers written before it existed have none.
 */
export type StoredSnapshotHeader = SnapshotHeader & { file?: true };

/** A chunk as IndexedDB keeps it: a Blob since chunks are written so, a Uint8Array before. Both read. */
export type StoredSnapshotChunk = Omit<SnapshotChunk, 'bytes'> & { bytes: Uint8Array | Blob };

export type StoreName = StoreNames<LongshipDB>;
export type UpgradeTransaction = IDBPTransaction<LongshipDB, StoreName[], 'versionchange'>;

export const STATE_KEY = 'state';
// Keys start at 1: a key of 0 is too easily mistaken for "no key".
export const INITIAL_STATE: StoreState = { seq: 0, nextKey: 1 };

type Step = (db: IDBPDatabase<LongshipDB>, tx: UpgradeTransaction) => void | Promise<void>;

/** v1: the first layout. Vectors were plain number arrays; relations had no index on `to`. */
const toV1: Step = (db) => {
  const nodes = db.createObjectStore('nodes', { keyPath: 'uri' });
  nodes.createIndex('key', 'key', { unique: true });
  nodes.createIndex('parent', 'parent');
  const vectors = db.createObjectStore('vectors', { keyPath: 'key' });
  vectors.createIndex('nodeKey', 'nodeKey');
  db.createObjectStore('postings', { keyPath: 'key' });
  db.createObjectStore('relations', { keyPath: ['from', 'to'] });
  db.createObjectStore('changes', { keyPath: 'seq' });
  db.createObjectStore('meta');
  db.createObjectStore('snapshots', { keyPath: 'name' });
  db.createObjectStore('snapshotChunks', { keyPath: ['name', 'generation', 'index'] });
};

/**
 * v2: vectors become Float32Array (a quarter of the structured-clone size of a number array, and
 * what the index takes without copying); relations get an index on `to`, so a node's incoming
 * relations are one lookup instead of a scan.
 */
const toV2: Step = async (_db, tx) => {
  tx.objectStore('relations').createIndex('to', 'to');
  let cursor = await tx.objectStore('vectors').openCursor();
  while (cursor) {
    const record = cursor.value as VectorRecord | (Omit<VectorRecord, 'vector'> & { vector: number[] });
    if (!(record.vector instanceof Float32Array)) {
      await cursor.update({ ...record, vector: Float32Array.from(record.vector) });
    }
    cursor = await cursor.continue();
  }
};

/** STEPS[v] takes a database from version v to v + 1. */
const STEPS: readonly Step[] = [toV1, toV2];

/** The version openIdbStore asks for: the number of steps. */
export const IDB_SCHEMA_VERSION = STEPS.length;

/**
 * Runs every step from `oldVersion` up to the current version, in the upgrade transaction.
 *
 * @example
 * request.onupgradeneeded = (e) => migrate(wrap(request.result), wrap(request.transaction), e.oldVersion);
 */
export async function migrate(
  db: IDBPDatabase<LongshipDB>,
  tx: UpgradeTransaction,
  oldVersion: number,
): Promise<void> {
  for (let version = oldVersion; version < STEPS.length; version++) await STEPS[version]!(db, tx);
}
