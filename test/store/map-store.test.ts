// A store as a third party writes one (map-store.ts: nine methods over plain Maps, no change log, no
// operation of its own) passes the store contract, and backs a Longship: the engine derives
// everything else, and keeps the change log in memory.

import { describe, expect, it } from 'vitest';
import { indexesOf, openLongship } from '../../src/engine.js';
import type { Store } from '../../src/store/store.js';
import { codeOf } from '../../src/testing/records.js';
import { storeContract } from '../../src/testing/store-contract.js';
import { embedderInfo, hashEmbedder } from '../context/fixtures.js';
import { mapTables, openMapStore } from './map-store.js';

storeContract('a store of nine methods over Maps', () => {
  const tables = mapTables();
  return { open: async () => openMapStore(tables) };
});

const R = 'viking://resources';
const uris = (result: { resources: { uri: string }[] }) => result.resources.map((item) => item.uri);

describe('a Longship over a store without a change log', () => {
  it('adds and finds, and rebuilds its indexes from the store at the next open', async () => {
    const tables = mapTables();
    const longship = await openLongship({ store: openMapStore(tables), embedder: hashEmbedder });
    expect(longship.persistent).toBe(false);
    await longship.addResource('# Tides\n\nThe moon pulls the oceans into tides.\n', { name: 'tides.md' });
    await longship.addResource('# Rivers\n\nRivers flood in spring.\n', { name: 'rivers.md' });
    const found = await longship.find('moon oceans');
    expect(uris(found)[0]).toBe(`${R}/tides.md`);
    expect((await longship.verify()).problems).toEqual([]);
    // The changes the indexes hold are dropped from the log in memory as soon as they are applied,
    // and no snapshot is written: the next open rebuilds anyway.
    await indexesOf(longship).flush();
    expect(await longship.store.changesSince(0)).toEqual([]);
    expect(await longship.store.stats()).toMatchObject({ changes: 0, snapshots: 0 });
    await longship.close();

    const again = await openLongship({ store: openMapStore(tables), embedder: hashEmbedder });
    expect(indexesOf(again).openedFrom).toEqual({ vector: 'rebuild', lexical: 'rebuild', nodes: 'rebuild' });
    expect(await again.find('moon oceans')).toEqual(found);
    expect(await again.read(`${R}/rivers.md`)).toContain('Rivers flood in spring.');
    await again.close();
    expect(tables.meta.embedder).toEqual(embedderInfo);
  });

  it("follows another writer's commits by rebuilding from the store", async () => {
    const tables = mapTables();
    const first = await openLongship({ store: openMapStore(tables), embedder: hashEmbedder });
    const second = await openLongship({ store: openMapStore(tables), embedder: hashEmbedder });
    await second.write(`${R}/lake.md`, 'The lake freezes in winter.');
    // The first one's log in memory never saw that commit: the gap makes it rebuild, not miss it.
    await first.write(`${R}/sea.md`, 'The sea is salt.');
    await indexesOf(first).catchUp();
    expect(uris(await first.find('lake freezes'))).toContain(`${R}/lake.md`);
    expect((await first.verify()).problems).toEqual([]);
    await first.close();
    await second.close();
  });

  it('plans a commit again when another writer moved the store on, and gives up after a few tries', async () => {
    const base = openMapStore(mapTables());
    // Each refusal is what write() answers when another writer committed since the plan was made.
    let refuse = 0;
    let refused = 0;
    const write: Store['write'] = async (writes) => {
      if (refused === refuse) return base.write(writes);
      refused++;
      return false;
    };
    const longship = await openLongship({ store: { ...base, write }, embedder: hashEmbedder });
    refuse = 2;
    await longship.write(`${R}/a.md`, 'first');
    expect(refused).toBe(2);
    expect(await longship.read(`${R}/a.md`)).toBe('first');
    refuse = Number.POSITIVE_INFINITY;
    expect(await codeOf(longship.write(`${R}/b.md`, 'never'))).toBe('STORE_ERROR');
    refuse = refused;
    expect(await codeOf(longship.read(`${R}/b.md`))).toBe('NOT_FOUND');
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('refuses a store without one of the nine methods, or with half a change log', async () => {
    const { lookup: _, ...missing } = openMapStore(mapTables());
    const half = { ...openMapStore(mapTables()), changesSince: async () => [] };
    for (const store of [missing, half]) {
      expect(await codeOf(openLongship({ store: store as Store, embedder: hashEmbedder }))).toBe(
        'INVALID_ARGUMENT',
      );
    }
  });
});
