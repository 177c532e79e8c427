// Opening the Durable Object store, as the package exports it (`longship/cloudflare`).

import * as v from 'valibot';
import { LongshipError } from '../../errors.js';
import { checkOptions } from '../../options.js';
import { fullStore } from '../full-store.js';
import type { OpenStoreOptions } from '../store.js';
import { DurableObjectStore } from './durable-object-store.js';
import type { DurableObjectSqlStorage } from './sql-storage.js';

const optionsSchema = v.strictObject({
  embedder: v.optional(v.strictObject({ id: v.string(), dimensions: v.number() })),
  onEmbedderMismatch: v.optional(v.picklist(['throw', 'reset-vectors'])),
});

/**
 * Opens the Longship store in a SQLite-backed Durable Object's storage (`ctx.storage`), creating its
 * tables on first use. It keeps the change log and the index snapshots, so an object woken after
 * eviction loads its indexes instead of rebuilding them (docs/guide/durable-objects.md).
 *
 * Fails with `INVALID_ARGUMENT` for an unknown option or storage without SQL, `STORE_ERROR` where
 * the SQL storage refuses to create the tables (a class not declared in `new_sqlite_classes`),
 * `SCHEMA_MISMATCH` for tables a newer
 * Longship wrote, `EMBEDDER_MISMATCH` when `embedder` is not the one recorded (unless
 * `onEmbedderMismatch: 'reset-vectors'`).
 *
 * @example
 * // Inside a Durable Object class, declared with `new_sqlite_classes`:
 * const store = await openDurableObjectStore(this.ctx.storage);
 * const longship = await openLongship({ store, embedder, usearch });
 */
export async function openDurableObjectStore(
  storage: DurableObjectSqlStorage,
  options?: OpenStoreOptions,
): Promise<DurableObjectStore> {
  const { embedder, onEmbedderMismatch } = checkOptions(optionsSchema, options, 'openDurableObjectStore()');
  const given = storage as Partial<DurableObjectSqlStorage> | undefined;
  if (typeof given?.sql?.exec !== 'function' || typeof given.transactionSync !== 'function') {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      "openDurableObjectStore() needs a SQLite-backed Durable Object's ctx.storage (its class declared in new_sqlite_classes)",
    );
  }
  const store = new DurableObjectStore(storage);
  if (embedder) {
    try {
      await fullStore(store).useEmbedder(embedder, onEmbedderMismatch);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}
