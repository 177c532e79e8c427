// The change log and the index snapshots: what a store MAY keep beside its records, so that an open
// loads the derived indexes (HNSW over vectors, BM25 over postings, the node catalogue) instead of
// rebuilding them, and follows what other writers (tabs, processes) commit. A store without them
// still works: the engine keeps its own commits' changes in memory and rebuilds the indexes at every
// open (full-store.ts; docs/guide/custom-store.md, "Without a change log").
//
// How an engine keeps a derived index in step with a store that keeps a log:
// - Open: s = snapshot(name). If s exists and changesSince(s.seq) runs on without a gap
//   (s.seq + 1, s.seq + 2, … up to meta().seq), load s.bytes and replay those changes. Otherwise
//   rebuild: note S = meta().seq first, add every record from scan('vectors'), then replay the
//   changes after S (a record may then be seen twice; replay is idempotent).
// - Replay a change: for each key in removed ∪ added, drop it from the index if there; then add
//   the records vectors(added) still returns (current values: a later change may replace them).
// - Run: after commit() resolves with seq, replay the changes after the last one applied.
// - Save, debounced and off the write path: serialize at applied seq A, putSnapshot({name,
//   seq: A, bytes}); then pruneChanges(the lowest seq any snapshot still needs).

import { LongshipError } from '../errors.js';
import type { ChangeRecord, CommittedChange } from './store.js';

/** Snapshots are stored in pieces of this size, so no single record is huge. */
export const SNAPSHOT_CHUNK_BYTES = 4 * 1024 * 1024;

/** Bytes to snapshot: one buffer, or pieces as they are produced (copied as they arrive). */
export type SnapshotBytes = Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

export interface SnapshotInput {
  name: string;
  /** The last change sequence the bytes include. */
  seq: number;
  bytes: SnapshotBytes;
}

export interface Snapshot {
  name: string;
  seq: number;
  bytes: Uint8Array;
}

/** Where {@link ChangeLog.snapshotInto} writes a snapshot's bytes (e.g. `allocateIndexBytes`'s room). */
export interface SnapshotSink {
  write(bytes: Uint8Array, offset: number): void;
  dispose(): void;
  /**
   * Called once the whole snapshot has been read and checked, when `open` was told it is `ranged`:
   * the sink takes over `ranges` (and closes it), to read later the bytes it chose not to keep.
   */
  adopt?(ranges: SnapshotRanges): void;
}

/**
 * A checked snapshot's bytes, read again a range at a time (synchronously: a sync access handle on
 * its file, or the pieces in memory). A sink given one need not keep what it will seldom read: a
 * page of memory never written costs nothing, and on some machines a fresh one costs several ms a MB.
 */
export interface SnapshotRanges {
  /** Fills `into` with the snapshot's bytes from `at`; throws `STORE_ERROR` if they cannot be read. */
  read(into: Uint8Array, at: number): void;
  close(): void;
}

/** A snapshot in the pieces it was read in, checked like {@link ChangeLog.snapshot}'s. The pieces must not be changed. */
export interface SnapshotPieces {
  name: string;
  seq: number;
  byteLength: number;
  pieces: readonly Uint8Array[];
}

/**
 * The change log and the snapshots of the derived indexes, which a {@link Store} may keep beside its
 * records: `MemoryStore`, `IdbStore` and `FileStore` do. A store that keeps them logs every
 * `StoreWrites.change` with its writes, in the same transaction, and numbers each commit of its own
 * the same way. `longship/testing`'s `changeLogContract` checks all of it.
 */
export interface ChangeLog {
  /** Changes with a sequence number above `seq`, in order. */
  changesSince(seq: number): Promise<ChangeRecord[]>;
  /** Forgets changes up to and including `seq`, once every snapshot covers them. */
  pruneChanges(throughSeq: number): Promise<void>;
  /**
   * The last commit made through this object, copied, if its sequence number is `seq`; else
   * undefined. The derived indexes catch up on their own commit from it rather than read back what
   * it just wrote. Optional: without it they read.
   */
  committed?(seq: number): CommittedChange | undefined;
  /**
   * Stores bytes under `name`, chunked and checksummed, replacing the previous snapshot of that
   * name only once every chunk is written. Runs in its own transactions: never blocks a commit.
   * Fails with `INVALID_ARGUMENT` for an empty name or a seq past the store's.
   */
  putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void>;
  /** The newest complete snapshot of that name, or undefined if none or if it fails its checksum. */
  snapshot(name: string): Promise<Snapshot | undefined>;
  /**
   * The same snapshot, written into the sink `open` makes for its length (a WASM heap, say) as it is
   * read, rather than into a buffer first. Undefined, with the sink disposed, if the snapshot is
   * missing, incomplete or fails its checksum; an error the sink throws is thrown, the sink disposed.
   * `ranged`: the bytes can be read again later, and are offered to the sink's `adopt` once checked.
   */
  snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined>;
  deleteSnapshot(name: string): Promise<void>;
}

/** The methods a {@link ChangeLog} must have: all of them, or none. */
const CHANGE_LOG_METHODS = [
  'changesSince',
  'pruneChanges',
  'putSnapshot',
  'snapshot',
  'snapshotInto',
  'deleteSnapshot',
] as const;

/**
 * Whether `store` keeps a change log. Throws `INVALID_ARGUMENT` for one that has some of
 * {@link ChangeLog}'s methods and not the others: half a log would be trusted and then fail.
 *
 * @example
 * if (hasChangeLog(store)) await store.pruneChanges(seq);
 */
export function hasChangeLog<S extends object>(store: S): store is S & ChangeLog {
  const has = CHANGE_LOG_METHODS.filter(
    (method) => typeof (store as Record<string, unknown>)[method] === 'function',
  );
  if (has.length === 0) return false;
  if (has.length === CHANGE_LOG_METHODS.length) return true;
  const missing = CHANGE_LOG_METHODS.filter((method) => !has.includes(method));
  throw new LongshipError(
    'INVALID_ARGUMENT',
    `a store with ${has.join(', ')} keeps a change log, and needs ${missing.join(', ')} too`,
  );
}
