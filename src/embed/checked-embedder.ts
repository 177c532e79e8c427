// Where an embedder's vectors enter the engine. Any object may implement Embedder, so its output is
// checked here before anything is written (a plain number[] would corrupt the WASM heap, a NaN would
// be stored and never found), and its promise is raced against the caller's signal and close(), so an
// embedder that never looks at its signal cannot hold a write, a find or close() forever.
import { raceAbort, throwIfAborted } from '../abort.js';
import { LongshipError } from '../errors.js';
import type { Embedder, EmbedOptions } from './embedder.js';

/**
 * `embedder`, with every answer checked (one Float32Array of `dimensions` finite numbers per text:
 * `INVALID_ARGUMENT` or `DIMENSION_MISMATCH` otherwise) and abandoned as soon as the caller's signal
 * or `closing` fires.
 *
 * @example
 * const closing = new AbortController();
 * const embedder = checkedEmbedder(userEmbedder, closing.signal);
 * await embedder.embed(['text'], { signal }); // ABORTED once `signal` fires, even if userEmbedder hangs
 */
export function checkedEmbedder(embedder: Embedder, closing?: AbortSignal): Embedder {
  const { id, dimensions } = embedder;
  const name = `the embedder '${id}'`;
  return {
    id,
    dimensions,
    async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
      const signals = [options.signal, closing];
      for (const signal of signals) throwIfAborted(signal, 'embedding');
      const work = Promise.resolve().then(() => embedder.embed(texts, options));
      const vectors = await raceAbort(work, signals, 'embedding');
      return checkVectors(vectors, texts.length, dimensions, name);
    },
  };
}

function checkVectors(vectors: unknown, count: number, dimensions: number, name: string): Float32Array[] {
  if (!Array.isArray(vectors)) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `${name} returned ${typeof vectors}, not an array of vectors`,
    );
  }
  if (vectors.length !== count) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `${name} returned ${vectors.length} vectors for ${count} texts`,
    );
  }
  vectors.forEach((vector: unknown, i) => {
    if (!isFloat32Array(vector)) {
      const kind = Array.isArray(vector) ? 'a plain array' : vector === null ? 'null' : typeof vector;
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `${name} returned ${kind} for text ${i}, not a Float32Array`,
      );
    }
    if (vector.length !== dimensions) {
      throw new LongshipError(
        'DIMENSION_MISMATCH',
        `${name} returned ${vector.length} numbers for text ${i}, not its ${dimensions} dimensions`,
      );
    }
    for (let d = 0; d < dimensions; d++) {
      if (!Number.isFinite(vector[d])) {
        throw new LongshipError(
          'INVALID_ARGUMENT',
          `${name} returned ${vector[d]} in the vector of text ${i}`,
        );
      }
    }
  });
  return vectors as Float32Array[];
}

/** Also a Float32Array made in another realm (a worker's, a vm context's). */
function isFloat32Array(value: unknown): value is Float32Array {
  return value instanceof Float32Array || Object.prototype.toString.call(value) === '[object Float32Array]';
}
