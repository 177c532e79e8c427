// The planner's checks: a batch is refused unless the store after it would pass verify(); only
// what the batch touched is checked (docs/internals/store.md).

import { LongshipError } from '../../errors.js';
import type { EmbedderInfo, VectorRecord, WriteBatch } from '../store.js';
import type { StoreState } from './plan-reader.js';
import { isChildUri, type Planning, refuse } from './planning.js';

export function checkKeysAllocated(b: Required<WriteBatch>, state: StoreState): void {
  // A key at or past nextKey was never handed out: a later allocateKeys() would hand it out again.
  const keys = [...b.putNodes.map((n) => n.key), ...b.putVectors.map((v) => v.key)];
  const bad = keys.find((key) => key >= state.nextKey);
  if (bad !== undefined) throw refuse(`key ${bad} was not allocated: call allocateKeys() first`);
}

export function checkDimensions(vectors: readonly VectorRecord[], embedder: EmbedderInfo | undefined): void {
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

/** Every put node under an existing parent and with its posting; nothing left under a deleted node. */
export async function checkTreeAfter(plan: Planning): Promise<void> {
  const { put, gone, read } = plan;
  for (const node of put.nodes.values()) {
    if (node.parent !== null) {
      if (!isChildUri(node.uri, node.parent))
        throw refuse(`${node.uri} is not a direct child of ${node.parent}`);
      if (!(await plan.existsAfter(node.parent)))
        throw refuse(`${node.uri}: parent ${node.parent} does not exist`);
    }
    if (!put.postings.has(node.key) && (gone.postings.has(node.key) || !(await read.hasPosting(node.key)))) {
      throw refuse(`${node.uri} has no posting: commit its lexical document with it`);
    }
  }
  for (const uri of gone.nodes.keys()) {
    if (put.nodes.has(uri)) continue;
    const stays = (await read.childUris(uri)).find((child) => {
      const moved = put.nodes.get(child);
      return moved ? moved.parent === uri : !gone.nodes.has(child);
    });
    const added = [...put.nodes.values()].find((n) => n.parent === uri);
    const child = stays ?? added?.uri;
    if (child !== undefined) throw refuse(`cannot delete ${uri}: ${child} is still under it`);
  }
  for (const key of gone.explicitPostings) {
    if (!put.postings.has(key) && (await plan.keyExistsAfter(key)))
      throw refuse(`node ${key} would lose its posting`);
  }
  for (const posting of put.postings.values()) {
    if (!(await plan.keyExistsAfter(posting.key)))
      throw refuse(`posting ${posting.key}: no node has that key`);
  }
  for (const relation of put.relations.values()) {
    for (const end of [relation.from, relation.to]) {
      if (!(await plan.existsAfter(end)))
        throw refuse(`relation ${relation.from} -> ${relation.to}: ${end} does not exist`);
    }
  }
}

/** Every vector owned by a node that stays, and each node's chunks numbered 0..n-1 once each. */
export async function checkVectorsAfter(plan: Planning): Promise<void> {
  const { put, gone, read } = plan;
  const touchedNodeKeys = new Set<number>();
  for (const vector of put.vectors.values()) {
    if (!(await plan.keyExistsAfter(vector.nodeKey)))
      throw refuse(`vector ${vector.key}: no node has key ${vector.nodeKey}`);
    touchedNodeKeys.add(vector.nodeKey);
  }
  for (const { nodeKey } of gone.vectors.values()) touchedNodeKeys.add(nodeKey);
  for (const nodeKey of touchedNodeKeys) {
    if (!(await plan.keyExistsAfter(nodeKey))) continue;
    const chunks = (await read.vectorsOfNode(nodeKey))
      .filter((v) => !gone.vectors.has(v.key) && !put.vectors.has(v.key))
      .map((v) => v.chunk);
    for (const v of put.vectors.values()) if (v.nodeKey === nodeKey) chunks.push(v.chunk);
    chunks.sort((x, y) => x - y);
    if (chunks.some((chunk, i) => chunk !== i)) {
      throw refuse(
        `node ${nodeKey} would have chunks [${chunks.join(', ')}]: they must run 0..n-1 once each`,
      );
    }
  }
}
