// openLongship in this thread when a part cannot load: it rejects with that part's error, and
// closes what did open (a store left open would block the next open of its database).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expect, it } from 'vitest';
import { bundledModel, bundledModelFiles } from '../src/embed/bundled-model.js';
import { transformersEmbedder } from '../src/embed/transformers-embedder.js';
import { openLongship } from '../src/engine.js';
import { LongshipError } from '../src/errors.js';

/** Deletes the database; true if no open connection blocked the deletion. */
function deletedUnblocked(factory: IDBFactory, name: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    let blocked = false;
    request.onblocked = () => {
      blocked = true;
    };
    request.onsuccess = () => resolve(!blocked);
    request.onerror = () => reject(request.error);
  });
}

it('rejects with MODEL_LOAD when the model cannot load, and closes the store it opened', async () => {
  const indexedDB = new IDBFactory();
  const embedder = transformersEmbedder({
    model: {
      ...bundledModel,
      directory: new URL('../no-such-model/', bundledModelFiles()['config.json'] as URL),
    },
  });
  const error = await openLongship({ store: { indexedDB: 'notes', factory: indexedDB }, embedder }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  expect((error as LongshipError).code).toBe('MODEL_LOAD');
  expect((error as LongshipError).message).toContain('no-such-model');
  expect(await deletedUnblocked(indexedDB, 'notes')).toBe(true);
});

it('rejects with WASM_LOAD when the index cannot load, and closes the store it opened', async () => {
  const indexedDB = new IDBFactory();
  const usearch = new URL('./no-such.wasm', import.meta.url);
  const error = await openLongship({ store: { indexedDB: 'notes', factory: indexedDB }, usearch }).catch(
    (e: unknown) => e,
  );
  expect((error as LongshipError).code).toBe('WASM_LOAD');
  expect(await deletedUnblocked(indexedDB, 'notes')).toBe(true);
});

it('makes its embedder from `transformers`, and fails the open with that model’s error', async () => {
  const indexedDB = new IDBFactory();
  const transformers = {
    model: {
      ...bundledModel,
      directory: new URL('../no-such-model/', bundledModelFiles()['config.json'] as URL),
    },
  };
  const error = await openLongship({
    store: { indexedDB: 'notes', factory: indexedDB },
    embedder: { transformers },
  }).catch((e: unknown) => e);
  expect((error as LongshipError).code).toBe('MODEL_LOAD');
  expect((error as LongshipError).message).toContain('no-such-model');
  expect(await deletedUnblocked(indexedDB, 'notes')).toBe(true);
});

it('refuses an embedder and `transformers` together, and bad `transformers`, opening nothing', async () => {
  const indexedDB = new IDBFactory();
  const embedder = { id: 'x', dimensions: 4, embed: async () => [] };
  for (const options of [
    { indexedDB, embedder, transformers: {} },
    { indexedDB, transformers: { dtype: 'fp64' as 'q8' } },
    { indexedDB, transformers: 'Xenova/all-MiniLM-L6-v2' as never },
  ]) {
    const error = await openLongship(options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
  }
  expect(await indexedDB.databases()).toEqual([]);
});
