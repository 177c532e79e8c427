// A Store.write as KV mutations: deletions, then puts, each record with its index entries and parts,
// then the change record. What a deletion must also remove (a node's index entries, the parts of a
// long text) is read first; the write's check of the meta key makes sure nothing changed meanwhile.

import type { NodeRecord, PostingRecord, StoreWrites } from '../store.js';
import { del, getValues, type Mutation, set } from './kv-batches.js';
import type { DenoKv } from './kv-handle.js';
import type { KvKeys } from './kv-keys.js';
import { encodeChange, encodeVector, partKeys, type StoredRecord, splitRecord } from './kv-values.js';

/** The mutations that make `writes`, in order; the meta key is the caller's. */
export async function mutationsOf(kv: DenoKv, k: KvKeys, writes: StoreWrites): Promise<Mutation[]> {
  const nodeUris = [...new Set([...writes.deleteNodes, ...writes.putNodes.map((n) => n.uri)])];
  const postingKeys = [...new Set([...writes.deletePostings, ...writes.putPostings.map((p) => p.key)])];
  const vectorKeys = [...new Set([...writes.deleteVectors, ...writes.putVectors.map((v) => v.key)])];
  const [nodes, postings, vectors] = await Promise.all([
    getValues(kv, nodeUris.map(k.node)),
    getValues(kv, postingKeys.map(k.posting)),
    getValues(kv, vectorKeys.map(k.vector)),
  ]);
  const out: Mutation[] = [];
  // What was there goes first, index entries and parts with it, whether deleted or replaced.
  nodeUris.forEach((uri, i) => {
    const old = nodes[i] as StoredRecord<NodeRecord> | null;
    if (!old) return;
    out.push(del(k.node(uri)), del(k.nodeByKey(old.record.key)));
    if (old.record.parent !== null) out.push(del(k.nodeByParent(old.record.parent, uri)));
    for (const key of partKeys(old, k.nodePart(uri))) out.push(del(key));
  });
  postingKeys.forEach((key, i) => {
    const old = postings[i] as StoredRecord<PostingRecord> | null;
    if (!old) return;
    out.push(del(k.posting(key)));
    for (const part of partKeys(old, k.postingPart(key))) out.push(del(part));
  });
  vectorKeys.forEach((key, i) => {
    const old = vectors[i] as Uint8Array | null;
    if (!old) return;
    const nodeKey = new DataView(old.buffer, old.byteOffset, old.byteLength).getFloat64(0, true);
    out.push(del(k.vector(key)), del(k.vectorByNode(nodeKey, key)));
  });
  for (const { from, to } of writes.deleteRelations)
    out.push(del(k.relation(from, to)), del(k.relationByTo(to, from)));
  for (const node of writes.putNodes) {
    const { stored, parts } = splitRecord(node, k.nodePart(node.uri));
    out.push(set(k.node(node.uri), stored), set(k.nodeByKey(node.key), node.uri));
    if (node.parent !== null) out.push(set(k.nodeByParent(node.parent, node.uri), true));
    for (const [key, text] of parts) out.push(set(key, text));
  }
  for (const posting of writes.putPostings) {
    const { stored, parts } = splitRecord(posting, k.postingPart(posting.key));
    out.push(set(k.posting(posting.key), stored));
    for (const [key, text] of parts) out.push(set(key, text));
  }
  for (const v of writes.putVectors) {
    out.push(set(k.vector(v.key), encodeVector(v)), set(k.vectorByNode(v.nodeKey, v.key), true));
  }
  for (const r of writes.putRelations) {
    out.push(set(k.relation(r.from, r.to), { ...r }), set(k.relationByTo(r.to, r.from), true));
  }
  for (const [i, bytes] of encodeChange(writes.change).entries())
    out.push(set(k.change(writes.change.seq, i), bytes));
  return out;
}
