// Which store openLongship picks: a folder by `path`, IndexedDB, memory; and whether it says so.
import 'fake-indexeddb/auto';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, describe, expect, it } from 'vitest';
import { openLongship } from '../src/engine.js';
import { openMemoryStore } from '../src/store/memory/memory-store.js';
import { codeOf } from '../src/testing/records.js';
import { embedderInfo, hashEmbedder } from './context/fixtures.js';

const R = 'viking://resources';
const root = mkdtempSync(join(tmpdir(), 'longship-engine-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('openLongship', () => {
  it('keeps everything in the folder `path` names, across a close and a reopen', async () => {
    const path = join(root, 'context');
    const longship = await openLongship({ path, embedder: hashEmbedder });
    expect(longship.persistent).toBe(true);
    await longship.write(`${R}/notes/river.md`, 'The river floods every spring.', { parents: true });
    await longship.write(`${R}/notes/lake.md`, 'The lake freezes in winter.');
    const found = await longship.find('river floods');
    await longship.close();

    // A file: URL names the same folder.
    const again = await openLongship({ path: pathToFileURL(path), embedder: hashEmbedder });
    expect(again.indexes.openedFrom).toEqual({ vector: 'snapshot', lexical: 'snapshot', nodes: 'snapshot' });
    expect(await again.read(`${R}/notes/river.md`)).toBe('The river floods every spring.');
    expect(await again.find('river floods')).toEqual(found);
    expect((await again.verify()).problems).toEqual([]);
    await again.close();
  });

  it('reports persistent: false for memory, true for IndexedDB', async () => {
    const inMemory = await openLongship({ store: await openMemoryStore(), embedder: hashEmbedder });
    expect(inMemory.persistent).toBe(false);
    await inMemory.close();
    const inIdb = await openLongship({ indexedDB: new IDBFactory(), embedder: hashEmbedder });
    expect(inIdb.persistent).toBe(true);
    await inIdb.close();
  });

  it('refuses a path together with another store', async () => {
    const path = join(root, 'both');
    const store = await openMemoryStore({ embedder: embedderInfo });
    expect(await codeOf(openLongship({ path, store, embedder: hashEmbedder }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(openLongship({ path, indexedDB: new IDBFactory(), embedder: hashEmbedder }))).toBe(
      'INVALID_ARGUMENT',
    );
  });
});
