// The snapshot-and-replay protocol an engine follows (see src/store/store.ts), run with a toy
// index: a Map from vector key to its first component. Snapshot plus replay must equal a rebuild.

import { describe, expect, it } from 'vitest';
import type { FullStore } from '../../src/store/full-store.js';
import { EMBEDDER, merge, node, vector, withContent } from '../../src/testing/records.js';
import { R, seed } from '../../src/testing/sample-tree.js';
import { idbHarness, memoryHarness } from './harness.js';

type ToyIndex = Map<number, number>;

async function rebuild(store: FullStore): Promise<{ index: ToyIndex; applied: number }> {
  const { seq } = await store.meta();
  const index: ToyIndex = new Map();
  for await (const rows of store.scan('vectors', 2)) for (const v of rows) index.set(v.key, v.vector[0]!);
  return { index, applied: await replay(store, index, seq) };
}

async function replay(store: FullStore, index: ToyIndex, from: number): Promise<number> {
  let applied = from;
  for (const change of await store.changesSince(from)) {
    if (change.seq !== applied + 1) throw new Error(`gap after ${applied}: rebuild`);
    for (const key of [...change.removedVectorKeys, ...change.addedVectorKeys]) index.delete(key);
    for (const v of await store.vectors(change.addedVectorKeys)) index.set(v.key, v.vector[0]!);
    applied = change.seq;
  }
  return applied;
}

const encode = (index: ToyIndex) => new TextEncoder().encode(JSON.stringify([...index]));
const decode = (bytes: Uint8Array): ToyIndex => new Map(JSON.parse(new TextDecoder().decode(bytes)));

for (const [name, harness] of [
  ['MemoryStore', memoryHarness],
  ['IdbStore', () => idbHarness()],
] as const) {
  describe(`${name}: snapshot and replay`, () => {
    it('a snapshot plus the changes after it equals a rebuild from the stored vectors', async () => {
      const h = harness();
      let store = await h.open({ embedder: EMBEDDER });
      const k = await seed(store);
      const live = await rebuild(store);
      await store.putSnapshot({ name: 'toy', seq: live.applied, bytes: encode(live.index) });

      // Writes after the snapshot: a replaced vector, a deleted node, a new file.
      await store.commit({
        putVectors: [{ ...vector(k.vy, k.y, 0), vector: new Float32Array([99, 0, 0, 0]) }],
      });
      await store.commit({ deleteNodes: [`${R}/a/x`] });
      await store.commit(merge(withContent(node(`${R}/new`, k.free), [k.free + 1, k.free + 2])));
      await store.close();

      store = await h.open({ embedder: EMBEDDER });
      const snap = (await store.snapshot('toy'))!;
      const restored = decode(snap.bytes);
      const applied = await replay(store, restored, snap.seq);
      const rebuilt = await rebuild(store);
      expect(applied).toBe((await store.meta()).seq);
      expect([...restored].sort()).toEqual([...rebuilt.index].sort());
      expect(restored.get(k.vy)).toBe(99);
      expect(restored.has(k.vx[0]!)).toBe(false);

      // Pruning what the snapshot covers leaves exactly what it needs.
      await store.pruneChanges(snap.seq);
      expect((await store.changesSince(snap.seq)).map((c) => c.seq)).toEqual([
        snap.seq + 1,
        snap.seq + 2,
        snap.seq + 3,
      ]);
      await store.pruneChanges(snap.seq + 1);
      await expect(replay(store, decode(snap.bytes), snap.seq)).rejects.toThrow('gap');
    });

    it('committed() gives the last commit through this object as stored, a copy, and nothing else', async () => {
      const h = harness();
      const store = await h.open({ embedder: EMBEDDER });
      const k = await seed(store);
      const seq = await store.commit({
        ...merge(withContent(node(`${R}/new`, k.free), [k.free + 1, k.free + 2])),
        useNodes: [{ uri: `${R}/a/y`, at: 1234 }],
      });
      const own = store.committed!(seq)!;
      expect(own.change).toEqual((await store.changesSince(seq - 1))[0]);
      // The records as a read gives them, the use recorded included.
      const byKey = <T extends { key: number }>(rows: T[]) => [...rows].sort((a, b) => a.key - b.key);
      expect(byKey(own.nodes)).toEqual(
        await Promise.all(own.change.addedNodeKeys.map((key) => store.nodeByKey(key))),
      );
      expect(own.nodes.find((n) => n.key === k.y)).toMatchObject({ useCount: 1, lastUsedAt: 1234 });
      expect(byKey(own.vectors)).toEqual(await store.vectors(own.change.addedVectorKeys));
      expect(byKey(own.postings)).toEqual(
        await Promise.all(own.change.addedPostingKeys.map((key) => store.posting(key))),
      );
      own.nodes[0]!.l0 = 'changed by the caller';
      expect(store.committed!(seq)!.nodes[0]!.l0).not.toBe('changed by the caller');
      expect(store.committed!(seq - 1)).toBeUndefined();

      // A refused commit leaves the last one as it was; another object's commit is not this one's.
      await expect(store.commit({ putNodes: [node(`${R}/no/parent`, k.free + 5)] })).rejects.toThrow();
      expect(store.committed!(seq)).toBeDefined();
      await store.close();
      const other = await h.open({ embedder: EMBEDDER });
      expect(other.committed!(seq)).toBeUndefined();
      await other.close();
    });
  });
}
