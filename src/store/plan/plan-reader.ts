// The planner's reads of the store, memoised: planning a commit asks about the same node several
// times, and reads asked for together share one request (docs/internals/store.md).

import type { EmbedderInfo, NodeRecord, RelationKey, VectorRecord } from '../store.js';

/** The mutable part of a store's metadata, kept as one record. */
export interface StoreState {
  seq: number;
  nextKey: number;
  embedder?: EmbedderInfo;
}

/** Point reads the planner needs, answered from the state before the batch. */
export interface PlanReader {
  state(): Promise<StoreState>;
  node(uri: string): Promise<NodeRecord | undefined>;
  nodeByKey(key: number): Promise<NodeRecord | undefined>;
  childUris(uri: string): Promise<string[]>;
  vector(key: number): Promise<VectorRecord | undefined>;
  vectorsOfNode(nodeKey: number): Promise<VectorRecord[]>;
  hasPosting(key: number): Promise<boolean>;
  relationKeysOf(uri: string): Promise<RelationKey[]>;
  /**
   * Every record keyed in [lo, hi] at once: nodes by key, vectors by key and by node key, posting
   * keys. Optional: where a read is a round trip (IndexedDB), four range reads replace a few point
   * reads a key, since the keys a commit writes come from one allocation and lie close together.
   */
  keyRange?(lo: number, hi: number): Promise<KeyRangeRecords>;
}

/** What {@link PlanReader.keyRange} finds; every list in key order. */
export interface KeyRangeRecords {
  nodes: NodeRecord[];
  vectors: VectorRecord[];
  /** The vectors whose node key is in the range, by node key, then key. */
  vectorsOfNodes: VectorRecord[];
  postingKeys: number[];
}

export type CachedReader = ReturnType<typeof cachedReader>;

/** Memoises point reads: the planner asks about the same node several times. */
export function cachedReader(reader: PlanReader, checkpoint: () => void) {
  // The read itself is kept, not its value: reads asked for together share one request.
  const memo = <K, V>(load: (k: K) => Promise<V>) => {
    const cache = new Map<K, Promise<V>>();
    const read = async (k: K): Promise<V> => {
      let value = cache.get(k);
      if (!value) {
        value = load(k);
        cache.set(k, value);
      }
      const result = await value;
      checkpoint();
      return result;
    };
    const known = (k: K, value: V) => {
      if (!cache.has(k)) cache.set(k, Promise.resolve(value));
    };
    return Object.assign(read, { known });
  };
  const nodeByKey = memo((key: number) => reader.nodeByKey(key));
  const vector = memo((key: number) => reader.vector(key));
  const vectorsOfNode = memo((key: number) => reader.vectorsOfNode(key));
  const hasPosting = memo((key: number) => reader.hasPosting(key));
  return {
    node: memo((uri: string) => reader.node(uri)),
    nodeByKey,
    childUris: memo((uri: string) => reader.childUris(uri)),
    vector,
    vectorsOfNode,
    hasPosting,
    /** Reads what these keys hold at once, by range, when the reader can and they lie close together. */
    async keys(keys: readonly number[]): Promise<void> {
      if (!reader.keyRange || keys.length === 0) return;
      let lo = keys[0]!;
      let hi = lo;
      for (const key of keys) {
        if (key < lo) lo = key;
        if (key > hi) hi = key;
      }
      // Sparse keys would read records the commit never asks about.
      if (hi - lo + 1 > 4 * keys.length) return;
      const found = await reader.keyRange(lo, hi);
      checkpoint();
      const nodes = new Map(found.nodes.map((n) => [n.key, n]));
      const vectors = new Map(found.vectors.map((v) => [v.key, v]));
      const postings = new Set(found.postingKeys);
      const ofNodes = new Map<number, VectorRecord[]>();
      for (const v of found.vectorsOfNodes) {
        const list = ofNodes.get(v.nodeKey);
        if (list) list.push(v);
        else ofNodes.set(v.nodeKey, [v]);
      }
      for (let key = lo; key <= hi; key++) {
        nodeByKey.known(key, nodes.get(key));
        vector.known(key, vectors.get(key));
        vectorsOfNode.known(key, ofNodes.get(key) ?? []);
        hasPosting.known(key, postings.has(key));
      }
    },
  };
}
