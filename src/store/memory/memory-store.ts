import { throwIfAborted } from '../../abort.js';
// A Store kept in memory: for tests, for Node without persistence, and as the executable model the
// IndexedDB store is checked against. Records are copied in and out (structuredClone), so nothing
// a caller holds aliases what is stored.

import { LongshipError } from '../../errors.js';
import { adoptEmbedder, decideEmbedder } from '../embedder-check.js';
import { lastCommitted, planCommit } from '../plan/commit-plan.js';
import {
  checkSnapshot,
  checkSnapshotInput,
  joinSnapshot,
  newGeneration,
  piecesInto,
  rechunk,
  type SnapshotChunk,
  SnapshotSummer,
} from '../snapshot/snapshot-format.js';
import {
  type ChangeRecord,
  type CommittedChange,
  type EmbedderInfo,
  type EmbedderMismatch,
  type NodeRecord,
  type OpenStoreOptions,
  type PostingRecord,
  type RelationRecord,
  type Snapshot,
  type SnapshotInput,
  type SnapshotPieces,
  type SnapshotSink,
  STORE_SCHEMA_VERSION,
  type Store,
  type StoreMeta,
  type StoreStats,
  type StoreTables,
  type VectorRecord,
  type VerifyReport,
  type WriteBatch,
} from '../store.js';
import { findProblems } from '../verify.js';
import { chunkId, MemoryData } from './memory-data.js';

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byUri = (a: NodeRecord, b: NodeRecord) => byString(a.uri, b.uri);
const byFromTo = (a: RelationRecord, b: RelationRecord) => byString(a.from, b.from) || byString(a.to, b.to);

/** Sorted copies of a table, in the order IndexedDB would return it. */
function sortedTable<T extends keyof StoreTables>(data: MemoryData, table: T): StoreTables[T][] {
  switch (table) {
    case 'nodes':
      return [...data.nodes.values()].sort(byUri) as StoreTables[T][];
    case 'relations':
      return [...data.relations.values()].sort(byFromTo) as StoreTables[T][];
    default: {
      const map = data[table as 'vectors' | 'postings' | 'changes'] as Map<number, StoreTables[T]>;
      return [...map.keys()].sort((a, b) => a - b).map((k) => map.get(k)!);
    }
  }
}

export interface MemoryStoreOptions extends OpenStoreOptions {
  /** The tables to open; a fresh, empty set by default. Share one to "reopen" a store. */
  data?: MemoryData;
}

/**
 * Opens a Store held in memory.
 *
 * @example
 * const store = await openMemoryStore({ embedder: { id: 'use-lite', dimensions: 512 } });
 */
export async function openMemoryStore(options: MemoryStoreOptions = {}): Promise<MemoryStore> {
  const store = new MemoryStore(options.data ?? new MemoryData());
  return adoptEmbedder(store, options);
}

/** The in-memory Store. Open it with {@link openMemoryStore}. */
export class MemoryStore implements Store {
  readonly persistent = false;
  private closed = false;
  private last: ((seq: number) => CommittedChange | undefined) | undefined;

  constructor(private readonly data: MemoryData) {}

  private live(): MemoryData {
    if (this.closed) throw new LongshipError('STORE_CLOSED', 'the store is closed');
    return this.data;
  }

  async commit(batch: WriteBatch, signal?: AbortSignal): Promise<number> {
    const data = this.live();
    throwIfAborted(signal);
    return data.exclusive(async () => {
      this.live();
      const plan = await planCommit(batch, data.reader(), () => throwIfAborted(signal));
      throwIfAborted(signal);
      data.apply(plan);
      this.last = lastCommitted(plan);
      return plan.change.seq;
    });
  }

  committed(seq: number): CommittedChange | undefined {
    return this.last?.(seq);
  }

  async allocateKeys(count: number): Promise<number> {
    const data = this.live();
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new LongshipError('INVALID_ARGUMENT', 'allocateKeys needs a positive integer count');
    }
    const first = data.state.nextKey;
    data.state.nextKey += count;
    return first;
  }

  async node(uri: string): Promise<NodeRecord | undefined> {
    return structuredClone(this.live().nodes.get(uri));
  }

  async nodes(uris: readonly string[]): Promise<(NodeRecord | undefined)[]> {
    const data = this.live();
    // A copy each, as IndexedDB gives: one clone of the list would share a node asked for twice.
    return uris.map((uri) => structuredClone(data.nodes.get(uri)));
  }

  async nodeByKey(key: number): Promise<NodeRecord | undefined> {
    return structuredClone(this.live().nodeByKey(key));
  }

  async children(uri: string): Promise<NodeRecord[]> {
    const data = this.live();
    return structuredClone(data.childUris(uri).map((child) => data.nodes.get(child)!)).sort(byUri);
  }

  async descendants(uri: string): Promise<NodeRecord[]> {
    const prefix = `${uri}/`;
    const found = [...this.live().nodes.values()].filter((n) => n.uri.startsWith(prefix));
    return structuredClone(found).sort(byUri);
  }

  async vectors(keys: readonly number[]): Promise<VectorRecord[]> {
    const data = this.live();
    const unique = [...new Set(keys)].sort((a, b) => a - b);
    return structuredClone(unique.flatMap((key) => data.vectors.get(key) ?? []));
  }

  async vectorsOfNode(nodeKey: number): Promise<VectorRecord[]> {
    return structuredClone(this.live().vectorsOfNode(nodeKey)).sort((a, b) => a.chunk - b.chunk);
  }

  async posting(key: number): Promise<PostingRecord | undefined> {
    return structuredClone(this.live().postings.get(key));
  }

  async relations(uri: string): Promise<RelationRecord[]> {
    return structuredClone(this.live().relationsOfUri(uri)).sort(byFromTo);
  }

  async *scan<T extends keyof StoreTables>(table: T, batchSize = 1000): AsyncIterable<StoreTables[T][]> {
    const rows = sortedTable(this.live(), table);
    for (let i = 0; i < rows.length; i += batchSize) {
      this.live();
      yield structuredClone(rows.slice(i, i + batchSize));
    }
  }

  async nodesNeedingVectors(): Promise<NodeRecord[]> {
    const data = this.live();
    const found = [...data.nodes.values()].filter((n) => data.vectorsOfNode(n.key).length === 0);
    return structuredClone(found).sort(byUri);
  }

  async changesSince(seq: number): Promise<ChangeRecord[]> {
    return sortedTable(this.live(), 'changes')
      .filter((c) => c.seq > seq)
      .map((c) => structuredClone(c));
  }

  async pruneChanges(throughSeq: number): Promise<void> {
    const data = this.live();
    for (const seq of [...data.changes.keys()]) if (seq <= throughSeq) data.changes.delete(seq);
  }

  async meta(): Promise<StoreMeta> {
    const { seq, nextKey, embedder } = this.live().state;
    return structuredClone({
      schemaVersion: STORE_SCHEMA_VERSION,
      seq,
      nextKey,
      ...(embedder ? { embedder } : {}),
    });
  }

  async useEmbedder(embedder: EmbedderInfo, onMismatch?: EmbedderMismatch): Promise<{ reset: boolean }> {
    const data = this.live();
    return data.exclusive(() => {
      this.live();
      const decision = decideEmbedder(data.state.embedder, embedder, onMismatch);
      if (decision === 'reset') {
        data.dropVectors();
        data.snapshots.clear();
        data.snapshotChunks.clear();
      }
      data.state.embedder = { id: embedder.id, dimensions: embedder.dimensions };
      return { reset: decision === 'reset' };
    });
  }

  async putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    const data = this.live();
    checkSnapshotInput(input?.name, input?.seq, data.state.seq);
    throwIfAborted(signal);
    const { name, seq } = input;
    const generation = newGeneration();
    const sum = new SnapshotSummer();
    try {
      for await (const bytes of rechunk(input.bytes)) {
        this.live();
        throwIfAborted(signal);
        const index = sum.add(bytes);
        data.snapshotChunks.set(chunkId(name, generation, index), { name, generation, index, bytes });
      }
      this.live();
      throwIfAborted(signal);
    } catch (error) {
      for (let i = 0; i < sum.chunkCount; i++) data.snapshotChunks.delete(chunkId(name, generation, i));
      throw error;
    }
    for (let i = 0; i < sum.chunkCount; i++) {
      if (!data.snapshotChunks.has(chunkId(name, generation, i))) {
        throw new LongshipError('STORE_ERROR', `snapshot ${name} was replaced while it was being written`);
      }
    }
    // The header is the commit point; then the previous generation (and any unfinished one) goes.
    data.snapshots.set(name, { name, seq, generation, ...sum, createdAt: Date.now() });
    for (const [id, chunk] of data.snapshotChunks) {
      if (chunk.name === name && chunk.generation !== generation) data.snapshotChunks.delete(id);
    }
  }

  async snapshot(name: string): Promise<Snapshot | undefined> {
    return joinSnapshot(this.#checked(name));
  }

  async snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    return piecesInto(this.#checked(name), open);
  }

  #checked(name: string): SnapshotPieces | undefined {
    const data = this.live();
    const header = data.snapshots.get(name);
    if (!header) return undefined;
    const chunks: SnapshotChunk[] = [];
    for (let i = 0; i < header.chunkCount; i++) {
      const chunk = data.snapshotChunks.get(chunkId(name, header.generation, i));
      if (!chunk) return undefined;
      chunks.push(chunk);
    }
    return checkSnapshot(header, chunks);
  }

  async deleteSnapshot(name: string): Promise<void> {
    const data = this.live();
    data.snapshots.delete(name);
    for (const [id, chunk] of data.snapshotChunks) if (chunk.name === name) data.snapshotChunks.delete(id);
  }

  async verify(): Promise<VerifyReport> {
    const data = this.live();
    const problems = findProblems({
      state: data.state,
      nodes: sortedTable(data, 'nodes'),
      vectors: sortedTable(data, 'vectors'),
      postings: sortedTable(data, 'postings'),
      relations: sortedTable(data, 'relations'),
      changes: sortedTable(data, 'changes'),
      snapshots: [...data.snapshots.values()],
      chunkIds: [...data.snapshotChunks.values()].map((c) => [c.name, c.generation, c.index]),
    });
    return { ok: problems.length === 0, problems };
  }

  async stats(): Promise<StoreStats> {
    const data = this.live();
    return {
      nodes: data.nodes.size,
      vectors: data.vectors.size,
      postings: data.postings.size,
      relations: data.relations.size,
      changes: data.changes.size,
      snapshots: data.snapshots.size,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  async destroy(): Promise<void> {
    this.live().clear();
    this.closed = true;
  }
}
