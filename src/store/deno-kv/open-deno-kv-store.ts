// openDenoKvStore: the Deno KV store over a handle the caller opened (docs/guide/deno-kv.md). An open
// finishes what a crash left: it applies a published journal and deletes unpublished ones.

import * as v from 'valibot';
import { LongshipError } from '../../errors.js';
import { checkOptions } from '../../options.js';
import { type FullStore, fullStore } from '../full-store.js';
import type { OpenStoreOptions } from '../store.js';
import { DenoKvStore } from './deno-kv-store.js';
import { kvErrors } from './kv-errors.js';
import type { DenoKv } from './kv-handle.js';
import { applyJournal, dropStrayJournals, readMeta } from './kv-journal.js';
import { KvKeys } from './kv-keys.js';

export interface DenoKvStoreOptions extends OpenStoreOptions {
  /** The first part of every key the store writes; default `'longship'`. Several stores share a KV under several. */
  prefix?: string;
}

const denoKvStoreOptionsSchema = v.strictObject({
  embedder: v.optional(v.object({ id: v.string(), dimensions: v.number() })),
  onEmbedderMismatch: v.optional(v.picklist(['throw', 'reset-vectors'])),
  prefix: v.optional(v.pipe(v.string(), v.nonEmpty())),
});

const KV_METHODS = ['get', 'getMany', 'list', 'atomic'] as const;

/**
 * Opens the store kept in a Deno KV database under `prefix`: `Deno.openKv()`'s handle in Deno, or
 * the `@deno/kv` package's in Node. The handle stays the caller's: `close()` leaves it open.
 *
 * @example
 * const kv = await Deno.openKv('./longship.db');
 * const longship = await openLongship({ store: await openDenoKvStore(kv), embedder });
 */
export async function openDenoKvStore(kv: DenoKv, options: DenoKvStoreOptions = {}): Promise<FullStore> {
  const checked = checkOptions(denoKvStoreOptionsSchema, options, 'openDenoKvStore()');
  const missing = KV_METHODS.filter(
    (m) => typeof (kv as unknown as Record<string, unknown>)?.[m] !== 'function',
  );
  if (missing.length > 0) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `openDenoKvStore() needs a Deno KV handle; it has no ${missing.join(', ')}`,
    );
  }
  const keys = new KvKeys(checked.prefix ?? 'longship');
  await kvErrors(async () => {
    let meta = await readMeta(kv, keys);
    while (meta.value.applying) {
      await applyJournal(kv, keys, meta);
      meta = await readMeta(kv, keys);
    }
    await dropStrayJournals(kv, keys);
  });
  const store = fullStore(new DenoKvStore(kv, keys));
  if (options.embedder) {
    await store.useEmbedder(options.embedder, options.onEmbedderMismatch).catch(async (error) => {
      await store.close();
      throw error;
    });
  }
  return store;
}
