import * as v from 'valibot';
import { LongshipError } from '../errors.js';
import { checkOptions } from '../options.js';
import { endpointOptionsEntries, isRecord, JsonEndpoint } from '../remote/json-endpoint.js';
import { embedInBatches } from './batch.js';
import type { Embedder, EmbedOptions } from './embedder.js';

export interface RemoteEmbedderOptions {
  /** The API root, e.g. `https://api.openai.com/v1`; requests go to `{baseUrl}/embeddings`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`. Never appears in an error message or `cause`. */
  apiKey?: string;
  /** The `model` field of each request. */
  model: string;
  /** The vector length you expect back; any other length is a `DIMENSION_MISMATCH`. */
  dimensions: number;
  /**
   * Also send `dimensions` in the request, asking the model to shorten its vectors (OpenAI's
   * text-embedding-3 models can). Off by default: endpoints that cannot shorten reject the field.
   */
  requestDimensions?: boolean;
  /** Limit for one HTTP request, body included (default 30 000). */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx, a timeout or a network failure (default 3). */
  maxRetries?: number;
  /** First backoff delay; it doubles with each retry and gets random jitter (default 500). */
  retryBaseMs?: number;
  /** Longest wait before a retry, for backoff and for a server's `Retry-After` alike (default 30 000). */
  retryMaxMs?: number;
  /** Texts per request, 1 to 2048 (default 64). */
  batchSize?: number;
  /** The fetch to use (default: the global one). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Stored beside every vector (default `remote:${model}`). */
  id?: string;
}

// maxConcurrent is the embedder's own choice (none: it sends one batch at a time).
const { maxConcurrent: _maxConcurrent, ...endpointEntries } = endpointOptionsEntries;

/** @internal */
export const remoteEmbedderOptionsSchema = v.strictObject({
  ...endpointEntries,
  dimensions: v.number(),
  requestDimensions: v.optional(v.boolean()),
  batchSize: v.optional(v.number()),
  id: v.optional(v.string()),
});

// OpenAI's limit on inputs per request; other compatible servers accept no more.
const maxBatchSize = 2048;

/** The embedder {@link remoteEmbedder} makes. @internal */
export class RemoteEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  // Private, and the key is private inside it: logging the embedder does not print the key.
  readonly #endpoint: JsonEndpoint;
  readonly #requestDimensions: boolean;
  readonly #batchSize: number;

  constructor(options: RemoteEmbedderOptions) {
    checkOptions(remoteEmbedderOptionsSchema, options, 'remoteEmbedder()');
    this.#endpoint = new JsonEndpoint(
      {
        ...options,
        maxRetries: options.maxRetries ?? 3,
        retryMaxMs: options.retryMaxMs ?? 30_000,
        // No bound: embed() sends one batch at a time, and callers that embed in parallel chose to.
        maxConcurrent: Number.MAX_SAFE_INTEGER,
      },
      'embeddings',
      'remoteEmbedder()',
    );
    const { dimensions, batchSize = 64 } = options;
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new LongshipError('INVALID_ARGUMENT', `dimensions must be a positive integer, not ${dimensions}`);
    }
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > maxBatchSize) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `batchSize must be an integer from 1 to ${maxBatchSize}, not ${batchSize}`,
      );
    }
    this.id = options.id ?? `remote:${this.#endpoint.model}`;
    this.dimensions = dimensions;
    this.#requestDimensions = options.requestDimensions ?? false;
    this.#batchSize = batchSize;
  }

  /** One vector per text, in order. Rejects with a `LongshipError` only. */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (!Array.isArray(texts) || texts.some((text) => typeof text !== 'string')) {
      throw new LongshipError('INVALID_ARGUMENT', 'embed takes an array of strings');
    }
    return embedInBatches(
      texts,
      this.#batchSize,
      (batch, signal) => this.#embedBatch(batch, signal),
      options,
    );
  }

  async #embedBatch(batch: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const answer = await this.#endpoint.post(
      {
        input: batch,
        ...(this.#requestDimensions ? { dimensions: this.dimensions } : {}),
        encoding_format: 'float',
      },
      { signal },
    );
    return this.#vectors(answer, batch.length);
  }

  #vectors(body: unknown, count: number): Float32Array[] {
    const bad = (problem: string, shown?: unknown) => this.#endpoint.badResponse(problem, shown);
    const data = isRecord(body) ? body.data : undefined;
    if (!Array.isArray(data)) throw bad('has no data array', body);
    if (data.length !== count) throw bad(`has ${data.length} embeddings for ${count} inputs`);
    // Servers may omit `index` altogether (then the order is the input order), but not for some items.
    const indexed = data.some((item) => isRecord(item) && item.index !== undefined);
    const vectors: Float32Array[] = new Array(count);
    data.forEach((item, position) => {
      if (!isRecord(item)) throw bad(`has data[${position}] that is not an object`);
      const index = indexed ? item.index : position;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) {
        throw bad(`has data[${position}] with index ${String(index)}, not 0 to ${count - 1}`);
      }
      if (vectors[index]) throw bad(`has index ${index} twice`);
      const embedding = item.embedding;
      if (!Array.isArray(embedding)) {
        throw bad(`has data[${position}].embedding that is not an array of floats`);
      }
      if (embedding.length !== this.dimensions) {
        const { model, endpoint } = this.#endpoint;
        throw new LongshipError(
          'DIMENSION_MISMATCH',
          `model '${model}' at ${endpoint} returned ${embedding.length}-dimensional vectors, but this ` +
            `remoteEmbedder() was configured with dimensions: ${this.dimensions}` +
            (this.#requestDimensions
              ? ''
              : ' (set requestDimensions: true if the model can shorten its vectors)'),
        );
      }
      const vector = new Float32Array(embedding);
      for (let j = 0; j < vector.length; j++) {
        // new Float32Array turns null into 0 and "1" into 1, so the originals are checked too.
        if (typeof embedding[j] !== 'number' || !Number.isFinite(vector[j])) {
          throw bad(`has data[${position}].embedding[${j}] that is not a finite float32`);
        }
      }
      vectors[index] = vector;
    });
    return vectors;
  }
}

/**
 * An Embedder backed by an OpenAI-compatible `POST {baseUrl}/embeddings` endpoint (OpenAI, Azure
 * OpenAI, Ollama, vLLM, LM Studio, text-embeddings-inference…). Texts go in batches; 429 and 5xx
 * answers are retried with exponential backoff; every failure is a `LongshipError` (`ABORTED`,
 * `TIMEOUT`, `REMOTE_HTTP`, `REMOTE_RESPONSE`, `DIMENSION_MISMATCH`).
 *
 * @example
 * const embedder = remoteEmbedder({
 *   baseUrl: 'https://api.openai.com/v1',
 *   apiKey,
 *   model: 'text-embedding-3-small',
 *   dimensions: 512,
 *   requestDimensions: true,
 * });
 * const [vector] = await embedder.embed(['hello'], { signal });
 */
export function remoteEmbedder(options: RemoteEmbedderOptions): Embedder {
  return new RemoteEmbedder(options);
}
