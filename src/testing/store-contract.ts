// The suite every Store passes (docs/internals/store.md), ours and any other: `longship/testing` exports it.
// Longer than most files because it is one list of independent cases, each a property of a Store;
// splitting it would only scatter them.

import { describe, expect, it } from 'vitest';
import type { SnapshotRanges, Store, WriteBatch } from '../store/store.js';
import type { StoreHarness } from './harness.js';
import {
  codeOf,
  dir,
  EMBEDDER,
  merge,
  node,
  OTHER_EMBEDDER,
  patternBytes,
  posting,
  relation,
  sameBytes,
  vector,
  withContent,
} from './records.js';
import { observe, R, seed } from './sample-tree.js';

/** A snapshot sink into a buffer; `fail` makes its first write throw. */
function arraySink(length: number, fail?: Error) {
  return {
    bytes: new Uint8Array(length),
    disposed: false,
    write(bytes: Uint8Array, offset: number) {
      if (fail) throw fail;
      this.bytes.set(bytes, offset);
    },
    dispose() {
      this.disposed = true;
    },
  };
}

/**
 * Defines the store contract's tests (with vitest's `describe` and `it`) for the Store that
 * `harness` opens: reads and writes, the change log, refused batches left whole, aborts, snapshots,
 * the embedder record, close and destroy. Call it at the top level of a vitest test file.
 *
 * @example
 * // my-store.test.ts, run by vitest
 * import { storeContract } from 'longship/testing';
 * storeContract('MyStore', () => ({ open: (options) => openMyStore(`test-${crypto.randomUUID()}`, options) }));
 */
export function storeContract(name: string, harness: () => StoreHarness): void {
  const open: Open = async () => {
    const h = harness();
    return { h, store: await h.open({ embedder: EMBEDDER }) };
  };

  describe(`${name} is a Store`, () => {
    readsAndCopies(open);
    keysAndUses(open);
    refusals(open);
    snapshots(open);
    damage(open);
    lifecycle(harness, open);
  });
}

type Open = () => Promise<{ h: StoreHarness; store: Store }>;

/** Reads, copies, and the change log each commit writes. */
function readsAndCopies(open: Open): void {
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
    expect(await store.nodes([])).toEqual([]);
    expect((await store.children(R)).map((n) => n.uri)).toEqual([`${R}/a`, `${R}/ab`]);
    // The prefix scan stops at the path boundary: resources/a does not contain resources/ab.
    expect((await store.descendants(`${R}/a`)).map((n) => n.uri)).toEqual([`${R}/a/x`, `${R}/a/y`]);
    expect((await store.descendants(R)).length).toBe(4);
    const vectors = await store.vectorsOfNode(k.x);
    expect(vectors.map((v) => v.chunk)).toEqual([0, 1]);
    expect(vectors[0]!.vector).toBeInstanceOf(Float32Array);
    expect(vectors[0]).toEqual(vector(k.vx[0]!, k.x, 0));
    expect((await store.vectors([k.vy, k.vx[1]!, 99999])).map((v) => v.key)).toEqual([k.vx[1], k.vy]);
    expect(await store.posting(k.x)).toEqual(posting(k.x, `about ${R}/a/x`));
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
    expect(await store.stats()).toEqual({
      nodes: 5,
      vectors: 4,
      postings: 5,
      relations: 2,
      changes: 2,
      snapshots: 0,
    });
  });

  it('hands out copies: changing what it returned or was given changes nothing stored', async () => {
    const { store } = await open();
    const k = await store.allocateKeys(3);
    const root = dir(R, k);
    const batch = merge(withContent(root), withContent(node(`${R}/f`, k + 1), [k + 2]));
    await store.commit(batch);
    root.l0 = 'changed';
    batch.putVectors![0]!.vector[0] = -1;
    const read = (await store.node(R))!;
    read.meta.x = 1;
    expect(await store.node(R)).toEqual(dir(R, k));
    expect((await store.vectorsOfNode(k + 1))[0]!.vector[0]).toBe(k + 2);
  });

  it('stores a vector given as a view into a larger buffer without the rest of the buffer', async () => {
    const { store } = await open();
    const k = await store.allocateKeys(3);
    const heap = new Float32Array(1024).fill(7);
    const view = heap.subarray(100, 100 + EMBEDDER.dimensions);
    await store.commit(
      merge(withContent(dir(R, k)), withContent(node(`${R}/f`, k + 1)), {
        putVectors: [{ key: k + 2, nodeKey: k + 1, chunk: 0, vector: view }],
      }),
    );
    const [stored] = await store.vectorsOfNode(k + 1);
    expect(stored!.vector.buffer.byteLength).toBe(EMBEDDER.dimensions * 4);
    expect([...stored!.vector]).toEqual([7, 7, 7, 7]);
  });

  it('numbers commits and logs what each changed in the derived indexes', async () => {
    const { store } = await open();
    const k = await seed(store);
    expect((await store.meta()).seq).toBe(2);
    // The vectors replaced and removed are logged as they were, for a replay after a crash.
    const [before] = await store.vectors([k.vy]);
    const gone = await store.vectors(k.vx);
    const replace = await store.commit({
      putVectors: [vector(k.vy, k.y, 0)],
      putPostings: [posting(k.y, 'new')],
    });
    const remove = await store.commit({ deleteNodes: [`${R}/a/x`] });
    expect([replace, remove]).toEqual([3, 4]);
    const changes = await store.changesSince(2);
    expect(changes).toEqual([
      {
        seq: 3,
        addedNodeKeys: [],
        removedNodeKeys: [],
        addedVectorKeys: [k.vy],
        removedVectorKeys: [k.vy],
        removedVectors: [before],
        addedPostingKeys: [k.y],
        removedPostingKeys: [k.y],
      },
      {
        seq: 4,
        addedNodeKeys: [],
        removedNodeKeys: [k.x],
        addedVectorKeys: [],
        removedVectorKeys: k.vx,
        removedVectors: gone,
        addedPostingKeys: [],
        removedPostingKeys: [k.x],
      },
    ]);
    expect((await store.changesSince(0)).map((c) => c.seq)).toEqual([1, 2, 3, 4]);
    await store.pruneChanges(3);
    expect((await store.changesSince(0)).map((c) => c.seq)).toEqual([4]);
    expect((await store.verify()).ok).toBe(true);
  });
}

/** Node keys, uses, required nodes, the key counter, and what a deletion takes along. */
function keysAndUses(open: Open): void {
  it('logs node keys: new, replaced, moved and deleted', async () => {
    const { store } = await open();
    const k = await seed(store);
    const [first] = await store.changesSince(1);
    expect(first).toMatchObject({ addedNodeKeys: [k.x, k.y, k.ab], removedNodeKeys: [] });
    const y = (await store.node(`${R}/a/y`))!;
    await store.commit({ putNodes: [{ ...y, l0: 'changed' }] });
    // A move: the key leaves one URI and arrives at another in one batch.
    await store.commit(merge({ deleteNodes: [`${R}/a/y`] }, withContent(node(`${R}/ac`, k.y))));
    await store.commit({ deleteNodes: [`${R}/ab`] });
    expect(await store.changesSince(2)).toMatchObject([
      { addedNodeKeys: [k.y], removedNodeKeys: [k.y] },
      { addedNodeKeys: [k.y], removedNodeKeys: [k.y] },
      { addedNodeKeys: [], removedNodeKeys: [k.ab] },
    ]);
  });

  it('records uses inside the transaction, on top of whatever the batch or the store holds', async () => {
    const { store } = await open();
    const k = await seed(store);
    const x = (await store.node(`${R}/a/x`))!;
    expect(x.useCount).toBe(0);
    const uses = [`${R}/a/x`, `${R}/a/x`, `${R}/none`].map((uri, i) => ({ uri, at: 1000 + i }));
    await store.commit({ useNodes: uses });
    expect(await store.node(`${R}/a/x`)).toEqual({ ...x, useCount: 2, lastUsedAt: 1001 });
    expect(await store.node(`${R}/none`)).toBeUndefined();
    // A use in the same batch as a write to the node applies to the written node: the write is kept.
    await store.commit({
      putNodes: [{ ...x, l0: 'rewritten' }],
      useNodes: [{ uri: `${R}/a/x`, at: 2000 }],
    });
    expect(await store.node(`${R}/a/x`)).toMatchObject({ l0: 'rewritten', useCount: 1, lastUsedAt: 2000 });
    // A use of a node deleted in the same batch records nothing.
    await store.commit({ deleteNodes: [`${R}/ab`], useNodes: [{ uri: `${R}/ab`, at: 3000 }] });
    expect(await store.node(`${R}/ab`)).toBeUndefined();
    const [last] = (await store.changesSince(0)).slice(-1);
    expect(last).toMatchObject({ addedNodeKeys: [], removedNodeKeys: [k.ab] });
    expect(await codeOf(store.commit({ useNodes: [{ uri: `${R}/a/x`, at: 'now' as never }] }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await store.verify()).ok).toBe(true);
  });

  it('commits a batch that requires nodes only while they are there with those keys', async () => {
    const { store } = await open();
    const k = await seed(store);
    const x = (await store.node(`${R}/a/x`))!;
    const rewrite = (l0: string, key = k.x): WriteBatch => ({
      putNodes: [{ ...x, l0 }],
      requireNodes: [{ uri: `${R}/a/x`, key }],
    });
    await store.commit(rewrite('while there'));
    expect((await store.node(`${R}/a/x`))?.l0).toBe('while there');
    const seq = (await store.meta()).seq;
    expect(await codeOf(store.commit(rewrite('another key', k.y)))).toBe('NOT_FOUND');
    await store.commit({ deleteNodes: [`${R}/a/x`] });
    // Removed meanwhile: the write that read it must not bring it back.
    expect(await codeOf(store.commit(rewrite('brought back')))).toBe('NOT_FOUND');
    expect(await store.node(`${R}/a/x`)).toBeUndefined();
    expect((await store.meta()).seq).toBe(seq + 1);
    expect(await codeOf(store.commit({ requireNodes: [{ uri: `${R}/a/y`, key: -1 }] }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await store.verify()).ok).toBe(true);
  });

  it('allocates keys from one counter, never twice', async () => {
    const { store } = await open();
    const a = await store.allocateKeys(5);
    const b = await store.allocateKeys(1);
    expect(b).toBe(a + 5);
    expect((await store.meta()).nextKey).toBe(b + 1);
    expect(await codeOf(store.allocateKeys(0))).toBe('INVALID_ARGUMENT');
  });

  it('deleting a node takes its vectors, posting and relations with it, both directions', async () => {
    const { store } = await open();
    const k = await seed(store);
    expect((await store.relations(`${R}/ab`)).map((r) => [r.from, r.to])).toEqual([
      [`${R}/a/x`, `${R}/ab`],
      [`${R}/ab`, `${R}/a/y`],
    ]);
    expect((await store.relations(`${R}/a/y`)).map((r) => r.from)).toEqual([`${R}/ab`]);
    await store.commit({ deleteNodes: [`${R}/ab`] });
    expect(await store.relations(`${R}/a/x`)).toEqual([]);
    expect(await store.relations(`${R}/a/y`)).toEqual([]);
    expect(await store.posting(k.ab)).toBeUndefined();
    expect(await store.vectorsOfNode(k.ab)).toEqual([]);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
    await store.commit({
      deleteRelations: [{ from: `${R}/a/x`, to: `${R}/nowhere` }],
      deleteNodes: [`${R}/gone`],
    });
  });
}

/** Batches refused whole, accepted re-creations, and aborts. */
function refusals(open: Open): void {
  describe('refuses, whole, a batch that would leave it inconsistent', () => {
    const cases: Array<[string, (k: Awaited<ReturnType<typeof seed>>) => WriteBatch, string]> = [
      ['a node whose parent is missing', (k) => withContent(node(`${R}/q/z`, k.free)), 'INVALID_ARGUMENT'],
      [
        'a node not directly under its parent',
        (k) => withContent(node(`${R}/a/b/c`, k.free, { parent: `${R}/a` })),
        'INVALID_ARGUMENT',
      ],
      ['a node without its posting', (k) => ({ putNodes: [node(`${R}/n`, k.free)] }), 'INVALID_ARGUMENT'],
      [
        'deleting a directory that still has children',
        () => ({ deleteNodes: [`${R}/a`] }),
        'INVALID_ARGUMENT',
      ],
      ['deleting the posting of a live node', (k) => ({ deletePostings: [k.x] }), 'INVALID_ARGUMENT'],
      ['a vector of no node', (k) => ({ putVectors: [vector(k.free, 99999, 0)] }), 'INVALID_ARGUMENT'],
      ['a gap in the chunks', (k) => ({ putVectors: [vector(k.free, k.y, 2)] }), 'INVALID_ARGUMENT'],
      ['a chunk twice', (k) => ({ putVectors: [vector(k.free, k.y, 0)] }), 'INVALID_ARGUMENT'],
      [
        'a vector of the wrong length',
        (k) => ({ putVectors: [vector(k.free, k.y, 1, 3)] }),
        'DIMENSION_MISMATCH',
      ],
      ['a key never allocated', () => withContent(node(`${R}/n`, 1e9)), 'INVALID_ARGUMENT'],
      ['a key another node holds', (k) => withContent(node(`${R}/n`, k.x)), 'INVALID_ARGUMENT'],
      ['re-keying a node in place', (k) => withContent(node(`${R}/ab`, k.free)), 'INVALID_ARGUMENT'],
      [
        'moving a vector key to another node',
        (k) => ({ putVectors: [vector(k.vy, k.ab, 1)] }),
        'INVALID_ARGUMENT',
      ],
      [
        'a relation to a missing node',
        () => ({ putRelations: [relation(`${R}/a/x`, `${R}/nope`)] }),
        'INVALID_ARGUMENT',
      ],
      ['a posting of no node', (k) => ({ putPostings: [posting(k.free)] }), 'INVALID_ARGUMENT'],
      [
        'a record of the wrong shape',
        (k) => ({ putNodes: [{ ...node(`${R}/n`, k.free), kind: 'link' as 'dir' }] }),
        'INVALID_ARGUMENT',
      ],
      [
        'a value that cannot be cloned',
        (k) =>
          merge(
            withContent(node(`${R}/n`, k.free)),
            withContent(node(`${R}/m`, k.free + 1, { meta: { f: () => 1 } })),
          ),
        'INVALID_ARGUMENT',
      ],
    ];
    for (const [what, batch, code] of cases) {
      it(what, async () => {
        const { store } = await open();
        const k = await seed(store);
        const before = await observe(store);
        expect(await codeOf(store.commit(batch(k)))).toBe(code);
        expect(await observe(store)).toEqual(before);
        expect(await store.verify()).toEqual({ ok: true, problems: [] });
      });
    }
  });

  it('accepts a batch that deletes and recreates: a re-keyed node, a whole subtree, a new embedding', async () => {
    const { store } = await open();
    const k = await seed(store);
    await store.commit(
      merge({ deleteNodes: [`${R}/ab`] }, withContent(node(`${R}/ab`, k.free), [k.free + 1])),
    );
    expect((await store.node(`${R}/ab`))?.key).toBe(k.free);
    await store.commit({ deleteNodes: [`${R}/a/x`, `${R}/a`, `${R}/a/y`] });
    expect((await store.descendants(R)).map((n) => n.uri)).toEqual([`${R}/ab`]);
    await store.commit({ deleteVectorsOfNodes: [k.free], putVectors: [vector(k.free + 2, k.free, 0)] });
    expect((await store.vectorsOfNode(k.free)).map((v) => v.key)).toEqual([k.free + 2]);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
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
      expect(outcome === 'whole' || outcome === 'absent').toBe(true);
      expect(Boolean(await store.node(uri))).toBe(outcome === 'whole');
      expect(Boolean(await store.posting(k.free + i))).toBe(outcome === 'whole');
      expect(await store.verify()).toEqual({ ok: true, problems: [] });
    }
    expect([...seen].sort()).toEqual(['absent', 'whole']);
  });
}

/** Snapshots written whole or not at all. */
function snapshots(open: Open): void {
  it('round-trips a multi-chunk snapshot, given whole or in pieces, and replaces it atomically', async () => {
    const { h, store } = await open();
    await seed(store);
    const big = patternBytes(9 * 1024 * 1024 + 5);
    await store.putSnapshot({ name: 'hnsw', seq: 1, bytes: big });
    const got = await store.snapshot('hnsw');
    expect(got?.seq).toBe(1);
    expect(sameBytes(got?.bytes, big)).toBe(true);
    if (h.tamper) expect((await h.tamper.chunkIds()).length).toBe(3);
    // The same bytes written into a sink as they are read, for a reader that puts them where they go.
    const into = await store.snapshotInto('hnsw', (length) => arraySink(length));
    expect(into?.seq).toBe(1);
    expect(into!.sink.disposed).toBe(false);
    expect(sameBytes(into!.sink.bytes, big)).toBe(true);
    // A store that can read the snapshot again says so, and once it is checked offers the sink its
    // ranges: they read the same bytes, across chunks, and a range past the end is a STORE_ERROR.
    let ranged: boolean | undefined;
    let ranges: SnapshotRanges | undefined;
    await store.snapshotInto('hnsw', (length, canRange) => {
      ranged = canRange;
      return { ...arraySink(length), adopt: (given: SnapshotRanges) => (ranges = given) };
    });
    expect(ranges !== undefined).toBe(ranged);
    if (ranges) {
      const at = 4 * 1024 * 1024 - 10;
      const piece = new Uint8Array(100);
      ranges.read(piece, at);
      expect(sameBytes(piece, big.subarray(at, at + 100))).toBe(true);
      expect(() => ranges!.read(new Uint8Array(10), big.length - 5)).toThrow(
        expect.objectContaining({ code: 'STORE_ERROR' }),
      );
      ranges.close();
    }
    // What the sink throws is thrown, and the sink is disposed.
    let failing: ReturnType<typeof arraySink> | undefined;
    const thrown = await store
      .snapshotInto('hnsw', (length) => {
        failing = arraySink(length, new Error('no room'));
        return failing;
      })
      .catch((error: unknown) => error);
    expect(thrown).toEqual(new Error('no room'));
    expect(failing!.disposed).toBe(true);
    // snapshot() hands out a buffer of the caller's own.
    got!.bytes.fill(0);
    expect(sameBytes((await store.snapshot('hnsw'))?.bytes, big)).toBe(true);

    const next = patternBytes(5 * 1024 * 1024, 1);
    async function* pieces() {
      for (let at = 0; at < next.length; at += 1_000_003) yield next.subarray(at, at + 1_000_003);
    }
    await store.putSnapshot({ name: 'hnsw', seq: 2, bytes: pieces() });
    expect(sameBytes((await store.snapshot('hnsw'))?.bytes, next)).toBe(true);
    if (h.tamper) expect((await h.tamper.chunkIds()).length).toBe(2);
    await store.putSnapshot({ name: 'empty', seq: 2, bytes: new Uint8Array(0) });
    expect((await store.snapshot('empty'))?.bytes.length).toBe(0);
    expect(await store.snapshot('none')).toBeUndefined();
    expect(await codeOf(store.putSnapshot({ name: 'hnsw', seq: 3, bytes: next }))).toBe('INVALID_ARGUMENT');
    await store.deleteSnapshot('hnsw');
    expect(await store.snapshot('hnsw')).toBeUndefined();
    expect((await store.stats()).snapshots).toBe(1);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('keeps the old snapshot when writing a new one fails or is aborted part way', async () => {
    const { h, store } = await open();
    await seed(store);
    const old = patternBytes(5 * 1024 * 1024);
    await store.putSnapshot({ name: 'hnsw', seq: 1, bytes: old });
    async function* failing() {
      yield patternBytes(6 * 1024 * 1024, 2);
      throw new Error('serializer crashed');
    }
    await expect(store.putSnapshot({ name: 'hnsw', seq: 2, bytes: failing() })).rejects.toThrow(
      'serializer crashed',
    );
    const controller = new AbortController();
    async function* slow() {
      yield patternBytes(5 * 1024 * 1024, 3);
      controller.abort();
      yield patternBytes(5 * 1024 * 1024, 4);
    }
    expect(await codeOf(store.putSnapshot({ name: 'hnsw', seq: 2, bytes: slow() }, controller.signal))).toBe(
      'ABORTED',
    );
    const got = await store.snapshot('hnsw');
    expect(got?.seq).toBe(1);
    expect(sameBytes(got?.bytes, old)).toBe(true);
    if (h.tamper) expect((await h.tamper.chunkIds()).length).toBe(2);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });
}

/** Damage behind the store's back: reported, never trusted. */
function damage(open: Open): void {
  it('reports a corrupt or incomplete snapshot as absent, so the caller rebuilds', async ({ skip }) => {
    const { h, store } = await open();
    if (!h.tamper) return skip('the harness cannot tamper');
    await seed(store);
    const bytes = patternBytes(9 * 1024 * 1024);
    await store.putSnapshot({ name: 'flip', seq: 2, bytes });
    await store.putSnapshot({ name: 'drop', seq: 2, bytes });
    await h.tamper.corruptSnapshot('flip', 'flip-byte', 1);
    await h.tamper.corruptSnapshot('drop', 'drop-chunk', 2);
    expect(await store.snapshot('flip')).toBeUndefined();
    expect(await store.snapshot('drop')).toBeUndefined();
    for (const name of ['flip', 'drop']) {
      const sinks: ReturnType<typeof arraySink>[] = [];
      const into = await store.snapshotInto(name, (length) => {
        sinks.push(arraySink(length));
        return sinks.at(-1)!;
      });
      expect(into).toBeUndefined();
      // A sink opened before the damage showed is disposed.
      expect(sinks.every((sink) => sink.disposed)).toBe(true);
    }
    expect((await store.verify()).problems).toEqual(['snapshot drop is missing chunk 2']);
  });

  it('verify() finds what was planted behind its back', async ({ skip }) => {
    const { h, store } = await open();
    if (!h.tamper) return skip('the harness cannot tamper');
    const k = await seed(store);
    await h.tamper.put('vectors', vector(k.free, 4242, 0));
    await h.tamper.put('postings', posting(k.free + 1));
    await h.tamper.put('relations', relation(`${R}/a/x`, `${R}/nowhere`));
    await h.tamper.delete('postings', k.y);
    await h.tamper.delete('nodes', `${R}/a`);
    await h.tamper.delete('vectors', k.vx[0]!);
    await h.tamper.put('nodes', node(`${R}/ab/under`, k.free + 2));
    await h.tamper.put('postings', posting(k.free + 2));
    const { ok, problems } = await store.verify();
    expect(ok).toBe(false);
    expect(problems).toEqual(
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
  });
}

/** The embedder record, reopening, scans, close and destroy. */
function lifecycle(harness: () => StoreHarness, open: Open): void {
  it('records the embedder, refuses another, and resets its vectors on request', async () => {
    const h = harness();
    let store = await h.open({ embedder: EMBEDDER });
    const k = await seed(store);
    await store.putSnapshot({ name: 'hnsw', seq: 2, bytes: patternBytes(100) });
    await store.close();
    store = await h.open({ embedder: EMBEDDER });
    expect((await store.meta()).embedder).toEqual(EMBEDDER);
    await store.close();
    const refused = await h.open({ embedder: OTHER_EMBEDDER }).catch((e) => e);
    expect(refused.code).toBe('EMBEDDER_MISMATCH');
    for (const part of [EMBEDDER.id, OTHER_EMBEDDER.id, '4 dimensions', '8 dimensions']) {
      expect(refused.message).toContain(part);
    }
    store = await h.open();
    expect((await store.meta()).embedder).toEqual(EMBEDDER);
    await store.close();
    store = await h.open({ embedder: OTHER_EMBEDDER, onEmbedderMismatch: 'reset-vectors' });
    const meta = await store.meta();
    expect(meta.embedder).toEqual(OTHER_EMBEDDER);
    expect((await store.stats()).vectors).toBe(0);
    expect(await store.snapshot('hnsw')).toBeUndefined();
    expect((await store.nodesNeedingVectors()).length).toBe(5);
    expect(await store.changesSince(2)).toEqual([
      {
        seq: 3,
        addedNodeKeys: [],
        removedNodeKeys: [],
        addedVectorKeys: [],
        removedVectorKeys: [...k.vx, k.vy, k.vy + 1],
        addedPostingKeys: [],
        removedPostingKeys: [],
      },
    ]);
    await store.commit({ putVectors: [vector(k.vy, k.y, 0, 8)] });
    expect((await store.nodesNeedingVectors()).map((n) => n.uri)).not.toContain(`${R}/a/y`);
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
  });

  it('refuses vectors before an embedder is recorded', async () => {
    const h = harness();
    const store = await h.open();
    const k = await store.allocateKeys(3);
    const batch = merge(withContent(dir(R, k)), withContent(node(`${R}/f`, k + 1), [k + 2]));
    expect(await codeOf(store.commit(batch))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(store.useEmbedder({ id: '', dimensions: 3 }))).toBe('INVALID_ARGUMENT');
  });

  it('keeps everything across close and reopen', async () => {
    const h = harness();
    let store = await h.open({ embedder: EMBEDDER });
    const k = await seed(store);
    await store.putSnapshot({ name: 'hnsw', seq: 2, bytes: patternBytes(1000) });
    const before = await observe(store);
    const meta = await store.meta();
    await store.close();
    store = await h.open({ embedder: EMBEDDER });
    expect(await observe(store)).toEqual(before);
    expect(await store.meta()).toEqual(meta);
    expect(sameBytes((await store.snapshot('hnsw'))?.bytes, patternBytes(1000))).toBe(true);
    expect(await store.allocateKeys(1)).toBe(k.root + 40);
  });

  it('walks a table in key order, in batches', async () => {
    const { store } = await open();
    await seed(store);
    const batches: string[][] = [];
    for await (const rows of store.scan('nodes', 2)) batches.push(rows.map((n) => n.uri));
    expect(batches).toEqual([[R, `${R}/a`], [`${R}/a/x`, `${R}/a/y`], [`${R}/ab`]]);
    const keys: number[] = [];
    for await (const rows of store.scan('vectors')) keys.push(...rows.map((v) => v.key));
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect(keys.length).toBe(4);
  });

  it('fails every call with STORE_CLOSED once closed, and forgets everything when destroyed', async () => {
    const h = harness();
    let store = await h.open({ embedder: EMBEDDER });
    await seed(store);
    await store.close();
    expect(await codeOf(store.node(R))).toBe('STORE_CLOSED');
    expect(await codeOf(store.nodes([R]))).toBe('STORE_CLOSED');
    expect(await codeOf(store.commit({}))).toBe('STORE_CLOSED');
    expect(await codeOf(store.allocateKeys(1))).toBe('STORE_CLOSED');
    expect(await codeOf(store.putSnapshot({ name: 's', seq: 0, bytes: new Uint8Array(1) }))).toBe(
      'STORE_CLOSED',
    );
    expect(await codeOf(store.verify())).toBe('STORE_CLOSED');
    expect(await codeOf(store.scan('nodes')[Symbol.asyncIterator]().next())).toBe('STORE_CLOSED');
    store = await h.open();
    await store.destroy();
    store = await h.open();
    expect(await store.stats()).toEqual({
      nodes: 0,
      vectors: 0,
      postings: 0,
      relations: 0,
      changes: 0,
      snapshots: 0,
    });
    expect(await store.meta()).toMatchObject({ seq: 0, nextKey: 1 });
    expect((await store.meta()).embedder).toBeUndefined();
  });
}
