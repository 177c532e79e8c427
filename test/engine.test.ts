import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openLongship } from '../src/engine.js';
import { LongshipError } from '../src/errors.js';
import { openMemoryStore } from '../src/store/memory-store.js';
import { embedderInfo, hashEmbedder, uriOfVector } from './context/fixtures.js';

const R = 'viking://resources';

describe('openLongship', () => {
  it('wires the tree to the store and indexes, and close() snapshots them', async () => {
    const indexedDB = new IDBFactory();
    const longship = await openLongship({ embedder: hashEmbedder, indexedDB, name: 'engine-a' });
    expect((await longship.ls('viking://')).map((n) => n.name)).toEqual(['resources', 'user', 'agent']);
    await longship.write(`${R}/notes/river.md`, 'The river floods every spring.', { parents: true });
    await longship.link(`${R}/notes/river.md`, `${R}/notes`, 'lives in');
    expect(longship.indexes.lexical.search('floods')).toHaveLength(1);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();

    const again = await openLongship({ embedder: hashEmbedder, indexedDB, name: 'engine-a' });
    expect(again.indexes.openedFrom).toEqual({ vector: 'snapshot', lexical: 'snapshot' });
    expect(await again.read(`${R}/notes/river.md`)).toBe('The river floods every spring.');
    expect(await again.relations(`${R}/notes`)).toHaveLength(1);
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
    const first = await openLongship({ embedder: hashEmbedder, name: 'engine-default' });
    await first.write(`${R}/kept.md`, 'kept');
    await first.close();
    const second = await openLongship({ embedder: hashEmbedder, name: 'engine-default' });
    expect(await second.read(`${R}/kept.md`)).toBe('kept');
    await second.close();

    const global = globalThis as { indexedDB?: IDBFactory };
    const saved = global.indexedDB;
    delete global.indexedDB;
    try {
      const inMemory = await openLongship({ embedder: hashEmbedder, name: 'engine-default' });
      await expect(inMemory.read(`${R}/kept.md`)).rejects.toThrow('no node');
      await inMemory.close();
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
    const hits = longship.indexes.lexical.search('moon oceans');
    const found = await Promise.all(hits.map(async (hit) => (await longship.store.nodeByKey(hit.key))!.uri));
    expect(found).toContain(`${R}/tides.md`);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
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
    const hits = longship.indexes.vectors.search(query!, 1);
    expect(await uriOfVector(longship.store, hits[0]!.key)).toBe(`${R}/pets/cat.md`);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });
});
