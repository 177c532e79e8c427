import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { functionEmbedder } from '../src/embed/function-embedder.js';
import { indexesOf, openLongship } from '../src/engine.js';
import { LongshipError } from '../src/errors.js';
import { openIdbStore } from '../src/store/idb/idb-open.js';
import { MemoryData } from '../src/store/memory/memory-data.js';
import { openMemoryStore } from '../src/store/memory/memory-store.js';
import { embedderInfo, hashEmbedder, uriOfVector } from './context/fixtures.js';

const R = 'viking://resources';

describe('openLongship', () => {
  it('wires the tree to the store and indexes, and close() snapshots them', async () => {
    const indexedDB = new IDBFactory();
    const longship = await openLongship({
      embedder: hashEmbedder,
      store: { indexedDB: 'engine-a', factory: indexedDB },
    });
    expect((await longship.ls('viking://')).map((n) => n.name)).toEqual(['resources', 'user', 'agent']);
    await longship.write(`${R}/notes/river.md`, 'The river floods every spring.', { parents: true });
    await longship.link(`${R}/notes/river.md`, `${R}/notes`, 'lives in');
    expect(indexesOf(longship).lexical.search('floods')).toHaveLength(1);
    // The indexes' type is not the package's: they are not on the public object (issue 34).
    expect(Object.keys(longship)).not.toContain('indexes');
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();

    const again = await openLongship({
      embedder: hashEmbedder,
      store: { indexedDB: 'engine-a', factory: indexedDB },
    });
    expect(indexesOf(again).openedFrom).toEqual({
      vector: 'snapshot',
      lexical: 'snapshot',
      nodes: 'snapshot',
    });
    expect(await again.read(`${R}/notes/river.md`)).toBe('The river floods every spring.');
    expect(await again.relations(`${R}/notes`)).toHaveLength(1);
    await again.close();
  });

  it('snapshots the indexes after the quiet spell asked for, once enough changed, or with Infinity only at close()', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const hnswSeq = async (data: MemoryData) =>
        (await (await openMemoryStore({ data })).snapshot('hnsw'))?.seq;
      const soon = new MemoryData();
      const longship = await openLongship({
        embedder: hashEmbedder,
        store: await openMemoryStore({ embedder: embedderInfo, data: soon }),
        snapshots: { delayMs: 500 },
      });
      await longship.write(`${R}/notes/river.md`, 'The river floods every spring.', { parents: true });
      await vi.advanceTimersByTimeAsync(400);
      expect(await hnswSeq(soon)).toBeUndefined();
      await vi.advanceTimersByTimeAsync(200);
      expect(await hnswSeq(soon)).toBe((await longship.store.meta()).seq);
      await longship.close();

      // With afterChanges, a note too few to be due waits for close().
      const patient = await openLongship({
        embedder: hashEmbedder,
        store: await openMemoryStore({ embedder: embedderInfo, data: soon }),
        snapshots: { delayMs: 500, afterChanges: 64 },
      });
      const first = await hnswSeq(soon);
      await patient.write(`${R}/notes/creek.md`, 'The creek runs dry in August.');
      await vi.advanceTimersByTimeAsync(120_000);
      expect(await hnswSeq(soon)).toBe(first);
      const last = (await patient.store.meta()).seq;
      await patient.close();
      expect(await hnswSeq(soon)).toBe(last);

      const late = new MemoryData();
      const never = await openLongship({
        embedder: hashEmbedder,
        store: await openMemoryStore({ embedder: embedderInfo, data: late }),
        snapshots: { delayMs: Number.POSITIVE_INFINITY },
      });
      await never.write(`${R}/notes/lake.md`, 'The lake freezes every winter.', { parents: true });
      await vi.advanceTimersByTimeAsync(120_000);
      expect(await hnswSeq(late)).toBeUndefined();
      const { seq } = await never.store.meta();
      await never.close();
      expect(await hnswSeq(late)).toBe(seq);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a find() waiting on its query embedding survives the write that makes the reopened graph writable', async () => {
    const indexedDB = new IDBFactory();
    const first = await openLongship({
      embedder: hashEmbedder,
      store: { indexedDB: 'engine-view', factory: indexedDB },
    });
    await first.write(`${R}/notes/river.md`, 'The river floods every spring.', { parents: true });
    await first.close();

    // Query embeddings wait for a gate; the documents' embeddings do not.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const gated = functionEmbedder({
      id: hashEmbedder.id,
      dimensions: hashEmbedder.dimensions,
      embed: async (texts) => {
        if (texts.some((text) => text.startsWith('river'))) await gate;
        return hashEmbedder.embed(texts);
      },
    });
    const again = await openLongship({
      embedder: gated,
      store: { indexedDB: 'engine-view', factory: indexedDB },
    });
    expect(indexesOf(again).vectors.readOnly).toBe(true);
    const finding = again.find('river floods');
    await again.write(`${R}/notes/lake.md`, 'The lake freezes every winter.');
    expect(indexesOf(again).vectors.readOnly).toBe(false);
    open();
    const { resources } = await finding;
    expect(resources.map((r) => r.uri)).toContain(`${R}/notes/river.md`);
    await again.close();
  });

  it('uses the store it is given, and refuses one written by another embedder', async () => {
    const store = await openMemoryStore({ embedder: { id: 'other-model', dimensions: 32 } });
    const error = await openLongship({ store, embedder: hashEmbedder }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('EMBEDDER_MISMATCH');

    const mine = await openMemoryStore({ embedder: embedderInfo });
    const longship = await openLongship({ store: mine, embedder: hashEmbedder });
    await longship.write(`${R}/a.md`, 'alpha');
    expect((await mine.node(`${R}/a.md`))!.l2).toBe('alpha');
    await longship.close();
  });

  it('defaults to the runtime IndexedDB, and to memory where there is none', async () => {
    const first = await openLongship({ embedder: hashEmbedder, store: { indexedDB: 'engine-default' } });
    await first.write(`${R}/kept.md`, 'kept');
    await first.close();
    const second = await openLongship({ embedder: hashEmbedder, store: { indexedDB: 'engine-default' } });
    expect(await second.read(`${R}/kept.md`)).toBe('kept');
    await second.close();
    const byDefault = await openLongship({ embedder: hashEmbedder });
    expect(byDefault.persistent).toBe(true);
    await byDefault.close();

    const global = globalThis as { indexedDB?: IDBFactory };
    const saved = global.indexedDB;
    delete global.indexedDB;
    try {
      const inMemory = await openLongship({ embedder: hashEmbedder });
      expect(inMemory.persistent).toBe(false);
      await inMemory.close();
      // A database asked for by name is not quietly kept in memory instead.
      await expect(
        openLongship({ embedder: hashEmbedder, store: { indexedDB: 'engine-default' } }),
      ).rejects.toThrow(/no IndexedDB for store: \{ indexedDB: 'engine-default' \}; give its factory/);
    } finally {
      global.indexedDB = saved;
    }
  });

  it('adds resources and skills through the queue, into the indexes', async () => {
    const longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
    const heard: string[] = [];
    const job = longship.addResource('# Tides\n\nThe moon pulls the oceans into tides.\n', {
      name: 'tides.md',
      onProgress: (p) => heard.push(p.phase),
    });
    const skill = longship.addSkill({
      name: 'Forecast tides',
      description: 'Predict high and low tide times.',
      content: 'Look up the harbour tables.',
    });
    const summary = await longship.waitProcessed();
    expect(summary.done).toBe(2);
    const { uris } = await job;
    expect(uris).toEqual([`${R}/tides.md`]);
    expect(heard).toContain('write');
    expect((await skill).uris[0]).toMatch(/^viking:\/\/agent\/skills\//);
    // Ingestion also refreshes the summaries of the directories above, so they match too.
    const hits = indexesOf(longship).lexical.search('moon oceans');
    const found = await Promise.all(hits.map(async (hit) => (await longship.store.nodeByKey(hit.key))!.uri));
    expect(found).toContain(`${R}/tides.md`);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
});

describe('openLongship find()', () => {
  const uris = (result: { resources: { uri: string }[] }) => result.resources.map((item) => item.uri);

  it('finds what was written, by keyword and by chunk, in both modes', async () => {
    const longship = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
    await longship.write(`${R}/ops/errors.md`, 'ERR_QUOTA_EXCEEDED means the disk is full.', {
      parents: true,
    });
    await longship.write(`${R}/ops/tides.md`, 'The moon pulls the oceans into tides.');
    for (const mode of ['quick', 'thinking'] as const) {
      const result = await longship.find('ERR_QUOTA_EXCEEDED', { mode, filter: { kind: 'file' } });
      expect(uris(result)[0]).toBe(`${R}/ops/errors.md`);
    }
    await longship.rm(`${R}/ops/errors.md`);
    expect(uris(await longship.find('ERR_QUOTA_EXCEEDED', { filter: { kind: 'file' } }))).not.toContain(
      `${R}/ops/errors.md`,
    );
    await longship.close();
  });

  it('knows which node owns each vector after a reopen from snapshots, and after a rebuild', async () => {
    const indexedDB = new IDBFactory();
    const first = await openLongship({
      embedder: hashEmbedder,
      store: { indexedDB: 'engine-owners', factory: indexedDB },
    });
    await first.write(`${R}/a/river.md`, 'The river floods every spring.', { parents: true });
    await first.write(`${R}/a/desert.md`, 'Sand dunes shift in the desert wind.');
    const before = uris(await first.find('river floods', { filter: { kind: 'file' } }));
    await first.close();

    const reopened = await openLongship({
      embedder: hashEmbedder,
      store: { indexedDB: 'engine-owners', factory: indexedDB },
    });
    expect(indexesOf(reopened).openedFrom.vector).toBe('snapshot');
    expect(uris(await reopened.find('river floods', { filter: { kind: 'file' } }))).toEqual(before);
    expect((await reopened.verify()).problems).toEqual([]);
    await reopened.close();
    // Owners from another seq than the graph (a crash between the two writes) force a rebuild.
    const raw = await openIdbStore('engine-owners', { indexedDB, embedder: embedderInfo });
    await raw.putSnapshot({ name: 'hnsw-owners', seq: 0, bytes: new Uint8Array(0) });
    await raw.close();

    const rebuilt = await openLongship({
      embedder: hashEmbedder,
      store: { indexedDB: 'engine-owners', factory: indexedDB },
    });
    expect(indexesOf(rebuilt).openedFrom.vector).toBe('rebuild');
    expect(uris(await rebuilt.find('river floods', { filter: { kind: 'file' } }))).toEqual(before);
    expect((await rebuilt.verify()).problems).toEqual([]);
    await rebuilt.close();
  });
});

describe('openLongship with the bundled model', () => {
  it('embeds on the device and finds a file by meaning', async () => {
    const longship = await openLongship({ store: await openMemoryStore() });
    expect(longship.embedder.dimensions).toBe(512);
    await longship.write(`${R}/pets/cat.md`, 'The cat sleeps on the sofa all afternoon.', { parents: true });
    await longship.write(`${R}/pets/flights.md`, 'Our flight to Tokyo was delayed by three hours.');
    await longship.write(`${R}/pets/stocks.md`, 'Share prices fell sharply on the stock market today.');
    const [query] = await longship.embedder.embed(['A kitten naps on the couch.']);
    const hits = indexesOf(longship).vectors.search(query!, 1);
    expect(await uriOfVector(longship.store, hits[0]!.key)).toBe(`${R}/pets/cat.md`);
    const found = await longship.find('A kitten naps on the couch.', {
      hybrid: { lexical: false },
      filter: { kind: 'file' },
    });
    expect(found.resources[0]?.uri).toBe(`${R}/pets/cat.md`);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
});
