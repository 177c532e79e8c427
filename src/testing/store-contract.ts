// The suite every Store passes (docs/internals/store.md), ours and any other; `longship/testing` exports
// it. It checks the nine Store methods, and the operations the engine makes of them (fullStore): the
// store's own where it has them. The change log and snapshots have their own (change-log-contract.ts).

import { describe, expect, it } from 'vitest';
import type { FullStore } from '../store/full-store.js';
import { vectorWipe } from '../store/plan/commit-plan.js';
import type { Store, WriteBatch } from '../store/store.js';
import { opened, type StoreHarness } from './harness.js';
import {
  codeOf,
  dir,
  EMBEDDER,
  merge,
  node,
  OTHER_EMBEDDER,
  posting,
  relation,
  vector,
  withContent,
} from './records.js';
import { observe, R, seed } from './sample-tree.js';

/**
 * Defines the store contract's tests (with vitest's `describe` and `it`) for the Store that
 * `harness` opens: reads and writes, refused batches left whole, aborts, the embedder record,
 * close and destroy. Call it at the top level of a vitest test file.
 *
 * @example
 * // my-store.test.ts, run by vitest
 * import { storeContract } from 'longship/testing';
 * storeContract('MyStore', () => ({ open: () => openMyStore(`test-${crypto.randomUUID()}`) }));
 */
export function storeContract(name: string, harness: () => StoreHarness): void {
  const open: Open = async () => {
    const h = harness();
    return { h, ...(await opened(h, { embedder: EMBEDDER })) };
  };
  describe(`${name} is a Store`, () => {
    reads(open);
    writes(open);
    refusals(open);
    lifecycle(harness, open);
  });
}

type Open = () => Promise<{ h: StoreHarness; raw: Store; store: FullStore }>;
const OK = { ok: true, problems: [] };
const uris = (nodes: readonly { uri: string }[]) => nodes.map((n) => n.uri);

/** Reads, through the Store's methods and the operations made of them. */
function reads(open: Open): void {
  it('reads back what it wrote, by URI, key, parent and prefix', async () => {
    const { store } = await open();
    const k = await seed(store);
    expect(await store.node(`${R}/a/x`)).toEqual(node(`${R}/a/x`, k.x));
    expect((await store.nodeByKey(k.y))?.uri).toBe(`${R}/a/y`);
    expect(await store.node(`${R}/nope`)).toBeUndefined();
    // Many at once, in the order asked, a gap where there is none, a URI asked twice twice.
    const many = await store.nodes([`${R}/a/y`, `${R}/nope`, `${R}/a/x`, `${R}/a/y`]);
    expect(many.map((n) => n?.uri)).toEqual([`${R}/a/y`, undefined, `${R}/a/x`, `${R}/a/y`]);
    expect(many[2]).toEqual(node(`${R}/a/x`, k.x));
    expect(many[0]).not.toBe(many[3]);
    expect(uris(await store.children(R))).toEqual([`${R}/a`, `${R}/ab`]);
    // The prefix scan stops at the path boundary: resources/a does not contain resources/ab.
    expect(uris(await store.descendants(`${R}/a`))).toEqual([`${R}/a/x`, `${R}/a/y`]);
    const vectors = await store.vectorsOfNode(k.x);
    expect(vectors.map((v) => v.chunk)).toEqual([0, 1]);
    expect(vectors[0]).toEqual(vector(k.vx[0]!, k.x, 0));
    expect((await store.vectors([k.vy, k.vx[1]!, 99999])).map((v) => v.key)).toEqual([k.vx[1], k.vy]);
    expect(await store.posting(k.x)).toEqual(posting(k.x, `about ${R}/a/x`));
    expect(uris(await store.nodesNeedingVectors())).toEqual([R, `${R}/a`]);
    expect(await store.verify()).toEqual(OK);
    expect(await store.stats()).toMatchObject({ nodes: 5, vectors: 4, postings: 5, relations: 2 });
  });

  it('gets by primary key, looks up by field and scans, in key order', async () => {
    const { raw, store } = await open();
    const k = await seed(store);
    const got = await raw.get('nodes', [`${R}/ab`, `${R}/nope`, `${R}/ab`]);
    expect(got.map((n) => n?.key)).toEqual([k.ab, undefined, k.ab]);
    expect(got[0]).not.toBe(got[2]);
    expect((await raw.get('vectors', [k.vy, 1e9])).map((v) => v?.nodeKey)).toEqual([k.y, undefined]);
    expect(await raw.get('postings', [k.y])).toEqual([posting(k.y, `about ${R}/a/y`)]);
    expect(uris(await raw.lookup('nodes', 'key', k.x))).toEqual([`${R}/a/x`]);
    expect(uris(await raw.lookup('nodes', 'parent', `${R}/a`))).toEqual([`${R}/a/x`, `${R}/a/y`]);
    expect(await raw.lookup('nodes', 'key', 1e9)).toEqual([]);
    expect((await raw.lookup('vectors', 'nodeKey', k.x)).map((v) => v.key)).toEqual(k.vx);
    expect((await raw.lookup('relations', 'from', `${R}/ab`)).map((r) => r.to)).toEqual([`${R}/a/y`]);
    expect((await raw.lookup('relations', 'to', `${R}/ab`)).map((r) => r.from)).toEqual([`${R}/a/x`]);
    expect(uris(await raw.descendants(`${R}/a`))).toEqual([`${R}/a/x`, `${R}/a/y`]);
    const batches: string[][] = [];
    for await (const rows of raw.scan('nodes', 2)) batches.push(uris(rows));
    expect(batches).toEqual([[R, `${R}/a`], [`${R}/a/x`, `${R}/a/y`], [`${R}/ab`]]);
  });

  it('hands out copies: what it returned or was given (a view into a heap) is not what it keeps', async () => {
    const { store } = await open();
    const k = await store.allocateKeys(4);
    const root = dir(R, k);
    const batch = merge(withContent(root), withContent(node(`${R}/f`, k + 1), [k + 2]));
    const heap = new Float32Array(1024).fill(7);
    batch.putVectors!.push({ key: k + 3, nodeKey: k + 1, chunk: 1, vector: heap.subarray(100, 104) });
    await store.commit(batch);
    root.l0 = 'changed';
    batch.putVectors![0]!.vector[0] = -1;
    (await store.node(R))!.meta.x = 1;
    expect(await store.node(R)).toEqual(dir(R, k));
    const [first, view] = await store.vectorsOfNode(k + 1);
    expect(first!.vector[0]).toBe(k + 2);
    expect(view!.vector.buffer.byteLength).toBe(EMBEDDER.dimensions * 4);
    expect([...view!.vector]).toEqual([7, 7, 7, 7]);
  });
}

/** Commits, uses, required nodes, planned writes, and what a deletion takes along. */
function writes(open: Open): void {
  it('records uses inside the transaction, on top of whatever the batch or the store holds', async () => {
    const { store } = await open();
    await seed(store);
    const x = (await store.node(`${R}/a/x`))!;
    const uses = [`${R}/a/x`, `${R}/a/x`, `${R}/none`].map((uri, i) => ({ uri, at: 1000 + i }));
    await store.commit({ useNodes: uses });
    expect(await store.node(`${R}/a/x`)).toEqual({ ...x, useCount: 2, lastUsedAt: 1001 });
    expect(await store.node(`${R}/none`)).toBeUndefined();
    // A use in the same batch as a write to the node applies to the written node: the write is kept.
    await store.commit({ putNodes: [{ ...x, l0: 'rewritten' }], useNodes: [{ uri: `${R}/a/x`, at: 2000 }] });
    expect(await store.node(`${R}/a/x`)).toMatchObject({ l0: 'rewritten', useCount: 1, lastUsedAt: 2000 });
    // A use of a node deleted in the same batch records nothing.
    await store.commit({ deleteNodes: [`${R}/ab`], useNodes: [{ uri: `${R}/ab`, at: 3000 }] });
    expect(await store.node(`${R}/ab`)).toBeUndefined();
    expect(await codeOf(store.commit({ useNodes: [{ uri: R, at: Number.NaN }] }))).toBe('INVALID_ARGUMENT');
    expect(await store.verify()).toEqual(OK);
  });

  it('commits a batch that requires nodes only while they are there with those keys', async () => {
    const { store } = await open();
    const k = await seed(store);
    const x = (await store.node(`${R}/a/x`))!;
    const rewrite = (l0: string, key = k.x): WriteBatch => ({
      putNodes: [{ ...x, l0 }],
      requireNodes: [{ uri: `${R}/a/x`, key }],
    });
    const { seq } = await store.meta();
    expect(await store.commit(rewrite('while there'))).toBe(seq + 1);
    expect((await store.node(`${R}/a/x`))?.l0).toBe('while there');
    expect(await codeOf(store.commit(rewrite('another key', k.y)))).toBe('NOT_FOUND');
    await store.commit({ deleteNodes: [`${R}/a/x`] });
    // Removed meanwhile: the write that read it must not bring it back.
    expect(await codeOf(store.commit(rewrite('brought back')))).toBe('NOT_FOUND');
    expect(await store.node(`${R}/a/x`)).toBeUndefined();
    expect((await store.meta()).seq).toBe(seq + 2);
    const bad = store.commit({ requireNodes: [{ uri: `${R}/a/y`, key: -1 }] });
    expect(await codeOf(bad)).toBe('INVALID_ARGUMENT');
  });

  it('writes what it is given whole and unchecked, and nothing once its seq has moved on', async () => {
    const { raw, store } = await open();
    const k = await seed(store);
    const { seq } = await raw.meta();
    // Writes the engine would never plan: verify() must find what each breaks.
    const damage = {
      ...vectorWipe(seq + 1, [k.vx[0]!]),
      deleteNodes: [`${R}/a`],
      deletePostings: [k.y],
      putNodes: [node(`${R}/ab/under`, k.free + 2)],
      putVectors: [vector(k.free, 4242, 0)],
      putPostings: [posting(k.free + 1), posting(k.free + 2)],
      putRelations: [relation(`${R}/a/x`, `${R}/nowhere`)],
    };
    expect(await raw.write(damage)).toBe(true);
    expect(await raw.write({ ...damage, putNodes: [node(`${R}/m`, k.free + 3)] })).toBe(false);
    expect((await raw.meta()).seq).toBe(seq + 1);
    expect(await store.node(`${R}/m`)).toBeUndefined();
    expect((await store.verify()).problems).toEqual(
      expect.arrayContaining([
        `orphan vector ${k.free}: no node has key 4242`,
        `orphan posting ${k.free + 1}: no node has that key`,
        `orphan relation ${R}/a/x -> ${R}/nowhere: ${R}/nowhere is missing`,
        `node ${R}/a/y has no posting`,
        `node ${R}/a/x: parent ${R}/a is missing`,
        `node ${R}/ab/under: parent ${R}/ab is a file`,
        `node ${k.x} has chunks [1], not 0..0`,
      ]),
    );
    // An embedder recorded and nothing else: what useEmbedder() makes of write() where it must.
    expect(await raw.write({ ...vectorWipe(seq + 2, []), embedder: OTHER_EMBEDDER })).toBe(true);
    expect(await raw.meta()).toMatchObject({ seq: seq + 2, embedder: OTHER_EMBEDDER });
  });

  it('deletes a node with its vectors, posting and relations, and lets a batch delete and recreate', async () => {
    const { store } = await open();
    const k = await seed(store);
    const ends = (await store.relations(`${R}/ab`)).map((r) => `${r.from} ${r.to}`);
    expect(ends).toEqual([`${R}/a/x ${R}/ab`, `${R}/ab ${R}/a/y`]);
    expect((await store.relations(`${R}/a/y`)).map((r) => r.from)).toEqual([`${R}/ab`]);
    await store.commit({ deleteNodes: [`${R}/ab`], deleteRelations: [{ from: R, to: `${R}/no` }] });
    expect(await store.relations(`${R}/a/x`)).toEqual([]);
    expect(await store.relations(`${R}/a/y`)).toEqual([]);
    expect(await store.posting(k.ab)).toBeUndefined();
    expect(await store.vectorsOfNode(k.ab)).toEqual([]);
    // A re-keyed node, a new embedding, a whole subtree: each deleted (and written again) at once.
    const y = `${R}/a/y`;
    await store.commit(merge({ deleteNodes: [y] }, withContent(node(y, k.free), [k.free + 1])));
    expect((await store.node(y))?.key).toBe(k.free);
    await store.commit({ deleteVectorsOfNodes: [k.free], putVectors: [vector(k.free + 2, k.free, 0)] });
    expect((await store.vectorsOfNode(k.free)).map((v) => v.key)).toEqual([k.free + 2]);
    await store.commit({ deleteNodes: [`${R}/a/x`, `${R}/a`, y] });
    expect(await store.descendants(R)).toEqual([]);
    expect(await store.verify()).toEqual(OK);
  });
}

/** A node with a function in its meta, which structuredClone cannot copy. */
const uncloneable = (key: number) => withContent(node(`${R}/m`, key, { meta: { f: () => 1 } }));
/** Batches that would leave the store failing verify(): each is refused with `INVALID_ARGUMENT` unless named. */
const REFUSED: [string, (k: Awaited<ReturnType<typeof seed>>) => WriteBatch, string?][] = [
  ['a node whose parent is missing', (k) => withContent(node(`${R}/q/z`, k.free))],
  ['a node not under its parent', (k) => withContent(node(`${R}/a/b/c`, k.free, { parent: `${R}/a` }))],
  ['a node without its posting', (k) => ({ putNodes: [node(`${R}/n`, k.free)] })],
  ['deleting a directory that still has children', () => ({ deleteNodes: [`${R}/a`] })],
  ['deleting the posting of a live node', (k) => ({ deletePostings: [k.x] })],
  ['a vector of no node', (k) => ({ putVectors: [vector(k.free, 99999, 0)] })],
  ['a gap in the chunks', (k) => ({ putVectors: [vector(k.free, k.y, 2)] })],
  ['a chunk twice', (k) => ({ putVectors: [vector(k.free, k.y, 0)] })],
  ['a vector too short', (k) => ({ putVectors: [vector(k.free, k.y, 1, 3)] }), 'DIMENSION_MISMATCH'],
  ['a key never allocated', () => withContent(node(`${R}/n`, 1e9))],
  ['a key another node holds', (k) => withContent(node(`${R}/n`, k.x))],
  ['re-keying a node in place', (k) => withContent(node(`${R}/ab`, k.free))],
  ['moving a vector key to another node', (k) => ({ putVectors: [vector(k.vy, k.ab, 1)] })],
  ['a relation to a missing node', () => ({ putRelations: [relation(`${R}/a/x`, `${R}/nope`)] })],
  ['a posting of no node', (k) => ({ putPostings: [posting(k.free)] })],
  ['a record of the wrong shape', (k) => ({ putNodes: [{ ...node(`${R}/n`, k.free), kind: 'x' as 'dir' }] })],
  [
    'a value that cannot be cloned',
    (k) => merge(withContent(node(`${R}/n`, k.free)), uncloneable(k.free + 1)),
  ],
];

/** Batches refused whole, and aborts. */
function refusals(open: Open): void {
  describe('refuses, whole, a batch that would leave it inconsistent', () => {
    for (const [what, batch, code = 'INVALID_ARGUMENT'] of REFUSED) {
      it(what, async () => {
        const { store } = await open();
        const k = await seed(store);
        const before = await observe(store);
        expect(await codeOf(store.commit(batch(k)))).toBe(code);
        expect(await observe(store)).toEqual(before);
        expect(await store.verify()).toEqual(OK);
      });
    }
  });

  it('an aborted signal writes nothing; one that fires mid-commit leaves the batch whole or absent', async () => {
    const { store } = await open();
    const k = await seed(store);
    const before = await observe(store);
    const aborted = AbortSignal.abort(new Error('stop'));
    expect(await codeOf(store.commit(withContent(node(`${R}/n`, k.free)), aborted))).toBe('ABORTED');
    expect(await observe(store)).toEqual(before);
    // Abort after 0..14 turns of the event loop: early ones land at each await inside the commit.
    const seen = new Set<string>();
    for (let i = 0; i < 15; i++) {
      const uri = `${R}/n${i}`;
      const controller = new AbortController();
      const pending = store.commit(withContent(node(uri, k.free + i)), controller.signal);
      for (let t = 0; t < i; t++) await new Promise((resolve) => setTimeout(resolve, 0));
      controller.abort();
      const outcome = await pending.then(
        () => 'whole',
        (e) => (e.code === 'ABORTED' ? 'absent' : e),
      );
      seen.add(outcome);
      expect(Boolean(await store.node(uri))).toBe(outcome === 'whole');
      expect(Boolean(await store.posting(k.free + i))).toBe(outcome === 'whole');
      expect(await store.verify()).toEqual(OK);
    }
    expect([...seen].sort()).toEqual(['absent', 'whole']);
  });
}

/** The embedder record, reopening, close and destroy. */
function lifecycle(harness: () => StoreHarness, open: Open): void {
  it('refuses vectors before an embedder is recorded, then keeps to it unless told to reset', async () => {
    const h = harness();
    const reopen = async (options = {}) => (await opened(h, options)).store;
    let store = await reopen();
    const first = await store.allocateKeys(3);
    expect(await store.allocateKeys(1)).toBe(first + 3);
    expect(await codeOf(store.allocateKeys(0))).toBe('INVALID_ARGUMENT');
    const batch = merge(withContent(dir(R, first)), withContent(node(`${R}/f`, first + 1), [first + 2]));
    expect(await codeOf(store.commit(batch))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(store.useEmbedder({ id: '', dimensions: 3 }))).toBe('INVALID_ARGUMENT');
    await store.close();
    store = await reopen({ embedder: EMBEDDER });
    const k = await seed(store);
    await store.close();
    const refused = await reopen({ embedder: OTHER_EMBEDDER }).catch((e) => e);
    expect(refused.code).toBe('EMBEDDER_MISMATCH');
    for (const part of [EMBEDDER.id, OTHER_EMBEDDER.id, '4 dimensions', '8 dimensions']) {
      expect(refused.message).toContain(part);
    }
    store = await reopen();
    expect((await store.meta()).embedder).toEqual(EMBEDDER);
    await store.close();
    store = await reopen({ embedder: OTHER_EMBEDDER, onEmbedderMismatch: 'reset-vectors' });
    expect((await store.meta()).embedder).toEqual(OTHER_EMBEDDER);
    expect((await store.stats()).vectors).toBe(0);
    expect((await store.nodesNeedingVectors()).length).toBe(5);
    await store.commit({ putVectors: [vector(k.vy, k.y, 0, 8)] });
    expect(uris(await store.nodesNeedingVectors())).not.toContain(`${R}/a/y`);
    expect(await store.verify()).toEqual(OK);
  });

  it('keeps everything across close and reopen', async () => {
    const h = harness();
    let { store } = await opened(h, { embedder: EMBEDDER });
    const k = await seed(store);
    const [before, meta] = [await observe(store, false), await store.meta()];
    await store.close();
    ({ store } = await opened(h, { embedder: EMBEDDER }));
    expect(await observe(store, false)).toEqual(before);
    expect(await store.meta()).toEqual(meta);
    expect(await store.allocateKeys(1)).toBe(k.root + 40);
  });

  it('fails every call with STORE_CLOSED once closed, and forgets everything when destroyed', async () => {
    const { h, raw, store } = await open();
    await seed(store);
    await raw.close();
    const derived = [() => store.node(R), () => store.commit({}), () => store.verify()];
    const own = [() => raw.meta(), () => raw.allocateKeys(1), () => raw.write(vectorWipe(1, []))];
    const reads = [
      () => raw.get('nodes', [R]),
      () => raw.lookup('nodes', 'key', 1),
      () => raw.descendants(R),
    ];
    const scan = () => raw.scan('nodes')[Symbol.asyncIterator]().next();
    for (const call of [...derived, ...own, ...reads, scan])
      expect(await codeOf(call())).toBe('STORE_CLOSED');
    await (await h.open()).destroy();
    const { store: fresh } = await opened(h);
    expect(await fresh.stats()).toMatchObject({ nodes: 0, vectors: 0, postings: 0, relations: 0 });
    expect(await fresh.meta()).toMatchObject({ seq: 0, nextKey: 1 });
    expect((await fresh.meta()).embedder).toBeUndefined();
  });
}
