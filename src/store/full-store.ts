// The store as the engine uses it: every record operation and a change log, over whatever Store it is
// given. Each operation a store offers itself is called as it is (MemoryStore, IdbStore and FileStore
// offer them all, and are used unwrapped); the others are derived from the nine Store methods. A store
// without a change log gets one in memory, of the commits made through this object: the derived
// indexes then rebuild at every open and write no snapshots (docs/guide/custom-store.md, "Without
// a change log").

import { throwIfAborted } from '../abort.js';
import { LongshipError } from '../errors.js';
import { SerialQueue } from '../serial-queue.js';
import {
  type ChangeLog,
  hasChangeLog,
  type Snapshot,
  type SnapshotInput,
  type SnapshotSink,
} from './change-log.js';
import { decideEmbedder } from './embedder-check.js';
import { MemoryData } from './memory/memory-data.js';
import { MemoryLog } from './memory/memory-log.js';
import { type CommitPlan, lastCommitted, planCommit, vectorWipe } from './plan/commit-plan.js';
import type { PlanReader } from './plan/plan-reader.js';
import {
  type ChangeRecord,
  type CommittedChange,
  type EmbedderInfo,
  type EmbedderMismatch,
  type NodeRecord,
  type PostingRecord,
  type RecordTables,
  type RelationRecord,
  STORE_METHODS,
  STORE_OPERATIONS,
  type Store,
  type StoreKeys,
  type StoreLookups,
  type StoreMeta,
  type StoreStats,
  type StoreTables,
  type StoreWrites,
  type VectorRecord,
  type VerifyReport,
  type WriteBatch,
} from './store.js';
import { findProblems } from './verify.js';

/**
 * A {@link Store} with every operation, and a {@link ChangeLog}: what `Longship.store` is. Made by
 * the engine from the store it is given; read it, write through it, and `verify()` it.
 */
export interface FullStore extends Required<Store>, Required<ChangeLog> {
  /** Walks a table in primary-key order, `batchSize` records at a time; `'changes'` is the change log. */
  scan<T extends keyof StoreTables>(table: T, batchSize?: number): AsyncIterable<StoreTables[T][]>;
}

/** How many times a planned commit is planned again when another writer committed meanwhile. */
const WRITE_ATTEMPTS = 5;

/**
 * `store` with every operation: itself when it offers them all and keeps a change log, else a
 * wrapper that derives the rest. Fails with `INVALID_ARGUMENT` when `store` lacks a {@link Store}
 * method, or has only some of {@link ChangeLog}'s.
 *
 * @example
 * const full = fullStore(myStore);
 * await full.useEmbedder({ id: 'my-model@1', dimensions: 384 });
 */
export function fullStore(store: Store): FullStore {
  if (store instanceof DerivingStore) return store;
  const has = (method: string) => typeof (store as unknown as Record<string, unknown>)[method] === 'function';
  const missing = STORE_METHODS.filter((method) => !has(method));
  if (typeof store?.persistent !== 'boolean') missing.unshift('persistent' as never);
  if (missing.length > 0) {
    throw new LongshipError('INVALID_ARGUMENT', `a Store needs ${missing.join(', ')}`);
  }
  const logged = hasChangeLog(store);
  // Every operation its own, and the last commit at hand: nothing to derive.
  if (logged && has('committed') && STORE_OPERATIONS.every(has)) return store as FullStore;
  return new DerivingStore(store, logged);
}

/**
 * Whether the change log and the snapshots are the store's own, kept from one open to the next;
 * false where {@link fullStore} keeps a log in memory for a store without one.
 */
export function keepsChangeLog(store: FullStore): boolean {
  return !(store instanceof DerivingStore) || store.logged;
}

/** A store's own operations where it has them, derived ones where it has not. */
class DerivingStore implements FullStore {
  readonly persistent: boolean;
  readonly #store: Store;
  /** Whether the store keeps its own change log; else {@link #memory} holds this object's. */
  readonly logged: boolean;
  readonly #log: ChangeLog;
  readonly #memory: MemoryData | undefined;
  /** Planned commits and embedder changes, one at a time: each plans against the last one's result. */
  readonly #queue = new SerialQueue();
  #last: ((seq: number) => CommittedChange | undefined) | undefined;
  #closed = false;

  constructor(store: Store, logged: boolean) {
    this.#store = store;
    this.persistent = store.persistent;
    this.logged = logged;
    if (logged) {
      this.#log = store as Store & ChangeLog;
    } else {
      const memory = new MemoryData();
      this.#memory = memory;
      this.#log = new MemoryLog(() => {
        if (this.#closed) throw new LongshipError('STORE_CLOSED', 'the store is closed');
        return memory;
      });
    }
  }

  // The Store's own methods.
  meta(): Promise<StoreMeta> {
    return this.#store.meta();
  }

  allocateKeys(count: number): Promise<number> {
    return this.#store.allocateKeys(count);
  }

  async write(writes: StoreWrites): Promise<boolean> {
    const written = await this.#store.write(writes);
    if (written && this.#memory) {
      this.#memory.changes.set(writes.change.seq, writes.change);
      this.#memory.state.seq = writes.change.seq;
    }
    return written;
  }

  get<T extends keyof StoreKeys>(
    table: T,
    keys: readonly StoreKeys[T][],
  ): Promise<(RecordTables[T] | undefined)[]> {
    return this.#store.get(table, keys);
  }

  lookup<T extends keyof StoreLookups, F extends keyof StoreLookups[T]>(
    table: T,
    field: F,
    value: StoreLookups[T][F],
  ): Promise<RecordTables[T][]> {
    return this.#store.lookup(table, field, value);
  }

  descendants(uri: string): Promise<NodeRecord[]> {
    return this.#store.descendants(uri);
  }

  scan<T extends keyof StoreTables>(table: T, batchSize = 1000): AsyncIterable<StoreTables[T][]> {
    if (table !== 'changes') return this.#store.scan(table as keyof RecordTables, batchSize) as never;
    return inBatches(() => this.changesSince(0), batchSize) as AsyncIterable<StoreTables[T][]>;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#store.close();
  }

  async destroy(): Promise<void> {
    this.#memory?.clear();
    this.#closed = true;
    await this.#store.destroy();
  }

  // The operations: the store's own, or derived from the methods above.
  commit(batch: WriteBatch, signal?: AbortSignal, onIssued?: () => void): Promise<number> {
    const store = this.#store;
    if (store.commit && this.logged) return store.commit(batch, signal, onIssued);
    return this.#plannedCommit(batch, signal, onIssued);
  }

  async node(uri: string): Promise<NodeRecord | undefined> {
    return this.#store.node ? this.#store.node(uri) : (await this.#store.get('nodes', [uri]))[0];
  }

  nodes(uris: readonly string[]): Promise<(NodeRecord | undefined)[]> {
    return this.#store.nodes ? this.#store.nodes(uris) : this.#store.get('nodes', uris);
  }

  async nodeByKey(key: number): Promise<NodeRecord | undefined> {
    if (this.#store.nodeByKey) return this.#store.nodeByKey(key);
    return (await this.#store.lookup('nodes', 'key', key))[0];
  }

  children(uri: string): Promise<NodeRecord[]> {
    return this.#store.children ? this.#store.children(uri) : this.#store.lookup('nodes', 'parent', uri);
  }

  async vectors(keys: readonly number[]): Promise<VectorRecord[]> {
    if (this.#store.vectors) return this.#store.vectors(keys);
    const unique = [...new Set(keys)].sort((a, b) => a - b);
    return (await this.#store.get('vectors', unique)).filter((v) => v !== undefined);
  }

  async vectorsOfNode(nodeKey: number): Promise<VectorRecord[]> {
    if (this.#store.vectorsOfNode) return this.#store.vectorsOfNode(nodeKey);
    return (await this.#store.lookup('vectors', 'nodeKey', nodeKey)).sort((a, b) => a.chunk - b.chunk);
  }

  async posting(key: number): Promise<PostingRecord | undefined> {
    return this.#store.posting ? this.#store.posting(key) : (await this.#store.get('postings', [key]))[0];
  }

  async relations(uri: string): Promise<RelationRecord[]> {
    if (this.#store.relations) return this.#store.relations(uri);
    const [from, to] = await Promise.all([
      this.#store.lookup('relations', 'from', uri),
      this.#store.lookup('relations', 'to', uri),
    ]);
    // A relation from a node to itself is found both ways.
    const unique = new Map([...from, ...to].map((r) => [`${r.from}\u0000${r.to}`, r]));
    return [...unique.values()].sort((a, b) => byString(a.from, b.from) || byString(a.to, b.to));
  }

  async nodesNeedingVectors(): Promise<NodeRecord[]> {
    if (this.#store.nodesNeedingVectors) return this.#store.nodesNeedingVectors();
    const embedded = new Set<number>();
    for await (const rows of this.#store.scan('vectors')) for (const v of rows) embedded.add(v.nodeKey);
    const found: NodeRecord[] = [];
    for await (const rows of this.#store.scan('nodes'))
      found.push(...rows.filter((n) => !embedded.has(n.key)));
    return found;
  }

  useEmbedder(embedder: EmbedderInfo, onMismatch?: EmbedderMismatch): Promise<{ reset: boolean }> {
    if (this.#store.useEmbedder) return this.#store.useEmbedder(embedder, onMismatch);
    return this.#queue.run(async () => {
      for (let attempt = 1; ; attempt++) {
        const meta = await this.#store.meta();
        const decision = decideEmbedder(meta.embedder, embedder, onMismatch);
        if (decision === 'keep') return { reset: false };
        const removed: number[] = [];
        if (decision === 'reset') {
          for await (const rows of this.#store.scan('vectors')) removed.push(...rows.map((v) => v.key));
        }
        const writes = vectorWipe(meta.seq + 1, removed);
        writes.embedder = { id: embedder.id, dimensions: embedder.dimensions };
        if (await this.write(writes)) {
          // The snapshots held the old vectors. A store's own log keeps its snapshots: the graph's
          // no longer loads (other dimensions) and is rebuilt, and the others replay the removals.
          if (decision === 'reset') this.#memory?.snapshots.clear();
          return { reset: decision === 'reset' };
        }
        if (attempt === WRITE_ATTEMPTS) throw busy();
      }
    });
  }

  async verify(): Promise<VerifyReport> {
    if (this.#store.verify) return this.#store.verify();
    const state = await this.#store.meta();
    const problems = findProblems({
      state,
      nodes: await collect(this.#store.scan('nodes')),
      vectors: await collect(this.#store.scan('vectors')),
      postings: await collect(this.#store.scan('postings')),
      relations: await collect(this.#store.scan('relations')),
      changes: await this.changesSince(0),
      snapshots: [],
      chunkIds: [],
    });
    return { ok: problems.length === 0, problems };
  }

  async stats(): Promise<StoreStats> {
    if (this.#store.stats) return this.#store.stats();
    const count = async (table: keyof RecordTables) => {
      let n = 0;
      for await (const rows of this.#store.scan(table)) n += rows.length;
      return n;
    };
    return {
      nodes: await count('nodes'),
      vectors: await count('vectors'),
      postings: await count('postings'),
      relations: await count('relations'),
      changes: (await this.changesSince(0)).length,
      snapshots: this.#memory?.snapshots.size ?? 0,
    };
  }

  // The change log: the store's own, or the one in memory.
  changesSince(seq: number): Promise<ChangeRecord[]> {
    return this.#log.changesSince(seq);
  }

  pruneChanges(throughSeq: number): Promise<void> {
    return this.#log.pruneChanges(throughSeq);
  }

  committed(seq: number): CommittedChange | undefined {
    return (this.logged ? this.#log.committed?.(seq) : undefined) ?? this.#last?.(seq);
  }

  async putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    // The log in memory checks a snapshot's seq against the store's, which it learns here.
    if (this.#memory) this.#memory.state.seq = (await this.#store.meta()).seq;
    return this.#log.putSnapshot(input, signal);
  }

  snapshot(name: string): Promise<Snapshot | undefined> {
    return this.#log.snapshot(name);
  }

  snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    return this.#log.snapshotInto(name, open);
  }

  deleteSnapshot(name: string): Promise<void> {
    return this.#log.deleteSnapshot(name);
  }

  /**
   * Plans the batch against the store as the derived reads see it, then writes the plan; planned
   * again when another writer committed in between (the store's seq moved on).
   */
  async #plannedCommit(batch: WriteBatch, signal?: AbortSignal, onIssued?: () => void): Promise<number> {
    throwIfAborted(signal);
    return this.#queue.run(async () => {
      let issued = false;
      for (let attempt = 1; ; attempt++) {
        const plan = await planCommit(batch, this.#reader(), () => throwIfAborted(signal));
        throwIfAborted(signal);
        const written = this.write(writesOf(plan));
        if (!issued) {
          issued = true;
          try {
            onIssued?.();
          } catch {
            // The commit is under way: a failing hook must not make it look failed.
          }
        }
        if (await written) {
          this.#last = lastCommitted(plan);
          return plan.change.seq;
        }
        if (attempt === WRITE_ATTEMPTS) throw busy();
      }
    });
  }

  /** The planner's point reads, through the operations above. */
  #reader(): PlanReader {
    return {
      state: async () => {
        const { seq, nextKey, embedder } = await this.#store.meta();
        return { seq, nextKey, ...(embedder ? { embedder } : {}) };
      },
      node: (uri) => this.node(uri),
      nodeByKey: (key) => this.nodeByKey(key),
      childUris: async (uri) => (await this.children(uri)).map((n) => n.uri),
      vector: async (key) => (await this.#store.get('vectors', [key]))[0],
      vectorsOfNode: (nodeKey) => this.vectorsOfNode(nodeKey),
      hasPosting: async (key) => (await this.posting(key)) !== undefined,
      relationKeysOf: async (uri) => (await this.relations(uri)).map(({ from, to }) => ({ from, to })),
    };
  }
}

/** The plan's writes, without the state IdbStore and FileStore keep whole. */
function writesOf({ state: _state, ...writes }: CommitPlan): StoreWrites {
  return writes;
}

function busy(): LongshipError {
  return new LongshipError(
    'STORE_ERROR',
    `other writers kept committing: the write was planned ${WRITE_ATTEMPTS} times, and each time it was too late`,
  );
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function collect<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const batch of batches) all.push(...batch);
  return all;
}

async function* inBatches<T>(read: () => Promise<T[]>, batchSize: number): AsyncIterable<T[]> {
  const rows = await read();
  for (let i = 0; i < rows.length; i += batchSize) yield rows.slice(i, i + batchSize);
}
