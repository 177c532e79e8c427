// The Store is the source of truth: nodes, their vectors and their lexical postings. The HNSW graph
// and the BM25 index are derived from it, so every committed batch is numbered and logged: an index
// snapshot taken at sequence S is brought up to date by replaying the changes after S.
//
// How an engine keeps a derived index (HNSW over vectors, BM25 over postings) in step:
// - Open: s = snapshot(name). If s exists and changesSince(s.seq) runs on without a gap
//   (s.seq + 1, s.seq + 2, … up to meta().seq), load s.bytes and replay those changes. Otherwise
//   rebuild: note S = meta().seq first, add every record from scan('vectors'), then replay the
//   changes after S (a record may then be seen twice; replay is idempotent).
// - Replay a change: for each key in removed ∪ added, drop it from the index if there; then add
//   the records vectors(added) still returns (current values: a later change may replace them).
// - Run: after commit() resolves with seq, replay the changes after the last one applied.
// - Save, debounced and off the write path: serialize at applied seq A, putSnapshot({name,
//   seq: A, bytes}); then pruneChanges(the lowest seq any snapshot still needs).
// URIs are plain strings here; src/context owns their grammar. The store only relies on a child's
// URI starting with its parent's URI + '/', which is what makes descendants() a prefix scan.

/** The version of the records' shape. IndexedDB uses it as the database version. */
export const STORE_SCHEMA_VERSION = 2;

/** Snapshots are stored in pieces of this size, so no single record is huge. */
export const SNAPSHOT_CHUNK_BYTES = 4 * 1024 * 1024;

export type NodeKind = 'dir' | 'file';
export type ContextType = 'resource' | 'memory' | 'skill';
export type SummaryKind = 'extractive' | 'llm';

/** One `viking://` node with its three layers. */
export interface NodeRecord {
  uri: string;
  /** The parent's URI; `null` for a root. The URI must start with `parent + '/'`. */
  parent: string | null;
  name: string;
  kind: NodeKind;
  contextType: ContextType;
  /** The node's lexical key and the owner of its vectors; from {@link Store.allocateKeys}. */
  key: number;
  /** L0: a one-line abstract. */
  l0: string;
  /** L1: an overview. */
  l1?: string;
  /** L2: the full content of a file. */
  l2?: string;
  summaryKind: SummaryKind;
  /** A hash of the source content, to skip unchanged files on re-ingest. */
  hash?: string;
  /** Anything structured-clonable. */
  meta: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  useCount: number;
  lastUsedAt?: number;
}

/** One embedding of one chunk of a node. A node's chunks are numbered 0..n-1 without gaps. */
export interface VectorRecord {
  /** The key in the vector index; from {@link Store.allocateKeys}, never reused for another node. */
  key: number;
  nodeKey: number;
  chunk: number;
  vector: Float32Array;
}

/** The lexical document of a node (its key is the node's key); BM25 is built from these. */
export interface PostingRecord {
  key: number;
  title?: string;
  headings?: string[];
  body: string;
}

export interface RelationKey {
  from: string;
  to: string;
}

export interface RelationRecord extends RelationKey {
  reason: string;
  createdAt: number;
}

/**
 * What one {@link Store.commit} writes. Deletions apply first, then puts, so a batch can replace.
 * Deleting a node also deletes its vectors, its posting and its relations (both directions); it
 * does not delete its children, and a batch that would leave a child without its parent fails.
 */
export interface WriteBatch {
  putNodes?: NodeRecord[];
  /** URIs. Missing ones are ignored. */
  deleteNodes?: string[];
  putVectors?: VectorRecord[];
  /** Node keys whose vectors are all removed. */
  deleteVectorsOfNodes?: number[];
  putPostings?: PostingRecord[];
  deletePostings?: number[];
  putRelations?: RelationRecord[];
  deleteRelations?: RelationKey[];
  /**
   * Uses to record: each node's `useCount` goes up by one and its `lastUsedAt` becomes `at`,
   * applied to the node as it is inside the transaction (or as `putNodes` leaves it), so a
   * concurrent write to it is never reverted. URIs of missing nodes are ignored.
   */
  useNodes?: NodeUse[];
  /**
   * Nodes that must still be there, with these keys, when the batch commits; else it commits
   * nothing and rejects with `NOT_FOUND`. A write computed from what it read (a directory's summary
   * refreshed from its children) must not bring back a node removed meanwhile.
   */
  requireNodes?: NodeRef[];
}

export interface NodeRef {
  uri: string;
  key: number;
}

export interface NodeUse {
  uri: string;
  /** Epoch milliseconds. */
  at: number;
}

/**
 * What a committed batch changed, for whatever is derived from the store. A replaced node, vector
 * or posting is listed as both removed and added. Keys are sorted and unique.
 */
export interface ChangeRecord {
  seq: number;
  /** Node keys written (new, replaced, moved or with a use recorded). */
  addedNodeKeys: number[];
  /** Node keys deleted or replaced. */
  removedNodeKeys: number[];
  addedVectorKeys: number[];
  removedVectorKeys: number[];
  /**
   * The vectors this change removed or replaced, as they were. A replay after a crash needs a vector
   * added and gone again since the last snapshot, which the store no longer holds
   * (docs/internals/reliability-core.md). Absent in logs written before it was kept.
   */
  removedVectors?: VectorRecord[];
  addedPostingKeys: number[];
  removedPostingKeys: number[];
}

/** One commit as written: its change, and the records it put, as the store now holds them. */
export interface CommittedChange {
  change: ChangeRecord;
  nodes: NodeRecord[];
  vectors: VectorRecord[];
  postings: PostingRecord[];
}

/** Which embedder wrote the vectors; a store refuses vectors from another. */
export interface EmbedderInfo {
  id: string;
  dimensions: number;
}

export interface StoreMeta {
  schemaVersion: number;
  embedder?: EmbedderInfo;
  /** The sequence number of the last committed batch; 0 before the first. */
  seq: number;
  /** The next key {@link Store.allocateKeys} hands out. */
  nextKey: number;
}

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

/** Where {@link Store.snapshotInto} writes a snapshot's bytes (e.g. `allocateIndexBytes`'s room). */
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

/** A snapshot in the pieces it was read in, checked like {@link Store.snapshot}'s. The pieces must not be changed. */
export interface SnapshotPieces {
  name: string;
  seq: number;
  byteLength: number;
  pieces: readonly Uint8Array[];
}

export interface VerifyReport {
  ok: boolean;
  problems: string[];
}

/** The tables {@link Store.scan} can walk, each in primary-key order. */
export interface StoreTables {
  nodes: NodeRecord;
  vectors: VectorRecord;
  postings: PostingRecord;
  relations: RelationRecord;
  changes: ChangeRecord;
}

export type StoreStats = { [T in keyof StoreTables]: number } & { snapshots: number };

/** What to do when a store was written by another embedder than the one opening it. */
export type EmbedderMismatch = 'throw' | 'reset-vectors';

export interface OpenStoreOptions {
  /** Recorded on first open; checked on every later one. */
  embedder?: EmbedderInfo;
  /** Default `'throw'`: a LongshipError `EMBEDDER_MISMATCH`. */
  onEmbedderMismatch?: EmbedderMismatch;
}

/**
 * The persistent half of Longship. Implementations: `MemoryStore`, `IdbStore`, `FileStore`.
 * Every method of a closed store fails with `STORE_CLOSED`.
 *
 * @example
 * const first = await store.allocateKeys(2);
 * const seq = await store.commit({
 *   putNodes: [{ uri: 'viking://resources/a', parent: 'viking://resources', name: 'a', kind: 'file',
 *     contextType: 'resource', key: first, l0: 'A note', summaryKind: 'extractive', meta: {},
 *     createdAt: now, updatedAt: now, useCount: 0 }],
 *   putPostings: [{ key: first, body: 'A note' }],
 *   putVectors: [{ key: first + 1, nodeKey: first, chunk: 0, vector }],
 * });
 */
export interface Store {
  /** Whether what it holds outlives the process: true for IndexedDB and files, false in memory. */
  readonly persistent: boolean;
  /**
   * Writes the batch in one transaction: all of it or none. Resolves with its sequence number.
   * Fails with `INVALID_ARGUMENT` (nothing written) when the batch would leave the store
   * inconsistent in a way {@link Store.verify} would report, `DIMENSION_MISMATCH` for a vector
   * of the wrong length, `ABORTED` when `signal` fires before the transaction commits.
   * `onIssued` runs (at most once, synchronously) when every write of the batch is issued and the
   * commit is under way but not done: it may still fail. Work that can overlap the wait for the
   * disk goes there (IdbStore calls it; a store with nothing to wait for need not). What it throws
   * is ignored.
   */
  commit(batch: WriteBatch, signal?: AbortSignal, onIssued?: () => void): Promise<number>;
  /** Reserves `count` consecutive keys and resolves with the first. Keys are never handed out twice. */
  allocateKeys(count: number): Promise<number>;

  node(uri: string): Promise<NodeRecord | undefined>;
  /** The nodes at `uris`, in their order, undefined where none: one read for them all. */
  nodes(uris: readonly string[]): Promise<(NodeRecord | undefined)[]>;
  nodeByKey(key: number): Promise<NodeRecord | undefined>;
  /** Direct children, by URI. */
  children(uri: string): Promise<NodeRecord[]>;
  /** Every node whose URI starts with `uri + '/'`, by URI. */
  descendants(uri: string): Promise<NodeRecord[]>;
  /** The vectors with these keys that exist, in key order. */
  vectors(keys: readonly number[]): Promise<VectorRecord[]>;
  /** A node's vectors, by chunk. */
  vectorsOfNode(nodeKey: number): Promise<VectorRecord[]>;
  posting(key: number): Promise<PostingRecord | undefined>;
  /** Relations from or to `uri`, by (from, to). */
  relations(uri: string): Promise<RelationRecord[]>;
  /** Walks a table in primary-key order, `batchSize` records at a time, each batch read at once. */
  scan<T extends keyof StoreTables>(table: T, batchSize?: number): AsyncIterable<StoreTables[T][]>;
  /** Nodes without any vector: what a re-embed must do. By URI. */
  nodesNeedingVectors(): Promise<NodeRecord[]>;

  /** Changes with a sequence number above `seq`, in order. */
  changesSince(seq: number): Promise<ChangeRecord[]>;
  /**
   * The last commit made through this object, copied, if its sequence number is `seq`; else
   * undefined. The derived indexes catch up on their own commit from it rather than read back what
   * it just wrote. Optional: without it they read.
   */
  committed?(seq: number): CommittedChange | undefined;
  /** Forgets changes up to and including `seq`, once every snapshot covers them. */
  pruneChanges(throughSeq: number): Promise<void>;

  meta(): Promise<StoreMeta>;
  /**
   * Records `embedder` if the store has none. If it has another: `'throw'` fails with
   * `EMBEDDER_MISMATCH`; `'reset-vectors'` deletes every vector and snapshot in one transaction,
   * records the new embedder and logs the removals. Resolves with whether it reset.
   */
  useEmbedder(embedder: EmbedderInfo, onMismatch?: EmbedderMismatch): Promise<{ reset: boolean }>;

  /**
   * Stores bytes under `name`, chunked and checksummed, replacing the previous snapshot of that
   * name only once every chunk is written. Runs in its own transactions: never blocks a commit.
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

  /** Checks every invariant commit keeps. Reads the whole store at once: for tests and repair. */
  verify(): Promise<VerifyReport>;
  stats(): Promise<StoreStats>;
  close(): Promise<void>;
  /** Closes and deletes everything. */
  destroy(): Promise<void>;
}
