// The tables behind a MemoryStore, kept apart from the store so that closing a MemoryStore and
// opening another on the same data behaves like reopening a database. Records are stored as
// private copies; the maps are public only so tests can plant damage for verify() to find
// (call reindex() after editing them by hand).

import { SerialQueue } from '../../serial-queue.js';
import { relationId, vectorsDropped } from '../plan/commit-plan.js';
import type { PlanReader, StoreState } from '../plan/plan-reader.js';
import type { SnapshotChunk, SnapshotHeader } from '../snapshot/snapshot-format.js';
import type {
  ChangeRecord,
  NodeRecord,
  PostingRecord,
  RelationKey,
  RelationRecord,
  StoreWrites,
  VectorRecord,
} from '../store.js';

/** The Map key of a snapshot chunk. */
export function chunkId(name: string, generation: string, index: number): string {
  return `${name}\u0000${generation}\u0000${index}`;
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  set?.delete(value);
  if (set?.size === 0) map.delete(key);
}

/**
 * In-memory tables with the secondary indexes IndexedDB would keep.
 *
 * @example
 * const data = new MemoryData();
 * const store = await openMemoryStore({ data });
 */
export class MemoryData {
  readonly nodes = new Map<string, NodeRecord>();
  readonly vectors = new Map<number, VectorRecord>();
  readonly postings = new Map<number, PostingRecord>();
  readonly relations = new Map<string, RelationRecord>();
  readonly changes = new Map<number, ChangeRecord>();
  readonly snapshots = new Map<string, SnapshotHeader>();
  readonly snapshotChunks = new Map<string, SnapshotChunk>();
  // Keys start at 1: a key of 0 is too easily mistaken for "no key".
  state: StoreState = { seq: 0, nextKey: 1 };

  private readonly uriOfKey = new Map<number, string>();
  private readonly childrenOf = new Map<string, Set<string>>();
  private readonly vectorsOf = new Map<number, Set<number>>();
  private readonly relationsOf = new Map<string, Set<string>>();
  private readonly queue = new SerialQueue();

  /** Runs `task` after every earlier one has finished: commits plan against a state that holds still. */
  exclusive<T>(task: () => Promise<T> | T): Promise<T> {
    return this.queue.run(task);
  }

  /** Rebuilds the secondary indexes from the tables. */
  reindex(): void {
    this.uriOfKey.clear();
    this.childrenOf.clear();
    this.vectorsOf.clear();
    this.relationsOf.clear();
    for (const node of this.nodes.values()) this.indexNode(node);
    for (const v of this.vectors.values()) addTo(this.vectorsOf, v.nodeKey, v.key);
    for (const [id, r] of this.relations) this.indexRelation(id, r);
  }

  /** Empties every table. */
  clear(): void {
    for (const table of [this.nodes, this.vectors, this.postings, this.relations, this.changes])
      table.clear();
    this.snapshots.clear();
    this.snapshotChunks.clear();
    this.state = { seq: 0, nextKey: 1 };
    this.reindex();
  }

  nodeByKey(key: number): NodeRecord | undefined {
    const uri = this.uriOfKey.get(key);
    return uri === undefined ? undefined : this.nodes.get(uri);
  }

  childUris(uri: string): string[] {
    return [...(this.childrenOf.get(uri) ?? [])];
  }

  vectorsOfNode(nodeKey: number): VectorRecord[] {
    return [...(this.vectorsOf.get(nodeKey) ?? [])].map((key) => this.vectors.get(key)!);
  }

  relationsOfUri(uri: string): RelationRecord[] {
    return [...(this.relationsOf.get(uri) ?? [])].map((id) => this.relations.get(id)!);
  }

  /** Answers the planner from the tables as they are now. */
  reader(): PlanReader {
    return {
      state: async () => structuredClone(this.state),
      node: async (uri) => this.nodes.get(uri),
      nodeByKey: async (key) => this.nodeByKey(key),
      childUris: async (uri) => this.childUris(uri),
      vector: async (key) => this.vectors.get(key),
      vectorsOfNode: async (nodeKey) => this.vectorsOfNode(nodeKey),
      hasPosting: async (key) => this.postings.has(key),
      relationKeysOf: async (uri) => this.relationsOfUri(uri).map(({ from, to }) => ({ from, to })),
    };
  }

  /**
   * Applies writes in one synchronous step: nothing can observe them half done. Records are kept as
   * they are given: the caller hands over copies.
   */
  apply(writes: StoreWrites): void {
    for (const uri of writes.deleteNodes) this.deleteNode(uri);
    for (const key of writes.deleteVectors) this.deleteVector(key);
    for (const key of writes.deletePostings) this.postings.delete(key);
    for (const r of writes.deleteRelations) this.deleteRelation(r);
    for (const node of writes.putNodes) {
      this.deleteNode(node.uri);
      this.nodes.set(node.uri, node);
      this.indexNode(node);
    }
    for (const v of writes.putVectors) {
      this.deleteVector(v.key);
      this.vectors.set(v.key, v);
      addTo(this.vectorsOf, v.nodeKey, v.key);
    }
    for (const p of writes.putPostings) this.postings.set(p.key, p);
    for (const r of writes.putRelations) {
      const id = relationId(r);
      this.relations.set(id, r);
      this.indexRelation(id, r);
    }
    this.changes.set(writes.change.seq, writes.change);
    // Only seq: nextKey may have moved on since the writes were planned.
    this.state.seq = writes.change.seq;
    if (writes.embedder)
      this.state.embedder = { id: writes.embedder.id, dimensions: writes.embedder.dimensions };
  }

  /** Deletes every vector, recording the removal as one change; returns its seq. */
  dropVectors(): number {
    const removed = [...this.vectors.keys()].sort((a, b) => a - b);
    this.vectors.clear();
    this.vectorsOf.clear();
    const seq = this.state.seq + 1;
    this.changes.set(seq, vectorsDropped(seq, removed));
    this.state.seq = seq;
    return seq;
  }

  private indexNode(node: NodeRecord): void {
    this.uriOfKey.set(node.key, node.uri);
    if (node.parent !== null) addTo(this.childrenOf, node.parent, node.uri);
  }

  private indexRelation(id: string, r: RelationKey): void {
    addTo(this.relationsOf, r.from, id);
    addTo(this.relationsOf, r.to, id);
  }

  private deleteNode(uri: string): void {
    const node = this.nodes.get(uri);
    if (!node) return;
    this.nodes.delete(uri);
    if (this.uriOfKey.get(node.key) === uri) this.uriOfKey.delete(node.key);
    if (node.parent !== null) removeFrom(this.childrenOf, node.parent, uri);
  }

  private deleteVector(key: number): void {
    const v = this.vectors.get(key);
    if (!v) return;
    this.vectors.delete(key);
    removeFrom(this.vectorsOf, v.nodeKey, key);
  }

  private deleteRelation(r: RelationKey): void {
    const id = relationId(r);
    if (!this.relations.delete(id)) return;
    removeFrom(this.relationsOf, r.from, id);
    removeFrom(this.relationsOf, r.to, id);
  }
}
