// verify() for the Deno KV store: the invariants every store keeps (verify.ts), and that each index
// entry is there for its record and none for a record that is gone.

import type { SnapshotHeader } from '../snapshot/snapshot-format.js';
import type { ChangeRecord, NodeRecord, RelationRecord, Store, StoreMeta, VectorRecord } from '../store.js';
import { findProblems } from '../verify.js';
import { listAll } from './kv-batches.js';
import type { DenoKv, KvKey } from './kv-handle.js';
import type { KvMeta } from './kv-journal.js';
import type { KvKeys } from './kv-keys.js';

async function collect<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const batch of batches) all.push(...batch);
  return all;
}

/** Every problem the store at `k` has; `store` reads its records. */
export async function kvProblems(
  kv: DenoKv,
  k: KvKeys,
  store: Pick<Store, 'scan'>,
  meta: StoreMeta,
  changes: ChangeRecord[],
): Promise<string[]> {
  const nodes = await collect(store.scan('nodes'));
  const vectors = await collect(store.scan('vectors'));
  const relations = await collect(store.scan('relations'));
  const snapshots = (await listAll<SnapshotHeader>(kv, { prefix: k.snapshots() })).map((e) => e.value);
  const chunkIds = new Map<string, [string, string, number]>();
  for (const { key } of await listAll(kv, { prefix: k.snapshotPieces() })) {
    const [name, generation, index] = key.slice(-4, -1) as [string, string, number];
    chunkIds.set(`${name}\u0000${generation}\u0000${index}`, [name, generation, index]);
  }
  const problems = findProblems({
    state: meta,
    nodes,
    vectors,
    postings: await collect(store.scan('postings')),
    relations,
    changes,
    snapshots,
    chunkIds: [...chunkIds.values()],
  });
  problems.push(...(await indexProblems(kv, k, nodes, vectors, relations)));
  const { value } = await kv.get<KvMeta>(k.meta());
  if (value?.applying) problems.push(`commit ${value.seq} is published and not yet applied`);
  return problems;
}

async function indexProblems(
  kv: DenoKv,
  k: KvKeys,
  nodes: NodeRecord[],
  vectors: VectorRecord[],
  relations: RelationRecord[],
): Promise<string[]> {
  const want = new Set<string>();
  const id = (key: KvKey) => JSON.stringify(key);
  for (const n of nodes) {
    want.add(id(k.nodeByKey(n.key)));
    if (n.parent !== null) want.add(id(k.nodeByParent(n.parent, n.uri)));
  }
  for (const v of vectors) want.add(id(k.vectorByNode(v.nodeKey, v.key)));
  for (const r of relations) want.add(id(k.relationByTo(r.to, r.from)));
  const problems: string[] = [];
  const byKey = new Map(nodes.map((n) => [n.key, n.uri]));
  for (const prefix of [
    [k.prefix, 'node-by-key'],
    [k.prefix, 'node-by-parent'],
    [k.prefix, 'vector-by-node'],
    [k.prefix, 'relation-by-to'],
  ]) {
    for (const { key, value } of await listAll(kv, { prefix })) {
      const at = id(key);
      if (!want.delete(at)) problems.push(`index entry ${at} has no record`);
      else if (key[1] === 'node-by-key' && byKey.get(key[2] as number) !== value) {
        problems.push(`index entry ${at} names ${String(value)}`);
      }
    }
  }
  for (const missing of want) problems.push(`index entry ${missing} is missing`);
  return problems;
}
