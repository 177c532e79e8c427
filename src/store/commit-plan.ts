// One planner for every Store: it reads what a batch touches (inside the writing transaction),
// refuses any batch that would leave the store failing verify(), and lists the exact writes and
// the change record. Sharing it is what makes MemoryStore and IdbStore agree on every batch.

import { LongshipError } from '../errors.js';
import { cloneAndCheckBatch } from './record-checks.js';
import type {
  ChangeRecord,
  CommittedChange,
  EmbedderInfo,
  NodeRecord,
  PostingRecord,
  RelationKey,
  RelationRecord,
  VectorRecord,
  WriteBatch,
} from './store.js';

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

/** The writes of one commit: apply the deletions, then the puts, then the change and the state. */
export interface CommitPlan {
  deleteNodes: string[];
  deleteVectors: number[];
  deletePostings: number[];
  deleteRelations: RelationKey[];
  putNodes: NodeRecord[];
  putVectors: VectorRecord[];
  putPostings: PostingRecord[];
  putRelations: RelationRecord[];
  change: ChangeRecord;
  state: StoreState;
}

/** What {@link Store.committed} answers for a plan once it is written: a copy, for `seq` only. */
export function lastCommitted(plan: CommitPlan): (seq: number) => CommittedChange | undefined {
  const { change, putNodes: nodes, putVectors: vectors, putPostings: postings } = plan;
  return (seq) => (seq === change.seq ? structuredClone({ change, nodes, vectors, postings }) : undefined);
}

/** A Map key for a relation; NUL cannot occur in a URI. */
export function relationId(relation: RelationKey): string {
  return `${relation.from}\u0000${relation.to}`;
}

/** A child's URI is its parent's, a '/', and a name without '/': so descendants are a prefix scan. */
export function isChildUri(uri: string, parent: string): boolean {
  return (
    uri.startsWith(`${parent}/`) && uri.length > parent.length + 1 && !uri.includes('/', parent.length + 1)
  );
}

function refuse(message: string): LongshipError {
  return new LongshipError('INVALID_ARGUMENT', message);
}

const sorted = (keys: Iterable<number>): number[] => [...new Set(keys)].sort((a, b) => a - b);

/**
 * Plans a commit. `checkpoint` runs after every read, so an aborted signal stops the plan there.
 *
 * @example
 * const plan = await planCommit(batch, readerOverTransaction(tx), () => signal?.throwIfAborted());
 */
export async function planCommit(
  batch: WriteBatch,
  reader: PlanReader,
  checkpoint: () => void,
): Promise<CommitPlan> {
  const b = cloneAndCheckBatch(batch);
  const state = await reader.state();
  checkpoint();
  const read = cachedReader(reader, checkpoint);
  checkKeysAllocated(b, state);
  checkDimensions(b.putVectors, state.embedder);
  for (const { uri, key } of b.requireNodes) {
    if ((await read.node(uri))?.key !== key)
      throw new LongshipError('NOT_FOUND', `${uri} was removed or replaced since this write read it`);
  }

  const goneNodes = new Map<string, NodeRecord>();
  const goneVectors = new Map<number, VectorRecord>();
  const gonePostings = new Set<number>();
  const goneRelations = new Map<string, RelationKey>();

  for (const uri of b.deleteNodes) {
    const node = await read.node(uri);
    if (!node || goneNodes.has(uri)) continue;
    goneNodes.set(uri, node);
    for (const v of await read.vectorsOfNode(node.key)) goneVectors.set(v.key, v);
    if (await read.hasPosting(node.key)) gonePostings.add(node.key);
    for (const r of await reader.relationKeysOf(uri)) goneRelations.set(relationId(r), r);
    checkpoint();
  }
  for (const nodeKey of b.deleteVectorsOfNodes) {
    for (const v of await read.vectorsOfNode(nodeKey)) goneVectors.set(v.key, v);
  }
  const explicitPostingDeletes = new Set<number>();
  for (const key of b.deletePostings) {
    if (await read.hasPosting(key)) {
      gonePostings.add(key);
      explicitPostingDeletes.add(key);
    }
  }
  for (const r of b.deleteRelations) goneRelations.set(relationId(r), { from: r.from, to: r.to });

  // Puts: the last record for a key wins.
  const putNodes = new Map(b.putNodes.map((n) => [n.uri, n]));
  const putVectors = new Map(b.putVectors.map((v) => [v.key, v]));
  const putPostings = new Map(b.putPostings.map((p) => [p.key, p]));
  const putRelations = new Map(b.putRelations.map((r) => [relationId(r), r]));
  const putNodeKeys = new Map<number, string>();

  const storedUnlessGone = async (uri: string) => (goneNodes.has(uri) ? undefined : read.node(uri));
  const existsAfter = async (uri: string) => putNodes.has(uri) || (await storedUnlessGone(uri)) !== undefined;
  const keyExistsAfter = async (key: number) => {
    if (putNodeKeys.has(key)) return true;
    const node = await read.nodeByKey(key);
    return node !== undefined && !goneNodes.has(node.uri);
  };

  // The point reads the checks below make one after another, asked for all at once first: where each
  // read is a round trip (IndexedDB in a browser: ~5 a document), they then come back as one stream.
  // Those by key come from a few range reads where the keys lie close together, as ingestion's do.
  await Promise.all([
    read.keys([
      ...[...putNodes.values()].map((n) => n.key),
      ...[...putVectors.values()].flatMap((v) => [v.key, v.nodeKey]),
      ...putPostings.keys(),
    ]),
    ...[...putNodes.values()].flatMap((n) => [
      read.node(n.uri),
      ...(n.parent === null ? [] : [read.node(n.parent)]),
    ]),
  ]);
  await Promise.all([
    ...[...putNodes.values()].flatMap((n) => [read.nodeByKey(n.key), read.hasPosting(n.key)]),
    ...[...putVectors.values()].flatMap((v) => [
      read.vector(v.key),
      read.nodeByKey(v.nodeKey),
      read.vectorsOfNode(v.nodeKey),
    ]),
    ...[...putPostings.values()].flatMap((p) => [read.hasPosting(p.key), read.nodeByKey(p.key)]),
  ]);

  // A use bumps the node as this transaction sees it: read here, never by the caller beforehand.
  for (const use of b.useNodes) {
    const node = putNodes.get(use.uri) ?? (await storedUnlessGone(use.uri));
    if (node) putNodes.set(use.uri, { ...node, useCount: node.useCount + 1, lastUsedAt: use.at });
  }

  for (const node of putNodes.values()) {
    const other = putNodeKeys.get(node.key);
    if (other !== undefined) throw refuse(`key ${node.key} is given to both ${other} and ${node.uri}`);
    putNodeKeys.set(node.key, node.uri);
    const existing = await storedUnlessGone(node.uri);
    if (existing && existing.key !== node.key) {
      throw refuse(
        `${node.uri} has key ${existing.key}, not ${node.key}: delete it first to give it a new key`,
      );
    }
    const owner = await read.nodeByKey(node.key);
    if (owner && owner.uri !== node.uri && !goneNodes.has(owner.uri)) {
      throw refuse(`key ${node.key} already belongs to ${owner.uri}`);
    }
  }

  const replacedNodes: number[] = [];
  for (const node of putNodes.values()) if (await storedUnlessGone(node.uri)) replacedNodes.push(node.key);

  const replacedVectors: VectorRecord[] = [];
  for (const vector of putVectors.values()) {
    const existing = await read.vector(vector.key);
    if (!existing || goneVectors.has(vector.key)) continue;
    if (existing.nodeKey !== vector.nodeKey) {
      throw refuse(`vector key ${vector.key} belongs to node ${existing.nodeKey}, not ${vector.nodeKey}`);
    }
    replacedVectors.push(existing);
  }
  const replacedPostings: number[] = [];
  for (const posting of putPostings.values()) {
    if (!gonePostings.has(posting.key) && (await read.hasPosting(posting.key)))
      replacedPostings.push(posting.key);
  }

  // The state after the batch must pass verify(): check what the batch touched.
  for (const node of putNodes.values()) {
    if (node.parent !== null) {
      if (!isChildUri(node.uri, node.parent))
        throw refuse(`${node.uri} is not a direct child of ${node.parent}`);
      if (!(await existsAfter(node.parent)))
        throw refuse(`${node.uri}: parent ${node.parent} does not exist`);
    }
    if (!putPostings.has(node.key) && (gonePostings.has(node.key) || !(await read.hasPosting(node.key)))) {
      throw refuse(`${node.uri} has no posting: commit its lexical document with it`);
    }
  }
  for (const uri of goneNodes.keys()) {
    if (putNodes.has(uri)) continue;
    const stays = (await read.childUris(uri)).find((child) => {
      const moved = putNodes.get(child);
      return moved ? moved.parent === uri : !goneNodes.has(child);
    });
    const added = [...putNodes.values()].find((n) => n.parent === uri);
    const child = stays ?? added?.uri;
    if (child !== undefined) throw refuse(`cannot delete ${uri}: ${child} is still under it`);
  }
  for (const key of explicitPostingDeletes) {
    if (!putPostings.has(key) && (await keyExistsAfter(key)))
      throw refuse(`node ${key} would lose its posting`);
  }
  for (const posting of putPostings.values()) {
    if (!(await keyExistsAfter(posting.key))) throw refuse(`posting ${posting.key}: no node has that key`);
  }
  const touchedNodeKeys = new Set<number>();
  for (const vector of putVectors.values()) {
    if (!(await keyExistsAfter(vector.nodeKey)))
      throw refuse(`vector ${vector.key}: no node has key ${vector.nodeKey}`);
    touchedNodeKeys.add(vector.nodeKey);
  }
  for (const { nodeKey } of goneVectors.values()) touchedNodeKeys.add(nodeKey);
  for (const nodeKey of touchedNodeKeys) {
    if (!(await keyExistsAfter(nodeKey))) continue;
    const chunks = (await read.vectorsOfNode(nodeKey))
      .filter((v) => !goneVectors.has(v.key) && !putVectors.has(v.key))
      .map((v) => v.chunk);
    for (const v of putVectors.values()) if (v.nodeKey === nodeKey) chunks.push(v.chunk);
    chunks.sort((x, y) => x - y);
    if (chunks.some((chunk, i) => chunk !== i)) {
      throw refuse(
        `node ${nodeKey} would have chunks [${chunks.join(', ')}]: they must run 0..n-1 once each`,
      );
    }
  }
  for (const relation of putRelations.values()) {
    for (const end of [relation.from, relation.to]) {
      if (!(await existsAfter(end)))
        throw refuse(`relation ${relation.from} -> ${relation.to}: ${end} does not exist`);
    }
  }
  checkpoint();

  const change: ChangeRecord = {
    seq: state.seq + 1,
    addedNodeKeys: sorted(putNodeKeys.keys()),
    removedNodeKeys: sorted([...[...goneNodes.values()].map((n) => n.key), ...replacedNodes]),
    addedVectorKeys: sorted(putVectors.keys()),
    removedVectorKeys: sorted([...goneVectors.keys(), ...replacedVectors.map((v) => v.key)]),
    removedVectors: [...goneVectors.values(), ...replacedVectors].sort((a, b) => a.key - b.key),
    addedPostingKeys: sorted(putPostings.keys()),
    removedPostingKeys: sorted([...gonePostings, ...replacedPostings]),
  };
  return {
    deleteNodes: [...goneNodes.keys()],
    deleteVectors: [...goneVectors.keys()],
    deletePostings: [...gonePostings],
    deleteRelations: [...goneRelations.values()],
    putNodes: [...putNodes.values()],
    putVectors: [...putVectors.values()],
    putPostings: [...putPostings.values()],
    putRelations: [...putRelations.values()],
    change,
    state: { ...state, seq: change.seq },
  };
}

/** The change an embedder reset logs: every vector gone, nothing else. */
export function vectorsDropped(seq: number, removedVectorKeys: number[]): ChangeRecord {
  return {
    seq,
    addedNodeKeys: [],
    removedNodeKeys: [],
    addedVectorKeys: [],
    removedVectorKeys,
    addedPostingKeys: [],
    removedPostingKeys: [],
  };
}

function checkKeysAllocated(b: Required<WriteBatch>, state: StoreState): void {
  // A key at or past nextKey was never handed out: a later allocateKeys() would hand it out again.
  const keys = [...b.putNodes.map((n) => n.key), ...b.putVectors.map((v) => v.key)];
  const bad = keys.find((key) => key >= state.nextKey);
  if (bad !== undefined) throw refuse(`key ${bad} was not allocated: call allocateKeys() first`);
}

function checkDimensions(vectors: readonly VectorRecord[], embedder: EmbedderInfo | undefined): void {
  if (vectors.length === 0) return;
  if (!embedder) throw refuse('record an embedder (useEmbedder) before writing vectors');
  for (const v of vectors) {
    if (v.vector.length !== embedder.dimensions) {
      throw new LongshipError(
        'DIMENSION_MISMATCH',
        `vector ${v.key} has ${v.vector.length} dimensions; embedder ${embedder.id} has ${embedder.dimensions}`,
      );
    }
  }
}

/** Memoises point reads: the planner asks about the same node several times. */
function cachedReader(reader: PlanReader, checkpoint: () => void) {
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
