// Which store openLongship picks from its `store` option: a folder, IndexedDB, memory; and whether it says so.
import 'fake-indexeddb/auto';

import { mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, describe, expect, it } from 'vitest';
import { indexesOf, openLongship } from '../src/engine.js';
import { LongshipError } from '../src/errors.js';
import { openMemoryStore } from '../src/store/memory/memory-store.js';
import { hashEmbedder } from './context/fixtures.js';

const R = 'viking://resources';
const root = mkdtempSync(join(tmpdir(), 'longship-engine-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('openLongship', () => {
  it('keeps everything in the folder `path` names, across a close and a reopen', async () => {
    const path = join(root, 'context');
    const longship = await openLongship({ store: path, embedder: hashEmbedder });
    expect(longship.persistent).toBe(true);
    await longship.write(`${R}/notes/river.md`, 'The river floods every spring.', { parents: true });
    await longship.write(`${R}/notes/lake.md`, 'The lake freezes in winter.');
    const found = await longship.find('river floods');
    await longship.close();

    // A file: URL names the same folder.
    const again = await openLongship({ store: pathToFileURL(path), embedder: hashEmbedder });
    expect(indexesOf(again).openedFrom).toEqual({
      vector: 'snapshot',
      lexical: 'snapshot',
      nodes: 'snapshot',
    });
    expect(await again.read(`${R}/notes/river.md`)).toBe('The river floods every spring.');
    expect(await again.find('river floods')).toEqual(found);
    expect((await again.verify()).problems).toEqual([]);
    await again.close();
  });

  it('reports persistent: false for memory, true for IndexedDB', async () => {
    const inMemory = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
    expect(inMemory.persistent).toBe(false);
    await inMemory.close();
    const inIdb = await openLongship({
      store: { indexedDB: 'longship', factory: new IDBFactory() },
      embedder: hashEmbedder,
    });
    expect(inIdb.persistent).toBe(true);
    await inIdb.close();
  });

  it('refuses the keys that chose a store or a model before, naming what replaced them', async () => {
    const path = join(root, 'old-keys');
    const refusal = async (options: object) => {
      const error = await openLongship(options as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LongshipError);
      expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
      return (error as LongshipError).message;
    };
    expect(await refusal({ path, embedder: hashEmbedder })).toMatch(
      /'path' is gone; use store: '\.\/folder'/,
    );
    expect(await refusal({ indexedDB: new IDBFactory(), embedder: hashEmbedder })).toMatch(
      /'indexedDB' is gone; use store: \{ indexedDB: 'name', factory \}/,
    );
    expect(await refusal({ name: 'notes', embedder: hashEmbedder })).toMatch(
      /use store: \{ indexedDB: 'name' \}/,
    );
    expect(await refusal({ transformers: { dtype: 'q8' } })).toMatch(/use embedder: \{ transformers/);
    // Nothing was opened: the folder was never made.
    await expect(stat(path)).rejects.toThrow();
  });

  it('refuses a store option that chooses nothing, naming the choices', async () => {
    for (const store of [
      '',
      42,
      { path: '' },
      { indexedDB: '' },
      { indexedDB: 'a', name: 'b' },
      { folder: 'x' },
    ]) {
      await expect(openLongship({ store: store as never, embedder: hashEmbedder })).rejects.toThrow(
        /option 'store' must be a Store, a folder, \{ path \}, \{ indexedDB: 'name', factory\? \} or 'memory'/,
      );
    }
    await expect(openLongship({ embedder: { transformers: {}, extra: 1 } as never })).rejects.toThrow(
      /option 'embedder' must be an Embedder/,
    );
  });

  it("opens each store a descriptor names: a folder, { path }, { indexedDB }, 'memory'", async () => {
    const folder = await openLongship({ store: join(root, 'plain'), embedder: hashEmbedder });
    expect(folder.persistent).toBe(true);
    await folder.close();
    await stat(join(root, 'plain'));
    const described = await openLongship({
      store: { path: join(root, 'described') },
      embedder: hashEmbedder,
    });
    await described.close();
    await stat(join(root, 'described'));
    const factory = new IDBFactory();
    const named = await openLongship({ store: { indexedDB: 'notes', factory }, embedder: hashEmbedder });
    await named.write('viking://resources/a.md', 'Tides turn twice a day.');
    await named.close();
    const again = await openLongship({ store: { indexedDB: 'notes', factory }, embedder: hashEmbedder });
    expect(await again.read('viking://resources/a.md')).toBe('Tides turn twice a day.');
    expect(again.persistent).toBe(true);
    await again.close();
    const memory = await openLongship({ store: 'memory', embedder: hashEmbedder });
    expect(memory.persistent).toBe(false);
    await memory.close();
  });
});
