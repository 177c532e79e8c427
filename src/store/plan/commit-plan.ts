// One planner for every Store: it reads what a batch touches (inside the writing transaction),
// refuses any batch that would leave the store failing verify(), and lists the exact writes and
// the change record. Sharing it is what makes MemoryStore and IdbStore agree on every batch.

import { LongshipError } from '../../errors.js';
import type { ChangeRecord, CommittedChange, RelationKey, StoreWrites, WriteBatch } from '../store.js';
import { checkDimensions, checkKeysAllocated, checkTreeAfter, checkVectorsAfter } from './plan-checks.js';
import { type CachedReader, cachedReader, type PlanReader, type StoreState } from './plan-reader.js';
import { type PlannedDeletions, type PlannedPuts, Planning } from './planning.js';
import { cloneAndCheckBatch } from './record-checks.js';

/** The writes of one commit, and the store's state after them (the IndexedDB and file stores keep it whole). */
export interface CommitPlan extends StoreWrites {
  state: StoreState;
}

/** What `committed(seq)` answers for a plan once it is written: a copy, for `seq` only. */
export function lastCommitted(plan: StoreWrites): (seq: number) => CommittedChange | undefined {
  const { change, putNodes: nodes, putVectors: vectors, putPostings: postings } = plan;
  return (seq) => (seq === change.seq ? structuredClone({ change, nodes, vectors, postings }) : undefined);
}

/** A Map key for a relation; NUL cannot occur in a URI. */
export function relationId(relation: RelationKey): string {
  return `${relation.from}\u0000${relation.to}`;
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
  const gone = await findDeletions(b, read, reader, checkpoint);
  // Puts: the last record for a key wins.
  const put: PlannedPuts = {
    nodes: new Map(b.putNodes.map((n) => [n.uri, n])),
    vectors: new Map(b.putVectors.map((v) => [v.key, v])),
    postings: new Map(b.putPostings.map((p) => [p.key, p])),
    relations: new Map(b.putRelations.map((r) => [relationId(r), r])),
    nodeKeys: new Map(),
  };
  const plan = new Planning(read, gone, put);
  await prefetch(read, put);
  await plan.applyUses(b.useNodes);
  await plan.checkNodeKeys();
  const replaced = await plan.replaced();
  // The state after the batch must pass verify(): check what the batch touched.
  await checkTreeAfter(plan);
  await checkVectorsAfter(plan);
  checkpoint();

  const change: ChangeRecord = {
    seq: state.seq + 1,
    addedNodeKeys: sorted(put.nodeKeys.keys()),
    removedNodeKeys: sorted([...[...gone.nodes.values()].map((n) => n.key), ...replaced.nodes]),
    addedVectorKeys: sorted(put.vectors.keys()),
    removedVectorKeys: sorted([...gone.vectors.keys(), ...replaced.vectors.map((v) => v.key)]),
    removedVectors: [...gone.vectors.values(), ...replaced.vectors].sort((a, b) => a.key - b.key),
    addedPostingKeys: sorted(put.postings.keys()),
    removedPostingKeys: sorted([...gone.postings, ...replaced.postings]),
  };
  return {
    deleteNodes: [...gone.nodes.keys()],
    deleteVectors: [...gone.vectors.keys()],
    deletePostings: [...gone.postings],
    deleteRelations: [...gone.relations.values()],
    putNodes: [...put.nodes.values()],
    putVectors: [...put.vectors.values()],
    putPostings: [...put.postings.values()],
    putRelations: [...put.relations.values()],
    change,
    state: { ...state, seq: change.seq },
  };
}

/** What the batch deletes, as the store holds it: nodes with their vectors, postings and relations. */
async function findDeletions(
  b: Required<WriteBatch>,
  read: CachedReader,
  reader: PlanReader,
  checkpoint: () => void,
): Promise<PlannedDeletions> {
  const gone: PlannedDeletions = {
    nodes: new Map(),
    vectors: new Map(),
    postings: new Set(),
    relations: new Map(),
    explicitPostings: new Set(),
  };
  for (const uri of b.deleteNodes) {
    const node = await read.node(uri);
    if (!node || gone.nodes.has(uri)) continue;
    gone.nodes.set(uri, node);
    for (const v of await read.vectorsOfNode(node.key)) gone.vectors.set(v.key, v);
    if (await read.hasPosting(node.key)) gone.postings.add(node.key);
    for (const r of await reader.relationKeysOf(uri)) gone.relations.set(relationId(r), r);
    checkpoint();
  }
  for (const nodeKey of b.deleteVectorsOfNodes) {
    for (const v of await read.vectorsOfNode(nodeKey)) gone.vectors.set(v.key, v);
  }
  for (const key of b.deletePostings) {
    if (await read.hasPosting(key)) {
      gone.postings.add(key);
      gone.explicitPostings.add(key);
    }
  }
  for (const r of b.deleteRelations) gone.relations.set(relationId(r), { from: r.from, to: r.to });
  return gone;
}

/**
 * The point reads the checks make one after another, asked for all at once first: where each read
 * is a round trip (IndexedDB in a browser: ~5 a document), they then come back as one stream. Those
 * by key come from a few range reads where the keys lie close together, as ingestion's do.
 */
async function prefetch(read: CachedReader, put: PlannedPuts): Promise<void> {
  await Promise.all([
    read.keys([
      ...[...put.nodes.values()].map((n) => n.key),
      ...[...put.vectors.values()].flatMap((v) => [v.key, v.nodeKey]),
      ...put.postings.keys(),
    ]),
    ...[...put.nodes.values()].flatMap((n) => [
      read.node(n.uri),
      ...(n.parent === null ? [] : [read.node(n.parent)]),
    ]),
  ]);
  await Promise.all([
    ...[...put.nodes.values()].flatMap((n) => [read.nodeByKey(n.key), read.hasPosting(n.key)]),
    ...[...put.vectors.values()].flatMap((v) => [
      read.vector(v.key),
      read.nodeByKey(v.nodeKey),
      read.vectorsOfNode(v.nodeKey),
    ]),
    ...[...put.postings.values()].flatMap((p) => [read.hasPosting(p.key), read.nodeByKey(p.key)]),
  ]);
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

/** Writes that delete these vectors and change nothing else: an embedder reset's. */
export function vectorWipe(seq: number, removedVectorKeys: number[]): StoreWrites {
  return {
    deleteNodes: [],
    deleteVectors: removedVectorKeys,
    deletePostings: [],
    deleteRelations: [],
    putNodes: [],
    putVectors: [],
    putPostings: [],
    putRelations: [],
    change: vectorsDropped(seq, removedVectorKeys),
  };
}
