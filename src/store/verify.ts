// verify() for every Store: given the whole store read at one instant, list every broken invariant.
// commit() refuses batches that would break one, so a problem here means a bug or outside damage.

import { relationId } from './plan/commit-plan.js';
import type { StoreState } from './plan/plan-reader.js';
import { isChildUri } from './plan/planning.js';
import type { SnapshotHeader } from './snapshot/snapshot-format.js';
import type { ChangeRecord, NodeRecord, PostingRecord, RelationRecord, VectorRecord } from './store.js';

export interface StoreDump {
  state: StoreState;
  nodes: NodeRecord[];
  vectors: VectorRecord[];
  postings: PostingRecord[];
  relations: RelationRecord[];
  changes: ChangeRecord[];
  snapshots: SnapshotHeader[];
  /** [name, generation, index] of every stored snapshot chunk. */
  chunkIds: Array<[string, string, number]>;
}

/**
 * Every invariant a consistent store keeps, as readable problems (empty when all hold).
 *
 * @example
 * const problems = findProblems(await readEverything());
 */
export function findProblems(dump: StoreDump): string[] {
  const problems: string[] = [];
  const { state } = dump;
  const byUri = new Map(dump.nodes.map((n) => [n.uri, n]));
  const byKey = new Map<number, NodeRecord>();
  for (const node of dump.nodes) {
    const other = byKey.get(node.key);
    if (other) problems.push(`nodes ${other.uri} and ${node.uri} share key ${node.key}`);
    byKey.set(node.key, node);
    if (node.key >= state.nextKey) problems.push(`node ${node.uri} has key ${node.key}, never allocated`);
    if (node.parent !== null) {
      const parent = byUri.get(node.parent);
      if (!parent) problems.push(`node ${node.uri}: parent ${node.parent} is missing`);
      else if (parent.kind !== 'dir') problems.push(`node ${node.uri}: parent ${node.parent} is a file`);
      if (!isChildUri(node.uri, node.parent))
        problems.push(`node ${node.uri} is not a direct child of ${node.parent}`);
    }
  }

  const postingKeys = new Set(dump.postings.map((p) => p.key));
  for (const node of dump.nodes) {
    if (!postingKeys.has(node.key)) problems.push(`node ${node.uri} has no posting`);
  }
  for (const key of postingKeys) {
    if (!byKey.has(key)) problems.push(`orphan posting ${key}: no node has that key`);
  }

  const chunksOf = new Map<number, number[]>();
  for (const v of dump.vectors) {
    if (!byKey.has(v.nodeKey)) problems.push(`orphan vector ${v.key}: no node has key ${v.nodeKey}`);
    if (v.key >= state.nextKey) problems.push(`vector ${v.key} has a key never allocated`);
    if (!(v.vector instanceof Float32Array)) problems.push(`vector ${v.key} is not a Float32Array`);
    else if (!state.embedder) problems.push(`vector ${v.key} stored without a recorded embedder`);
    else if (v.vector.length !== state.embedder.dimensions) {
      problems.push(`vector ${v.key} has ${v.vector.length} dimensions, not ${state.embedder.dimensions}`);
    }
    const chunks = chunksOf.get(v.nodeKey) ?? [];
    chunks.push(v.chunk);
    chunksOf.set(v.nodeKey, chunks);
  }
  for (const [nodeKey, chunks] of chunksOf) {
    chunks.sort((a, b) => a - b);
    if (chunks.some((c, i) => c !== i)) {
      problems.push(`node ${nodeKey} has chunks [${chunks.join(', ')}], not 0..${chunks.length - 1}`);
    }
  }

  for (const r of dump.relations) {
    for (const end of [r.from, r.to]) {
      if (!byUri.has(end)) problems.push(`orphan relation ${r.from} -> ${r.to}: ${end} is missing`);
    }
  }
  const seenRelations = new Set(dump.relations.map(relationId));
  if (seenRelations.size !== dump.relations.length) problems.push('duplicate relations');

  let previous = 0;
  for (const change of dump.changes) {
    if (!(change.seq > previous)) problems.push(`change log out of order at seq ${change.seq}`);
    previous = change.seq;
  }
  if (previous > state.seq) problems.push(`change ${previous} is past the last committed seq ${state.seq}`);

  const chunkIds = new Set(
    dump.chunkIds.map(([name, generation, index]) => `${name}\u0000${generation}\u0000${index}`),
  );
  for (const s of dump.snapshots) {
    if (s.seq > state.seq) problems.push(`snapshot ${s.name} covers seq ${s.seq}, past ${state.seq}`);
    for (let i = 0; i < s.chunkCount; i++) {
      if (!chunkIds.has(`${s.name}\u0000${s.generation}\u0000${i}`)) {
        problems.push(`snapshot ${s.name} is missing chunk ${i}`);
      }
    }
  }
  return problems;
}
