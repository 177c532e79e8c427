// The Store is the source of truth: nodes, their vectors, their lexical postings and relations. It is
// the interface a store of your own implements (docs/guide/custom-store.md): nine
// record operations, each one SQL statement or one key range on a sorted key-value store. Everything
// else the engine needs it derives from them (full-store.ts), unless the store offers a faster
// operation of its own (StoreOperations). A store may also keep the change log and the index
// snapshots (ChangeLog, change-log.ts), which lets an open load the indexes instead of rebuilding them.
// URIs are plain strings here; src/context owns their grammar. The store only relies on a child's
// URI starting with its parent's URI + '/', which is what makes descendants() a prefix scan.

/** The version of the records' shape. IndexedDB uses it as the database version. */
export const STORE_SCHEMA_VERSION = 2;

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
 * What one {@link StoreOperations.commit} writes. Deletions apply first, then puts, so a batch can
 * replace. Deleting a node also deletes its vectors, its posting and its relations (both directions);
 * it does not delete its children, and a batch that would leave a child without its parent fails.
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

/**
 * What {@link Store.write} writes at once, all of it or none: a batch the engine has already
 * planned and checked against the store at seq `change.seq - 1`. Deletions apply first, then puts.
 */
export interface StoreWrites {
  deleteNodes: string[];
  deleteVectors: number[];
  deletePostings: number[];
  deleteRelations: RelationKey[];
  putNodes: NodeRecord[];
  putVectors: VectorRecord[];
  putPostings: PostingRecord[];
  putRelations: RelationRecord[];
  /** The embedder to record, replacing the one recorded. */
  embedder?: EmbedderInfo;
  /**
   * What the writes change. Its `seq` becomes the store's. A store that keeps a change log
   * (ChangeLog) logs it with the writes, in the same transaction; another may ignore it.
   */
  change: ChangeRecord;
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
  /** The version of the shape of the records the store holds, if it says: IndexedDB's database version. */
  schemaVersion?: number;
  embedder?: EmbedderInfo;
  /** The sequence number of the last committed batch; 0 before the first. */
  seq: number;
  /** The next key {@link Store.allocateKeys} hands out. */
  nextKey: number;
}

export interface VerifyReport {
  ok: boolean;
  problems: string[];
}

/** The tables of records, each in the order of its primary key. */
export interface RecordTables {
  /** By URI. */
  nodes: NodeRecord;
  /** By key. */
  vectors: VectorRecord;
  /** By key. */
  postings: PostingRecord;
  /** By (from, to). */
  relations: RelationRecord;
}

/** The primary key of each table {@link Store.get} reads. */
export interface StoreKeys {
  nodes: string;
  vectors: number;
  postings: number;
}

/** The fields {@link Store.lookup} finds records by, with their types: a store's secondary indexes. */
export interface StoreLookups {
  nodes: { key: number; parent: string };
  vectors: { nodeKey: number };
  relations: { from: string; to: string };
}

/** What to do when a store was written by another embedder than the one opening it. */
export type EmbedderMismatch = 'throw' | 'reset-vectors';

export interface OpenStoreOptions {
  /** Recorded on first open; checked on every later one. */
  embedder?: EmbedderInfo;
  /** Default `'throw'`: a LongshipError `EMBEDDER_MISMATCH`. */
  onEmbedderMismatch?: EmbedderMismatch;
}

/**
 * The persistent half of Longship: what a store of your own implements (docs/guide/custom-store.md).
 * Implementations: `MemoryStore`, `IdbStore`, `FileStore`. Every method of
 * a closed store fails with `STORE_CLOSED`. Records go in and come out as copies: what a caller
 * holds never aliases what is stored. The engine derives the rest of a `FullStore` (`longship/store`) from these
 * methods; a store may offer any of {@link StoreOperations} itself, and the engine then calls that.
 *
 * @example
 * // A store of your own (docs/internals/store.md has what each method does, in SQL and key-value terms):
 * const store: Store = await openDurableObjectStore(ctx.storage);
 * const longship = await openLongship({ store, embedder });
 */
export interface Store extends Partial<StoreOperations> {
  /** Whether what it holds outlives the process: true for IndexedDB and files, false in memory. */
  readonly persistent: boolean;
  /** The state every write moves on: the last seq, the next key, the embedder. */
  meta(): Promise<StoreMeta>;
  /**
   * Reserves `count` consecutive keys and resolves with the first. Keys are never handed out twice.
   * Fails with `INVALID_ARGUMENT` unless `count` is a positive integer.
   */
  allocateKeys(count: number): Promise<number>;
  /**
   * Writes everything in `writes` in one transaction, or nothing, and sets the store's seq to
   * `writes.change.seq` (and its embedder to `writes.embedder`, when given). Resolves false, writing
   * nothing, when the store's seq is not `writes.change.seq - 1`: another writer committed since the
   * engine planned the writes, and it plans them again.
   */
  write(writes: StoreWrites): Promise<boolean>;
  /** The records with these primary keys, in the order asked, undefined where there is none. */
  get<T extends keyof StoreKeys>(
    table: T,
    keys: readonly StoreKeys[T][],
  ): Promise<(RecordTables[T] | undefined)[]>;
  /** The records whose `field` equals `value`, in primary-key order: `lookup('nodes', 'parent', uri)`. */
  lookup<T extends keyof StoreLookups, F extends keyof StoreLookups[T]>(
    table: T,
    field: F,
    value: StoreLookups[T][F],
  ): Promise<RecordTables[T][]>;
  /** Every node whose URI starts with `uri + '/'`, by URI: a range of the nodes' primary key. */
  descendants(uri: string): Promise<NodeRecord[]>;
  /** Walks a table in primary-key order, `batchSize` records at a time, each batch read at once. */
  scan<T extends keyof RecordTables>(table: T, batchSize?: number): AsyncIterable<RecordTables[T][]>;
  close(): Promise<void>;
  /** Closes and deletes everything. */
  destroy(): Promise<void>;
}

/** The methods every {@link Store} has: what `openLongship` checks a store it is given for. */
export const STORE_METHODS = [
  'meta',
  'allocateKeys',
  'write',
  'get',
  'lookup',
  'descendants',
  'scan',
  'close',
  'destroy',
] as const;

/** The operations a {@link Store} may offer itself, faster than the engine derives them. */
export const STORE_OPERATIONS = [
  'commit',
  'node',
  'nodes',
  'nodeByKey',
  'children',
  'vectors',
  'vectorsOfNode',
  'posting',
  'relations',
  'nodesNeedingVectors',
  'useEmbedder',
  'verify',
  'stats',
] as const satisfies readonly (keyof StoreOperations)[];

/**
 * What the engine derives from a {@link Store}'s methods (full-store.ts), and a store may offer as
 * its own, faster, with the same behaviour. The contract suite checks both.
 */
export interface StoreOperations {
  /**
   * Writes the batch in one transaction: all of it or none. Resolves with its sequence number.
   * Fails with `INVALID_ARGUMENT` (nothing written) when the batch would leave the store
   * inconsistent in a way {@link StoreOperations.verify} would report, `DIMENSION_MISMATCH` for a
   * vector of the wrong length, `ABORTED` when `signal` fires before the transaction commits.
   * `onIssued` runs (at most once, synchronously) when every write of the batch is issued and the
   * commit is under way but not done: it may still fail. Work that can overlap the wait for the
   * disk goes there. What it throws is ignored. A store's own `commit` is used only when it also
   * keeps a change log (ChangeLog): otherwise the engine plans each commit itself, to learn what
   * it changed.
   */
  commit(batch: WriteBatch, signal?: AbortSignal, onIssued?: () => void): Promise<number>;
  node(uri: string): Promise<NodeRecord | undefined>;
  /** The nodes at `uris`, in their order, undefined where none: one read for them all. */
  nodes(uris: readonly string[]): Promise<(NodeRecord | undefined)[]>;
  nodeByKey(key: number): Promise<NodeRecord | undefined>;
  /** Direct children, by URI. */
  children(uri: string): Promise<NodeRecord[]>;
  /** The vectors with these keys that exist, in key order. */
  vectors(keys: readonly number[]): Promise<VectorRecord[]>;
  /** A node's vectors, by chunk. */
  vectorsOfNode(nodeKey: number): Promise<VectorRecord[]>;
  posting(key: number): Promise<PostingRecord | undefined>;
  /** Relations from or to `uri`, by (from, to). */
  relations(uri: string): Promise<RelationRecord[]>;
  /** Nodes without any vector: what a re-embed must do. By URI. */
  nodesNeedingVectors(): Promise<NodeRecord[]>;
  /**
   * Records `embedder` if the store has none. If it has another: `'throw'` fails with
   * `EMBEDDER_MISMATCH`; `'reset-vectors'` deletes every vector (and snapshot) in one transaction,
   * records the new embedder and logs the removals. Resolves with whether it reset.
   */
  useEmbedder(embedder: EmbedderInfo, onMismatch?: EmbedderMismatch): Promise<{ reset: boolean }>;
  /** Checks every invariant commit keeps. Reads the whole store at once: for tests and repair. */
  verify(): Promise<VerifyReport>;
  /** How many records each table holds. */
  stats(): Promise<StoreStats>;
}

/** The tables {@link FullStore.scan} can walk: the records, and the change log by seq. */
export interface StoreTables extends RecordTables {
  changes: ChangeRecord;
}

/**
 * Records in each table. `snapshots` counts what a store that keeps them says it holds; 0 where the
 * store has no `stats()` of its own to say.
 */
export type StoreStats = { [T in keyof StoreTables]: number } & { snapshots: number };
