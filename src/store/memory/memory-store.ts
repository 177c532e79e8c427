// A Store kept in memory: for tests, for Node without persistence, and as the executable model the
// IndexedDB store is checked against. Records are copied in and out (structuredClone), so nothing
// a caller holds aliases what is stored.

import { throwIfAborted } from '../../abort.js';
import { LongshipError } from '../../errors.js';
import type { Snapshot, SnapshotInput, SnapshotSink } from '../change-log.js';
import { adoptEmbedder, decideEmbedder } from '../embedder-check.js';
import type { FullStore } from '../full-store.js';
import { lastCommitted, planCommit } from '../plan/commit-plan.js';
import {
  type ChangeRecord,
  type CommittedChange,
  type EmbedderInfo,
  type EmbedderMismatch,
  type NodeRecord,
  type OpenStoreOptions,
  type PostingRecord,
  type RecordTables,
  type RelationRecord,
  STORE_SCHEMA_VERSION,
  type StoreKeys,
  type StoreLookups,
  type StoreMeta,
  type StoreStats,
  type StoreTables,
  type StoreWrites,
  type VectorRecord,
  type VerifyReport,
  type WriteBatch,
} from '../store.js';
import { findProblems } from '../verify.js';
import { MemoryData } from './memory-data.js';
import { MemoryLog } from './memory-log.js';

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byUri = (a: NodeRecord, b: NodeRecord) => byString(a.uri, b.uri);
const byFromTo = (a: RelationRecord, b: RelationRecord) => byString(a.from, b.from) || byString(a.to, b.to);

/** Rows in the order of their table's primary key, as IndexedDB returns them (sorted in place). */
function sortedRows<T extends keyof StoreTables>(table: T, rows: StoreTables[T][]): StoreTables[T][] {
  if (table === 'nodes') return (rows as NodeRecord[]).sort(byUri) as StoreTables[T][];
  if (table === 'relations') return (rows as RelationRecord[]).sort(byFromTo) as StoreTables[T][];
  if (table === 'changes') return (rows as ChangeRecord[]).sort((a, b) => a.seq - b.seq) as StoreTables[T][];
  return (rows as { key: number }[]).sort((a, b) => a.key - b.key) as StoreTables[T][];
}

/** A table's rows (not copies), sorted. */
function sortedTable<T extends keyof StoreTables>(data: MemoryData, table: T): StoreTables[T][] {
  return sortedRows(table, [...(data[table] as Map<unknown, StoreTables[T]>).values()]);
}

export interface MemoryStoreOptions extends OpenStoreOptions {
  /**
   * The tables to open; a fresh, empty set by default. Share one to "reopen" a store. For tests:
   * the package exports no way to make a MemoryData, so it is left out of the declarations.
   *
   * @internal
   */
  data?: MemoryData;
}

/**
 * Opens a Store held in memory.
 *
 * @example
 * const store = await openMemoryStore({ embedder: { id: 'use-lite', dimensions: 512 } });
 */
export async function openMemoryStore(options: MemoryStoreOptions = {}): Promise<FullStore> {
  const store = new MemoryStore(options.data ?? new MemoryData());
  return adoptEmbedder(store, options);
}

/** The in-memory Store. Open it with {@link openMemoryStore}. */
export class MemoryStore implements FullStore {
  readonly persistent = false;
  private closed = false;
  private last: ((seq: number) => CommittedChange | undefined) | undefined;
  private readonly log = new MemoryLog(() => this.live());

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

  async write(writes: StoreWrites): Promise<boolean> {
    const data = this.live();
    const copy = structuredClone(writes);
    return data.exclusive(() => {
      this.live();
      if (copy.change.seq !== data.state.seq + 1) return false;
      data.apply(copy);
      return true;
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

  async get<T extends keyof StoreKeys>(
    table: T,
    keys: readonly StoreKeys[T][],
  ): Promise<(RecordTables[T] | undefined)[]> {
    const map = this.live()[table] as Map<StoreKeys[T], RecordTables[T]>;
    return keys.map((key) => structuredClone(map.get(key)));
  }

  async lookup<T extends keyof StoreLookups, F extends keyof StoreLookups[T]>(
    table: T,
    field: F,
    value: StoreLookups[T][F],
  ): Promise<RecordTables[T][]> {
    const data = this.live();
    const lookups: Record<string, () => RecordTables[keyof RecordTables][]> = {
      'nodes.key': () => [data.nodeByKey(value as number)].filter((n) => n !== undefined),
      'nodes.parent': () => data.childUris(value as string).map((uri) => data.nodes.get(uri)!),
      'vectors.nodeKey': () => data.vectorsOfNode(value as number),
      'relations.from': () => data.relationsOfUri(value as string).filter((r) => r.from === value),
      'relations.to': () => data.relationsOfUri(value as string).filter((r) => r.to === value),
    };
    const found = lookups[`${table}.${String(field)}`];
    if (!found) throw new LongshipError('INVALID_ARGUMENT', `no lookup of ${table} by ${String(field)}`);
    return structuredClone(sortedRows(table, found() as StoreTables[T][]) as RecordTables[T][]);
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

  // The change log and the snapshots: in the same tables, read and written by MemoryLog.
  changesSince(seq: number): Promise<ChangeRecord[]> {
    return this.log.changesSince(seq);
  }

  pruneChanges(throughSeq: number): Promise<void> {
    return this.log.pruneChanges(throughSeq);
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

  putSnapshot(input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    return this.log.putSnapshot(input, signal);
  }

  snapshot(name: string): Promise<Snapshot | undefined> {
    return this.log.snapshot(name);
  }

  snapshotInto<S extends SnapshotSink>(
    name: string,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    return this.log.snapshotInto(name, open);
  }

  deleteSnapshot(name: string): Promise<void> {
    return this.log.deleteSnapshot(name);
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
