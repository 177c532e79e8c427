import { abortError, throwIfAborted } from '../abort.js';
// Batching, progress and cancellation shared by every Embedder, so that each one reports progress
// and honours its AbortSignal the same way.
import { LongshipError } from '../errors.js';
import type { EmbedOptions } from './embedder.js';

/** Embeds one batch. It receives the caller's signal and must return one vector per text, in order. */
export type EmbedBatch = (batch: string[], signal: AbortSignal | undefined) => Promise<Float32Array[]>;

/**
 * Splits `texts` into batches of at most `batchSize`, embeds them one after another with `run`, and
 * returns all vectors in input order. The signal is checked before every batch; `onProgress` hears
 * `{ done, total }` after every batch.
 *
 * @example
 * const vectors = await embedInBatches(texts, 32, (batch, signal) => model.run(batch, signal), {
 *   signal,
 *   onProgress: ({ done, total }) => console.log(`${done}/${total}`),
 * });
 */
export async function embedInBatches(
  texts: readonly string[],
  batchSize: number,
  run: EmbedBatch,
  options: EmbedOptions = {},
): Promise<Float32Array[]> {
  const { signal, onProgress } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new LongshipError('INVALID_ARGUMENT', `batchSize must be a positive integer, not ${batchSize}`);
  }
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    throwIfAborted(signal);
    const batch = texts.slice(start, start + batchSize);
    let result: Float32Array[];
    try {
      result = await run(batch, signal);
    } catch (error) {
      // A batch function that honours the signal usually rejects with its own AbortError (a
      // DOMException); callers should see one code for "you cancelled this" whoever noticed first.
      if (signal?.aborted && !(error instanceof LongshipError)) throw abortError(signal);
      throw error;
    }
    // Callers store vector i beside text i, so a miscount would silently misfile every later vector.
    if (!Array.isArray(result) || result.length !== batch.length) {
      const got = Array.isArray(result) ? `${result.length} vectors` : typeof result;
      throw new LongshipError('INVALID_ARGUMENT', `a batch of ${batch.length} texts came back as ${got}`);
    }
    vectors.push(...result);
    onProgress?.({ done: vectors.length, total: texts.length });
  }
  return vectors;
}
