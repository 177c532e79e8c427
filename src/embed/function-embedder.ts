import * as v from 'valibot';
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import { embedInBatches } from './batch.js';
import type { Embedder } from './embedder.js';

export interface FunctionEmbedderOptions {
  /** Model id and revision, stored beside every vector so a model swap is detectable. */
  id: string;
  /** Length of every vector `embed` returns. */
  dimensions: number;
  /** One vector per text, in order. Called once per batch; should stop early when `signal` fires. */
  embed: (
    texts: string[],
    signal: AbortSignal | undefined,
  ) => Promise<readonly (readonly number[] | Float32Array)[]>;
  /** Most texts per call to `embed` (default 64). Progress is reported after each call. */
  batchSize?: number;
}

/** Every option of {@link FunctionEmbedderOptions}; functionEmbedder checks their values itself. @internal */
export const functionEmbedderOptionsSchema = v.strictObject({
  id: v.optional(v.unknown()),
  dimensions: v.optional(v.unknown()),
  embed: v.optional(v.unknown()),
  batchSize: v.optional(v.unknown()),
});

/**
 * Makes an Embedder of any function that turns texts into vectors: a model you already host, a
 * provider SDK, or a fake for tests. Its output is checked: one vector per text, each of `dimensions`
 * finite numbers.
 *
 * @example
 * const embedder = functionEmbedder({
 *   id: 'my-model@3',
 *   dimensions: 768,
 *   embed: async (texts, signal) => (await myClient.embed({ texts, signal })).vectors,
 * });
 */
export function functionEmbedder(options: FunctionEmbedderOptions): Embedder {
  checkOptions(functionEmbedderOptionsSchema, options, 'functionEmbedder');
  const { id, dimensions, embed, batchSize = 64 } = options;
  if (typeof id !== 'string' || id === '') {
    throw new LongshipError('INVALID_ARGUMENT', 'functionEmbedder needs a non-empty id');
  }
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new LongshipError('INVALID_ARGUMENT', `dimensions must be a positive integer, not ${dimensions}`);
  }
  if (typeof embed !== 'function') {
    throw new LongshipError('INVALID_ARGUMENT', 'functionEmbedder needs an embed function');
  }
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new LongshipError('INVALID_ARGUMENT', `batchSize must be a positive integer, not ${batchSize}`);
  }
  const name = `functionEmbedder '${id}'`;
  return {
    id,
    dimensions,
    embed: (texts, embedOptions) =>
      embedInBatches(
        texts,
        batchSize,
        async (batch, signal) => checked(await embed(batch, signal), batch.length, dimensions, name),
        embedOptions,
      ),
  };
}

function checked(
  output: readonly (readonly number[] | Float32Array)[],
  count: number,
  dimensions: number,
  name: string,
): Float32Array[] {
  if (!Array.isArray(output)) {
    throw new LongshipError('INVALID_ARGUMENT', `${name} returned ${typeof output}, not an array of vectors`);
  }
  if (output.length !== count) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `${name} returned ${output.length} vectors for ${count} texts`,
    );
  }
  return output.map((vector: unknown, i) => {
    if (!(vector instanceof Float32Array) && !Array.isArray(vector)) {
      throw new LongshipError('INVALID_ARGUMENT', `${name} returned a ${typeof vector} for text ${i}`);
    }
    if (vector.length !== dimensions) {
      throw new LongshipError(
        'DIMENSION_MISMATCH',
        `${name} returned a ${vector.length}-dimensional vector for text ${i}; it was declared with dimensions: ${dimensions}`,
      );
    }
    // Always a copy: a function that fills one scratch buffer per call would otherwise overwrite
    // the vectors of earlier batches.
    const copy = new Float32Array(vector);
    for (let j = 0; j < copy.length; j++) {
      // The copy turns true into 1 and null into 0, so plain arrays are checked for numbers first;
      // numbers past float32's range became Infinity in the copy.
      if ((Array.isArray(vector) && typeof vector[j] !== 'number') || !Number.isFinite(copy[j])) {
        throw new LongshipError(
          'INVALID_ARGUMENT',
          `${name} returned a vector for text ${i} whose element ${j} is not a finite number`,
        );
      }
    }
    return copy;
  });
}
