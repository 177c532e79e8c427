// The derived indexes over IndexedDB (fake-indexeddb): what a reopen gives back must equal what
// was there, whether it came from the snapshots, from a rebuild, or from a snapshot plus replay.

import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContextTree } from '../../src/context/tree.js';
import { type DerivedIndexes, STORE_EXPANSION, snapshotNames } from '../../src/derived/derived-indexes.js';
import { LongshipError } from '../../src/errors.js';
import { postingsSection } from '../../src/lexical/bm25-snapshot.js';
import type { SnapshotSink } from '../../src/store/change-log.js';
import type { FullStore } from '../../src/store/full-store.js';
import { MemoryData } from '../../src/store/memory/memory-data.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type { WriteBatch } from '../../src/store/store.js';
import { node } from '../../src/testing/records.js';
import { loadUsearch, type UsearchModule } from '../../src/vector/usearch-module.js';
import { embedderInfo, expectCode, hashEmbedder, openParts } from '../context/fixtures.js';
import { idbHarness, type StoreHarness } from '../store/harness.js';

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

const R = 'viking://resources';
const STORE_EXPANSION_AS_SET = { add: STORE_EXPANSION.expansionAdd, search: STORE_EXPANSION.expansionSearch };
const WORDS = (
  'river mountain forest ocean desert valley glacier volcano island canyon meadow swamp ' +
  'tundra prairie reef delta lagoon plateau cliff cave dune marsh fjord geyser'
).split(' ');
const QUERIES = [
  'river forest',
  'volcano glacier ocean',
  'desert dune',
  'reef lagoon island',
  'cave cliff fjord',
];

/** Deterministic text: `count` words picked by a small LCG. */
function text(seed: number, count = 12): string {
  let x = seed * 7919 + 13;
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    words.push(WORDS[x % WORDS.length]!);
  }
  return `${words.join(' ')}.`;
}

/** A few dozen files, then overwrites, a removal, a move and a relation. */
async function populate(tree: ContextTree, from = 0, count = 40): Promise<void> {
  for (let i = from; i < from + count; i++) {
    await tree.write(`${R}/set${i % 4}/doc${i}.md`, text(i), { parents: true });
  }
  await tree.write(`${R}/set1/doc${from + 1}.md`, text(from + 1000, 200));
  await tree.rm(`${R}/set${from % 4}/doc${from}.md`);
  await tree.mv(`${R}/set2`, `viking://user/default/memories/set2-${from}`);
  await tree.link(`${R}/set3/doc${from + 3}.md`, `${R}/set1/doc${from + 1}.md`, 'related');
}

/**
 * Vector hits (keys and distances: the graph's top 10, and an exact scan's of all), BM25 hits (keys and scores) for
 * fixed queries, and every node.
 */
async function fingerprint(indexes: DerivedIndexes) {
  const vectors = await hashEmbedder.embed(QUERIES);
  return {
    size: [indexes.vectors.size, indexes.lexical.size],
    // As plain data: nodes loaded from a snapshot read their fields from it (getters).
    nodes: JSON.parse(JSON.stringify(indexes.nodes.all())),
    vector: vectors.map((query) => indexes.vectors.search(query, 10)),
    // Every vector: i8 distances tie often, and a tie at the cut would pick either key.
    exactVector: vectors.map((query) => indexes.vectors.search(query, indexes.vectors.size, { exact: true })),
    lexical: QUERIES.map((query) => indexes.lexical.search(query, { limit: 10 })),
  };
}

type Fingerprint = Awaited<ReturnType<typeof fingerprint>>;

/**
 * Same hits in the same order; or, when `exact` is false (a graph rebuilt in another order, whose
 * approximate search may differ), the same exact-scan hits and BM25 hits within float noise.
 */
function expectSame(actual: Fingerprint, expected: Fingerprint, exact: boolean): void {
  if (exact) {
    expect(actual).toEqual(expected);
    return;
  }
  expect(actual.size).toEqual(expected.size);
  expect(actual.nodes).toEqual(expected.nodes);
  // A scan may list hits at exactly the same distance in another order.
  const tiesByKey = (hits: Fingerprint['vector']) =>
    hits.map((list) => [...list].sort((a, b) => a.distance - b.distance || a.key - b.key));
  expect(tiesByKey(actual.exactVector)).toEqual(tiesByKey(expected.exactVector));
  actual.lexical.forEach((hits, q) => {
    expect(hits.map((h) => h.key)).toEqual(expected.lexical[q]!.map((h) => h.key));
    hits.forEach((hit, i) => {
      expect(hit.score).toBeCloseTo(expected.lexical[q]![i]!.score, 9);
    });
  });
}

async function openOn(harness: StoreHarness, options = {}) {
  const store = await harness.open({ embedder: embedderInfo });
  return openParts(store, usearch, options);
}

describe('reopening an IndexedDB store', () => {
  it('from its snapshots gives identical vector hits and BM25 scores', async () => {
    const harness = idbHarness(new IDBFactory());
    const first = await openOn(harness);
    expect(first.indexes.openedFrom).toEqual({ vector: 'rebuild', lexical: 'rebuild', nodes: 'rebuild' });
    await populate(first.tree);
    const before = await fingerprint(first.indexes);
    expect(before.vector[0]!.length).toBe(10);
    expect(before.lexical[0]!.length).toBeGreaterThan(0);
    await first.indexes.close();
    await first.store.close();

    const second = await openOn(harness);
    expect(second.indexes.openedFrom).toEqual({ vector: 'snapshot', lexical: 'snapshot', nodes: 'snapshot' });
    expect(second.indexes.appliedSeq).toBe((await second.store.meta()).seq);
    expectSame(await fingerprint(second.indexes), before, true);
    expect((await second.indexes.verify()).problems).toEqual([]);
    // Closing snapshotted everything, so no change is left to replay.
    expect(await second.store.changesSince(0)).toEqual([]);
  });

  for (const damage of [
    'deleted',
    'flipped byte',
    'dropped chunk',
    'garbage with a valid checksum',
  ] as const) {
    it(`with its snapshots ${damage} rebuilds, and gives the same results`, async () => {
      const harness = idbHarness(new IDBFactory());
      const first = await openOn(harness);
      await populate(first.tree);
      const before = await fingerprint(first.indexes);
      await first.indexes.close();
      const seq = (await first.store.meta()).seq;
      for (const name of Object.values(snapshotNames)) {
        if (damage === 'deleted') await first.store.deleteSnapshot(name);
        else if (damage === 'garbage with a valid checksum') {
          await first.store.putSnapshot({ name, seq, bytes: new Uint8Array(4096).fill(7) });
        }
      }
      await first.store.close();
      for (const name of Object.values(snapshotNames)) {
        if (damage === 'flipped byte') await harness.tamper.corruptSnapshot(name, 'flip-byte');
        if (damage === 'dropped chunk') await harness.tamper.corruptSnapshot(name, 'drop-chunk');
      }

      const errors: unknown[] = [];
      const second = await openOn(harness, { onError: (e: unknown) => errors.push(e) });
      expect(second.indexes.openedFrom).toEqual({ vector: 'rebuild', lexical: 'rebuild', nodes: 'rebuild' });
      // Damage the checksum catches is no error, just a missing snapshot; bytes that fail to load are.
      expect(errors.length).toBe(damage === 'garbage with a valid checksum' ? 3 : 0);
      expectSame(await fingerprint(second.indexes), before, false);
      // The next snapshot replaces the damaged one.
      await second.indexes.flush();
      expect((await second.indexes.verify()).problems).toEqual([]);
      expect(second.indexes.openedFrom).toEqual({ vector: 'rebuild', lexical: 'rebuild', nodes: 'rebuild' });
      const third = await openOn(harness);
      expect(third.indexes.openedFrom).toEqual({
        vector: 'snapshot',
        lexical: 'snapshot',
        nodes: 'snapshot',
      });
      expectSame(await fingerprint(third.indexes), before, false);
    });
  }

  it('a snapshot taken at seq S plus the commits after it replays to the same state', async () => {
    const factory = new IDBFactory();
    const harness = idbHarness(factory);
    const first = await openOn(harness);
    await populate(first.tree, 0);
    await first.indexes.flush();
    const snapshotSeq = (await first.store.snapshot(snapshotNames.vector))!.seq;
    expect(snapshotSeq).toBe((await first.store.meta()).seq);
    // After the snapshot: more files, overwrites, a removal, a move.
    await populate(first.tree, 40);
    const live = await fingerprint(first.indexes);
    const seq = (await first.store.meta()).seq;
    expect(seq).toBeGreaterThan(snapshotSeq + 40);
    // A crash: nothing closes, no snapshot is written. Another connection opens the database.
    const second = await openOn(harness);
    expect(second.indexes.openedFrom).toEqual({ vector: 'snapshot', lexical: 'snapshot', nodes: 'snapshot' });
    expect(second.indexes.appliedSeq).toBe(seq);
    expectSame(await fingerprint(second.indexes), live, false);
    expect((await second.indexes.verify()).problems).toEqual([]);

    // And it equals a rebuild from the stored records.
    await second.indexes.close({ snapshot: false });
    for (const name of Object.values(snapshotNames)) await second.store.deleteSnapshot(name);
    const third = await openOn(harness);
    expect(third.indexes.openedFrom).toEqual({ vector: 'rebuild', lexical: 'rebuild', nodes: 'rebuild' });
    expectSame(await fingerprint(third.indexes), live, false);
  });

  it('rebuilds a side whose change log was pruned past its snapshot', async () => {
    const harness = idbHarness(new IDBFactory());
    const first = await openOn(harness);
    await populate(first.tree, 0, 12);
    await first.indexes.flush();
    await populate(first.tree, 12, 12);
    const live = await fingerprint(first.indexes);
    // Someone else forgot the changes the snapshot still needs.
    await first.store.pruneChanges((await first.store.meta()).seq - 1);
    const second = await openOn(harness);
    expect(second.indexes.openedFrom).toEqual({ vector: 'rebuild', lexical: 'rebuild', nodes: 'rebuild' });
    expectSame(await fingerprint(second.indexes), live, false);
  });
});

describe('a BM25 index opened from its snapshot', () => {
  it('reads its postings as searches need them, the rest at its first removal, then lets the reader go', async () => {
    const data = new MemoryData();
    const first = await openParts(await openMemoryStore({ embedder: embedderInfo, data }), usearch);
    await populate(first.tree);
    const before = QUERIES.map((query) => first.indexes.lexical.search(query, { limit: 10 }));
    await first.indexes.close();

    // The memory store offers the snapshot's pieces as ranges; count what the index reads of them.
    const raw = await openMemoryStore({ embedder: embedderInfo, data });
    const seen = { bytes: 0, closes: 0, postings: 0 };
    const spied = new Proxy(raw, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (property !== 'snapshotInto') return typeof value === 'function' ? value.bind(target) : value;
        return (name: string, open: (length: number, ranged: boolean) => SnapshotSink) =>
          target.snapshotInto(name, (length, ranged) => {
            const sink = open(length, ranged);
            if (name !== snapshotNames.lexical || !sink.adopt) return sink;
            const adopt = sink.adopt.bind(sink);
            sink.adopt = (ranges) => {
              const section = postingsSection((sink as unknown as { bytes: Uint8Array }).bytes, length)!;
              seen.postings = section.end - section.start;
              adopt({
                read: (into, at) => {
                  seen.bytes += into.length;
                  ranges.read(into, at);
                },
                close: () => {
                  seen.closes++;
                  ranges.close();
                },
              });
            };
            return sink;
          });
      },
    });
    const second = await openParts(spied, usearch);
    expect(second.indexes.openedFrom.lexical).toBe('snapshot');
    expect(seen.postings).toBeGreaterThan(0);
    expect(seen.bytes).toBe(0);
    expect(QUERIES.map((query) => second.indexes.lexical.search(query, { limit: 10 }))).toEqual(before);
    expect(seen.bytes).toBeGreaterThan(0);
    expect(seen.bytes).toBeLessThanOrEqual(seen.postings);
    expect(seen.closes).toBe(0);
    await second.tree.rm(`${R}/set1/doc1.md`);
    expect(seen.bytes).toBe(seen.postings);
    expect(seen.closes).toBe(1);
    expect((await second.indexes.verify()).problems).toEqual([]);
    await second.indexes.close();
    expect(seen.closes).toBe(1);

    // Closed before it read them all, the indexes let the reader go too.
    seen.closes = 0;
    const third = await openParts(spied, usearch);
    expect(third.indexes.openedFrom.lexical).toBe('snapshot');
    await third.indexes.close({ snapshot: false });
    expect(seen.closes).toBe(1);
  });
});

describe('a graph opened from its snapshot', () => {
  it('is a view until the first vector write, then a writable copy with the same answers', async () => {
    const harness = idbHarness(new IDBFactory());
    const first = await openOn(harness);
    await populate(first.tree, 0, 12);
    await first.indexes.close();

    const second = await openOn(harness);
    expect(second.indexes.openedFrom.vector).toBe('snapshot');
    expect(second.indexes.vectors.readOnly).toBe(true);
    // The snapshot does not keep the store's expansions: they are set again, and carry to the copy.
    expect(second.indexes.vectors.expansion).toEqual(STORE_EXPANSION_AS_SET);
    const before = await fingerprint(second.indexes);
    // A relation writes no vector: still the view.
    await second.tree.link(`${R}/set0/doc4.md`, `${R}/set1/doc5.md`, 'related');
    expect(second.indexes.vectors.readOnly).toBe(true);
    await second.tree.write(`${R}/set0/new.md`, text(999), { parents: true });
    expect(second.indexes.vectors.readOnly).toBe(false);
    expect(second.indexes.vectors.expansion).toEqual(STORE_EXPANSION_AS_SET);
    expect(second.indexes.vectors.size).toBe(before.size[0]! + 1);
    await second.tree.rm(`${R}/set0/new.md`);
    expectSame(await fingerprint(second.indexes), before, true);
    expect((await second.indexes.verify()).problems).toEqual([]);
  });
});

describe('the vector index settings', () => {
  it('default to i8; a snapshot made with other settings is rebuilt in the ones asked for', async () => {
    const harness = idbHarness(new IDBFactory());
    const first = await openOn(harness);
    expect(first.indexes.vectors.quantization).toBe('i8');
    expect(first.indexes.vectors.expansion).toEqual(STORE_EXPANSION_AS_SET);
    await populate(first.tree, 0, 12);
    const live = await fingerprint(first.indexes);
    await first.indexes.close();

    const f32 = await openOn(harness, { vectorIndex: { quantization: 'f32', expansionSearch: 40 } });
    expect(f32.indexes.openedFrom.vector).toBe('rebuild');
    expect(f32.indexes.vectors.quantization).toBe('f32');
    // Settings given override the store's defaults one by one.
    expect(f32.indexes.vectors.expansion).toEqual({ add: STORE_EXPANSION.expansionAdd, search: 40 });
    expect(f32.indexes.vectors.size).toBe(live.size[0]);
    expect((await f32.indexes.verify()).problems).toEqual([]);
    await f32.indexes.close();

    const again = await openOn(harness, { vectorIndex: { quantization: 'f32' } });
    expect(again.indexes.openedFrom.vector).toBe('snapshot');
    expect(again.indexes.vectors.quantization).toBe('f32');
  });
});

describe('snapshots in the background', () => {
  it('are written after a quiet spell, then the change log is pruned', async () => {
    const { store, tree, indexes } = await openParts(
      await openMemoryStore({ embedder: embedderInfo }),
      usearch,
      { snapshotDelayMs: 20 },
    );
    await populate(tree, 0, 8);
    await waitFor(
      async () => (await store.snapshot(snapshotNames.lexical))?.seq === (await store.meta()).seq,
    );
    expect((await store.snapshot(snapshotNames.vector))!.seq).toBe((await store.meta()).seq);
    await waitFor(async () => (await store.changesSince(0)).length === 0);
    await tree.write(`${R}/late.md`, 'A late file.');
    await waitFor(async () => (await store.snapshot(snapshotNames.vector))?.seq === (await store.meta()).seq);
    expect((await indexes.verify()).problems).toEqual([]);
    await indexes.close();
  });

  it('wait while changes keep coming, but never past the longest delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const raw = await openMemoryStore({ embedder: embedderInfo });
      const saves: number[] = [];
      const store = withPutSnapshot(raw, async (input) => {
        if (input.name === snapshotNames.vector) saves.push(Date.now());
        await raw.putSnapshot(input);
      });
      const { tree, indexes } = await openParts(store, usearch, {
        snapshotDelayMs: 200,
        snapshotMaxDelayMs: 1000,
      });
      const started = Date.now();
      const writeEvery = async (ms: number, count: number, name: string) => {
        for (let i = 0; i < count; i++) {
          await tree.write(`${R}/${name}-${i}.md`, text(i));
          await vi.advanceTimersByTimeAsync(ms);
        }
      };
      // A change every 100 ms: no quiet spell of 200 ms, so the snapshot waits for its deadline.
      await writeEvery(100, 8, 'steady');
      expect(saves).toEqual([]);
      await writeEvery(100, 4, 'more');
      expect(saves).toHaveLength(1);
      expect(saves[0]! - started).toBeGreaterThanOrEqual(1000);
      expect(saves[0]! - started).toBeLessThan(1100);
      // Then one change, and quiet: saved 200 ms later.
      const last = Date.now();
      await tree.write(`${R}/last.md`, text(99));
      await vi.advanceTimersByTimeAsync(150);
      expect(saves).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(100);
      expect(saves).toHaveLength(2);
      expect(saves[1]! - last).toBeGreaterThanOrEqual(200);
      await vi.advanceTimersByTimeAsync(1000);
      expect((await raw.snapshot(snapshotNames.vector))!.seq).toBe((await raw.meta()).seq);
      await indexes.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('wait for enough changes (or flush, or close), and the ones an open replays count on', async () => {
    // Fake time: "no snapshot yet" holds past every delay, not just for as long as a sleep lasted.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const data = new MemoryData();
      const raw = await openMemoryStore({ embedder: embedderInfo, data });
      const seqOf = async () => (await raw.snapshot(snapshotNames.vector))?.seq;
      // A note is a node, a vector and a posting; its directory is written again with it.
      const afterChanges = 30;
      const first = await openParts(raw, usearch, { snapshotDelayMs: 5, snapshotAfterChanges: afterChanges });
      // A side with no snapshot is due at once, whatever the count.
      await first.tree.write(`${R}/a/0.md`, text(0), { parents: true });
      await waitFor(async () => (await seqOf()) === (await raw.meta()).seq);
      const saved = (await seqOf())!;
      for (let i = 1; i <= 3; i++) await first.tree.write(`${R}/a/${i}.md`, text(i));
      // Past the delay and the longest delay (30 s by default), then any save those timers began.
      await vi.advanceTimersByTimeAsync(60_000);
      await turns();
      expect(await seqOf()).toBe(saved);
      // The records those three notes changed, each a step of a replay.
      const pending = (await raw.changesSince(saved))
        .flatMap((c) => [c.addedNodeKeys, c.removedNodeKeys, c.addedVectorKeys, c.removedVectorKeys])
        .concat((await raw.changesSince(saved)).flatMap((c) => [c.addedPostingKeys, c.removedPostingKeys]))
        .reduce((sum, keys) => sum + keys.length, 0);
      expect(pending).toBeGreaterThan(0);
      expect(pending).toBeLessThan(afterChanges);
      // Not closed, as a tab that is killed: the next open replays what the snapshot lacks.
      const live = await fingerprint(first.indexes);
      const second = await openParts(await openMemoryStore({ embedder: embedderInfo, data }), usearch, {
        snapshotDelayMs: 5,
        snapshotAfterChanges: afterChanges,
      });
      expect(second.indexes.openedFrom).toEqual({
        vector: 'snapshot',
        lexical: 'snapshot',
        nodes: 'snapshot',
      });
      expectSame(await fingerprint(second.indexes), live, true);
      // What it replayed counts towards the next snapshot with what comes after it.
      let written = 3;
      while ((await seqOf()) === saved) {
        expect(written).toBeLessThan(afterChanges);
        written++;
        await second.tree.write(`${R}/a/${written}.md`, text(written));
        await vi.advanceTimersByTimeAsync(5);
        await turns();
      }
      expect(await seqOf()).toBe((await raw.meta()).seq);
      // Only the notes that the replayed ones left to the count: as many as a session from the snapshot
      // would have needed less the first three.
      const perNote = pending / 3;
      expect(written - 3).toBeLessThanOrEqual(Math.ceil((afterChanges - pending) / perNote) + 1);
      await second.tree.write(`${R}/a/last.md`, text(99));
      await second.indexes.close();
      expect(await seqOf()).toBe((await raw.meta()).seq);
      await first.indexes.close({ snapshot: false });
    } finally {
      vi.useRealTimers();
    }
  });

  it('that fail do not affect commits, are retried, and leave the log for replay', async () => {
    const raw = await openMemoryStore({ embedder: embedderInfo });
    let failing = true;
    let attempts = 0;
    const store = withPutSnapshot(raw, async (input) => {
      attempts++;
      if (failing) throw new Error('quota exceeded (simulated)');
      await raw.putSnapshot(input);
    });
    const errors: unknown[] = [];
    const { tree, indexes } = await openParts(store, usearch, {
      snapshotDelayMs: 5,
      onError: (e: unknown) => errors.push(e),
    });
    await populate(tree, 0, 8);
    await waitFor(async () => attempts >= 2);
    await tree.write(`${R}/after-failures.md`, 'Written while snapshots fail.');
    expect(await tree.read(`${R}/after-failures.md`)).toBe('Written while snapshots fail.');
    expect(indexes.lexical.search('failures')).toHaveLength(1);
    expect((await indexes.verify()).problems).toEqual([]);
    await expect(indexes.flush()).rejects.toThrow('quota exceeded');
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(await raw.snapshot(snapshotNames.vector)).toBeUndefined();
    expect((await raw.changesSince(0)).length).toBe((await raw.meta()).seq);

    failing = false;
    await indexes.flush();
    expect((await raw.snapshot(snapshotNames.vector))!.seq).toBe((await raw.meta()).seq);
    expect(await raw.changesSince(0)).toEqual([]);
    await indexes.close();
  });

  it('are serialized one side at a time, so a commit lands between them and the later sides hold it', async () => {
    const raw = await openMemoryStore({ embedder: embedderInfo });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let graphWriting!: () => void;
    const writing = new Promise<void>((resolve) => {
      graphWriting = resolve;
    });
    const store = withPutSnapshot(raw, async (input) => {
      if (input.name === snapshotNames.vector) {
        graphWriting();
        await held;
      }
      await raw.putSnapshot(input);
    });
    const { tree, indexes } = await openParts(store, usearch);
    await populate(tree, 0, 8);
    const before = (await raw.meta()).seq;
    const flushed = indexes.flush();
    await writing;
    // The graph's snapshot is being written: a write goes through, and into every side.
    await tree.write(`${R}/between.md`, 'A glacier written between two snapshots.');
    const after = (await raw.meta()).seq;
    expect(after).toBeGreaterThan(before);
    release();
    await flushed;
    expect((await raw.snapshot(snapshotNames.vector))!.seq).toBe(before);
    // Serialized after the graph's write, BM25 and the catalogue hold the write made during it.
    expect((await raw.snapshot(snapshotNames.lexical))!.seq).toBe(after);
    expect((await raw.snapshot(snapshotNames.nodes))!.seq).toBe(after);
    const live = await fingerprint(indexes);
    await indexes.close({ snapshot: false });
    // Reopened: the graph replays the write from the log, the others have it already.
    const reopened = await openParts(raw, usearch);
    expect(reopened.indexes.openedFrom).toEqual({
      vector: 'snapshot',
      lexical: 'snapshot',
      nodes: 'snapshot',
    });
    expectSame(await fingerprint(reopened.indexes), live, false);
    expect((await reopened.indexes.verify()).problems).toEqual([]);
    await reopened.indexes.close();
  });

  it('when only one side saves, the log is pruned only as far as that side, and reopening still agrees', async () => {
    const raw = await openMemoryStore({ embedder: embedderInfo });
    const store = withPutSnapshot(raw, async (input) => {
      if (input.name === snapshotNames.lexical) throw new Error('no room');
      await raw.putSnapshot(input);
    });
    const first = await openParts(store, usearch, { onError: () => undefined });
    await populate(first.tree, 0, 8);
    await expect(first.indexes.flush()).rejects.toThrow('no room');
    await first.tree.write(`${R}/x.md`, 'river valley');
    const live = await fingerprint(first.indexes);
    await first.indexes.close();
    const second = await openParts(raw, usearch);
    // The node catalogue is written after the BM25 index: the failure stopped it too.
    expect(second.indexes.openedFrom).toEqual({ vector: 'snapshot', lexical: 'rebuild', nodes: 'rebuild' });
    expectSame(await fingerprint(second.indexes), live, false);
  });
});

describe('catching up on a commit', () => {
  it('takes its own commit from the store without asking it anything, and reads back one another writer made', async () => {
    const data = new MemoryData();
    const raw = await openMemoryStore({ embedder: embedderInfo, data });
    const reads: string[] = [];
    const counted = new Proxy(raw, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (['meta', 'changesSince', 'vectors', 'posting', 'nodeByKey'].includes(String(property)))
            reads.push(String(property));
          return value.apply(target, args);
        };
      },
    });
    const { tree, indexes } = await openParts(counted, usearch);
    await populate(tree, 0, 4);
    const key = await raw.allocateKeys(4);
    const note = async (uri: string, nodeKey: number, vectorKey: number, body: string) => ({
      putNodes: [node(uri, nodeKey, { l0: body })],
      putPostings: [{ key: nodeKey, body }],
      putVectors: [{ key: vectorKey, nodeKey, chunk: 0, vector: (await hashEmbedder.embed([body]))[0]! }],
    });

    reads.length = 0;
    await indexes.store.commit(await note(`${R}/own.md`, key, key + 1, 'heron marsh'));
    expect(reads).toEqual([]);
    expect(indexes.lexical.search('heron').map((hit) => hit.key)).toEqual([key]);
    const [query] = await hashEmbedder.embed(['heron marsh']);
    expect(indexes.vectors.search(query!, 1)[0]!.key).toBe(key + 1);
    expect(indexes.nodes.node(`${R}/own.md`)?.key).toBe(key);

    // Written past the indexes, as another tab would: read back at the next catch-up.
    const other = await openMemoryStore({ embedder: embedderInfo, data });
    await other.commit(await note(`${R}/other.md`, key + 2, key + 3, 'egret shore'));
    await indexes.catchUp();
    expect(reads).toEqual(
      expect.arrayContaining(['meta', 'changesSince', 'vectors', 'posting', 'nodeByKey']),
    );
    expect(indexes.lexical.search('egret').map((hit) => hit.key)).toEqual([key + 2]);
    expect((await indexes.verify()).problems).toEqual([]);
    await indexes.close();
  });
});

/**
 * A memory store whose commits report their writes issued (as IdbStore does), then wait for the
 * test to let them go, committing or failing.
 */
function gatedStore(raw: FullStore) {
  let release: ((commit: boolean) => void) | undefined;
  let issued: (() => void) | undefined;
  const gated = new Proxy(raw, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property !== 'commit') return typeof value === 'function' ? value.bind(target) : value;
      return async (batch: WriteBatch, signal?: AbortSignal, onIssued?: () => void) => {
        if (!release) return target.commit(batch, signal, onIssued);
        onIssued?.();
        const commit = await new Promise<boolean>((resolve) => {
          release = resolve;
          issued?.();
        });
        if (!commit) throw new LongshipError('QUOTA_EXCEEDED', 'the disk is full');
        return target.commit(batch, signal);
      };
    },
  });
  return {
    store: gated,
    /** The next commit waits; resolves once it has issued its writes. */
    hold: () =>
      new Promise<void>((resolve) => {
        release = () => {};
        issued = resolve;
      }),
    let: (commit: boolean) => {
      const go = release!;
      release = undefined;
      go(commit);
    },
  };
}

describe('a commit under way', () => {
  /** Indexes over a gated memory store with a few notes, and a note's commit held once it is issued. */
  async function underWay(data: MemoryData, name: string) {
    const raw = await openMemoryStore({ embedder: embedderInfo, data });
    const gate = gatedStore(raw);
    const { tree, indexes } = await openParts(gate.store, usearch);
    await populate(tree, 0, 8);
    const size = indexes.vectors.size;
    const key = await raw.allocateKeys(2);
    const body = 'heron marsh';
    const vector = (await hashEmbedder.embed([body]))[0]!;
    const held = gate.hold();
    const committing = indexes.store.commit({
      putNodes: [node(`${R}/${name}.md`, key, { l0: body })],
      putPostings: [{ key, body }],
      putVectors: [{ key: key + 1, nodeKey: key, chunk: 0, vector }],
    });
    await held;
    return { gate, indexes, size, key, vector, committing };
  }

  it('has its vectors in the graph already, without owners, which it gets once committed', async () => {
    const { gate, indexes, size, key, vector, committing } = await underWay(new MemoryData(), 'early');
    expect(indexes.vectors.contains(key + 1)).toBe(true);
    expect(indexes.nodeOfVector(key + 1)).toBeUndefined();
    gate.let(true);
    await committing;
    expect(indexes.nodeOfVector(key + 1)).toBe(key);
    expect(indexes.vectors.size).toBe(size + 1);
    expect(indexes.vectors.search(vector, 1)[0]!.key).toBe(key + 1);
    expect((await indexes.verify()).problems).toEqual([]);
    await indexes.close();
  });

  it('that fails takes its vectors out again, and a snapshot waits for it', async () => {
    const data = new MemoryData();
    const { gate, indexes, size, key, committing } = await underWay(data, 'lost');
    expect(indexes.vectors.contains(key + 1)).toBe(true);
    let flushed = false;
    const flushing = indexes.flush().then(() => {
      flushed = true;
    });
    // Every step the flush can take before it must wait for the commit: each side hops a task.
    await turns();
    expect(flushed).toBe(false);
    gate.let(false);
    await expectCode(committing, 'QUOTA_EXCEEDED');
    await flushing;
    expect(indexes.vectors.contains(key + 1)).toBe(false);
    expect(indexes.vectors.size).toBe(size);
    expect((await indexes.verify()).problems).toEqual([]);
    await indexes.close();

    // The snapshot was taken without it: the reopened graph has no vector the store lacks.
    const reopened = await openParts(await openMemoryStore({ embedder: embedderInfo, data }), usearch);
    expect(reopened.indexes.openedFrom.vector).toBe('snapshot');
    expect(reopened.indexes.vectors.contains(key + 1)).toBe(false);
    expect((await reopened.indexes.verify()).problems).toEqual([]);
    await reopened.indexes.close();
  });

  it('that a closing of the indexes overtakes leaves no vector behind in the closing snapshot', async () => {
    const data = new MemoryData();
    const { gate, indexes, key, committing } = await underWay(data, 'late');
    const closing = indexes.close();
    gate.let(true);
    await committing;
    await closing;
    // Committed, but after the indexes stopped applying commits: the reopen replays it.
    const reopened = await openParts(await openMemoryStore({ embedder: embedderInfo, data }), usearch);
    expect(reopened.indexes.openedFrom.vector).toBe('snapshot');
    expect(reopened.indexes.nodeOfVector(key + 1)).toBe(key);
    expect((await reopened.indexes.verify()).problems).toEqual([]);
    await reopened.indexes.close();
  });
});

describe('snapshots of sides a change left alone', () => {
  it('are not written again after a use recorded or a relation, and reopen agrees', async () => {
    const raw = await openMemoryStore({ embedder: embedderInfo });
    const written: string[] = [];
    const store = withPutSnapshot(raw, async (input) => {
      written.push(input.name);
      await raw.putSnapshot(input);
    });
    const first = await openParts(store, usearch);
    await populate(first.tree, 0, 8);
    await first.indexes.flush();
    const graphSeq = (await raw.snapshot(snapshotNames.vector))!.seq;
    const bm25Seq = (await raw.snapshot(snapshotNames.lexical))!.seq;
    written.length = 0;
    const used = `${R}/set1/doc1.md`;
    await first.indexes.store.commit({ useNodes: [{ uri: used, at: 1234 }] });
    await first.tree.link(`${R}/set1/doc1.md`, `${R}/set3/doc3.md`, 'see also');
    await first.indexes.flush();
    // Only the catalogue held something new (the use count); the graph and BM25 are as they were.
    expect(written).toEqual([snapshotNames.nodes]);
    expect((await raw.snapshot(snapshotNames.vector))!.seq).toBe(graphSeq);
    expect((await raw.snapshot(snapshotNames.lexical))!.seq).toBe(bm25Seq);
    // The log keeps what the oldest snapshot lacks, so a reopen replays it.
    expect((await raw.changesSince(graphSeq)).length).toBeGreaterThan(0);
    const live = await fingerprint(first.indexes);
    await first.indexes.close();
    const second = await openParts(raw, usearch);
    expect(second.indexes.openedFrom).toEqual({ vector: 'snapshot', lexical: 'snapshot', nodes: 'snapshot' });
    expectSame(await fingerprint(second.indexes), live, true);
    expect(second.indexes.nodes.node(used)).toMatchObject({ useCount: 1, lastUsedAt: 1234 });
    expect((await second.indexes.verify()).problems).toEqual([]);
    await second.indexes.close();
  });
});

describe('catching up', () => {
  it('picks up commits made on the store directly', async () => {
    const raw = await openMemoryStore({ embedder: embedderInfo });
    const { indexes, tree } = await openParts(raw, usearch);
    await tree.write(`${R}/a.md`, 'river');
    const node = (await raw.node(`${R}/a.md`))!;
    const [vector] = await hashEmbedder.embed(['glacier']);
    const key = await raw.allocateKeys(1);
    await raw.commit({
      putPostings: [{ key: node.key, title: 'a.md', body: 'glacier' }],
      deleteVectorsOfNodes: [node.key],
      putVectors: [{ key, nodeKey: node.key, chunk: 0, vector: vector! }],
    });
    expect(indexes.lexical.search('glacier')).toEqual([]);
    await indexes.catchUp();
    expect(indexes.lexical.search('glacier').map((h) => h.key)).toEqual([node.key]);
    expect(indexes.vectors.search(vector!, 1)[0]).toEqual({ key, distance: expect.any(Number) });
    expect((await indexes.verify()).problems).toEqual([]);
  });

  it('verify() reports an index that disagrees with the store', async () => {
    const raw = await openMemoryStore({ embedder: embedderInfo });
    const { indexes, tree } = await openParts(raw, usearch);
    await tree.write(`${R}/a.md`, 'river');
    await tree.write(`${R}/b.md`, 'ocean');
    // verify() spot-checks BM25 on every seventh posting: with the roots before them, these seven
    // files hold one it checks, whatever the number of roots.
    const words = ['lake', 'delta', 'creek', 'bay', 'fjord', 'lagoon', 'strait'];
    for (const word of words) await tree.write(`${R}/${word}.md`, word);
    const node = (await raw.node(`${R}/a.md`))!;
    const [record] = await raw.vectorsOfNode(node.key);
    indexes.vectors.remove(record!.key);
    for (const word of words) {
      const key = (await raw.node(`${R}/${word}.md`))!.key;
      indexes.lexical.replace({ key, body: 'something else entirely' });
    }
    indexes.vectors.add(999_999, new Float32Array(record!.vector));
    const { ok, problems } = await indexes.verify();
    expect(ok).toBe(false);
    expect(problems.join('\n')).toMatch(/vector \d+ is stored but not in the vector index/);
    expect(problems.join('\n')).toMatch(/BM25 scores/);
  });
});

/** The same store, with putSnapshot replaced. */
function withPutSnapshot(store: FullStore, putSnapshot: FullStore['putSnapshot']): FullStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'putSnapshot') return putSnapshot;
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Polls `condition`; under fake timers each poll moves time on 10 ms and lets the event loop turn. */
async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    if (vi.isFakeTimers()) {
      await vi.advanceTimersByTimeAsync(10);
      await turns(1);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/**
 * Turns of the event loop (setImmediate, which the fake timers leave real): enough for work already
 * under way to reach whatever it waits on, however slow the machine, where a sleep of some
 * milliseconds may pass before the work has run at all.
 */
async function turns(count = 20): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}
