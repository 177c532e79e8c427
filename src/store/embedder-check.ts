import { LongshipError } from '../errors.js';
import type { EmbedderInfo, EmbedderMismatch, Store, StoreOperations } from './store.js';

/** What useEmbedder() does: record the first embedder, keep the same one, or reset for a new one. */
export type EmbedderDecision = 'record' | 'keep' | 'reset';

/**
 * Compares the stored embedder with the one opening the store.
 * Throws `EMBEDDER_MISMATCH` naming both when they differ and `onMismatch` is `'throw'`.
 *
 * @example
 * decideEmbedder({ id: 'use-lite', dimensions: 512 }, { id: 'minilm', dimensions: 384 }, 'reset-vectors'); // 'reset'
 */
export function decideEmbedder(
  stored: EmbedderInfo | undefined,
  wanted: EmbedderInfo,
  onMismatch: EmbedderMismatch = 'throw',
): EmbedderDecision {
  if (typeof wanted?.id !== 'string' || wanted.id === '') {
    throw new LongshipError('INVALID_ARGUMENT', 'an embedder needs a non-empty id');
  }
  if (!Number.isSafeInteger(wanted.dimensions) || wanted.dimensions <= 0) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `embedder ${wanted.id}: dimensions must be a positive integer`,
    );
  }
  if (onMismatch !== 'throw' && onMismatch !== 'reset-vectors') {
    throw new LongshipError('INVALID_ARGUMENT', `onEmbedderMismatch must be 'throw' or 'reset-vectors'`);
  }
  if (!stored) return 'record';
  if (stored.id === wanted.id && stored.dimensions === wanted.dimensions) return 'keep';
  if (onMismatch === 'reset-vectors') return 'reset';
  throw new LongshipError(
    'EMBEDDER_MISMATCH',
    `this store was embedded with "${stored.id}" (${stored.dimensions} dimensions), not "${wanted.id}" ` +
      `(${wanted.dimensions} dimensions). Open it with the same embedder, or with ` +
      `{ onEmbedderMismatch: 'reset-vectors' } to drop its vectors and re-embed.`,
  );
}

/**
 * `store`, with `options.embedder` recorded in it when one is given. A store that refuses the
 * embedder is closed before the error is thrown, so that a failed open holds nothing.
 *
 * @example
 * return adoptEmbedder(new MemoryStore(data), { embedder: { id: 'use-lite', dimensions: 512 } });
 */
export async function adoptEmbedder<S extends Store & Pick<StoreOperations, 'useEmbedder'>>(
  store: S,
  options: { embedder?: EmbedderInfo; onEmbedderMismatch?: EmbedderMismatch },
): Promise<S> {
  if (!options.embedder) return store;
  try {
    await store.useEmbedder(options.embedder, options.onEmbedderMismatch);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
