import { abortError, throwIfAborted } from '../abort.js';
import { LongshipError } from '../errors.js';
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

// OpenAI's limit on inputs per request; other compatible servers accept no more.
const maxBatchSize = 2048;

/** A failure worth another try, and how long the server asked us to wait first. */
interface Retryable {
  error: LongshipError;
  retryAfterMs?: number;
}

/**
 * An Embedder backed by an OpenAI-compatible `POST {baseUrl}/embeddings` endpoint (OpenAI, Azure
 * OpenAI, Ollama, vLLM, LM Studio, text-embeddings-inference…). Texts go in batches; 429 and 5xx
 * answers are retried with exponential backoff; every failure is a `LongshipError` (`ABORTED`,
 * `TIMEOUT`, `REMOTE_HTTP`, `REMOTE_RESPONSE`, `DIMENSION_MISMATCH`).
 *
 * @example
 * const embedder = new RemoteEmbedder({
 *   baseUrl: 'https://api.openai.com/v1',
 *   apiKey,
 *   model: 'text-embedding-3-small',
 *   dimensions: 512,
 *   requestDimensions: true,
 * });
 * const [vector] = await embedder.embed(['hello'], { signal });
 */
export class RemoteEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  // Private fields: util.inspect, JSON.stringify and structured clone cannot see them, so logging
  // the embedder does not print the key.
  readonly #apiKey: string;
  readonly #url: string;
  readonly #endpoint: string;
  readonly #model: string;
  readonly #requestDimensions: boolean;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #batchSize: number;
  readonly #fetch: (url: string, init: RequestInit) => Promise<Response>;

  constructor(options: RemoteEmbedderOptions) {
    const { model, dimensions, apiKey = '' } = options;
    if (typeof model !== 'string' || model === '') {
      throw new LongshipError('INVALID_ARGUMENT', 'RemoteEmbedder needs a model');
    }
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new LongshipError('INVALID_ARGUMENT', `dimensions must be a positive integer, not ${dimensions}`);
    }
    // A key that is not a valid header value makes fetch throw a TypeError that quotes it.
    if (typeof apiKey !== 'string' || !/^[\x21-\x7e]*$/.test(apiKey)) {
      throw new LongshipError('INVALID_ARGUMENT', 'apiKey must be printable ASCII without spaces');
    }
    const url = parseEndpoint(options.baseUrl);
    this.id = options.id ?? `remote:${model}`;
    this.dimensions = dimensions;
    this.#apiKey = apiKey;
    this.#url = url.href;
    this.#endpoint = `${url.origin}${url.pathname}`;
    this.#model = model;
    this.#requestDimensions = options.requestDimensions ?? false;
    this.#timeoutMs = integerOption('timeoutMs', options.timeoutMs ?? 30_000, 1);
    this.#maxRetries = integerOption('maxRetries', options.maxRetries ?? 3, 0);
    this.#retryBaseMs = integerOption('retryBaseMs', options.retryBaseMs ?? 500, 0);
    this.#retryMaxMs = integerOption('retryMaxMs', options.retryMaxMs ?? 30_000, 0);
    this.#batchSize = integerOption('batchSize', options.batchSize ?? 64, 1);
    if (this.#batchSize > maxBatchSize) {
      throw new LongshipError('INVALID_ARGUMENT', `batchSize must be at most ${maxBatchSize}`);
    }
    // Looked up per call, and never called as a method of this object: some browsers throw
    // "Illegal invocation" when fetch's `this` is not the global.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** One vector per text, in order. Rejects with a `LongshipError` only. */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (!Array.isArray(texts) || texts.some((text) => typeof text !== 'string')) {
      throw new LongshipError('INVALID_ARGUMENT', 'embed takes an array of strings');
    }
    return embedInBatches(texts, this.#batchSize, (batch, signal) => this.#post(batch, signal), options);
  }

  async #post(batch: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#attempt(batch, signal);
      if (Array.isArray(outcome)) return outcome;
      if (attempt >= this.#maxRetries) throw outcome.error;
      const backoffMs = Math.min(this.#retryMaxMs, this.#retryBaseMs * 2 ** attempt);
      // Half fixed, half random: clients that failed together should not retry together.
      const delayMs = Math.min(
        this.#retryMaxMs,
        outcome.retryAfterMs ?? backoffMs / 2 + (Math.random() * backoffMs) / 2,
      );
      await sleep(delayMs, signal);
    }
  }

  /** One HTTP request: the vectors, a failure worth retrying, or a thrown final failure. */
  async #attempt(batch: string[], signal: AbortSignal | undefined): Promise<Float32Array[] | Retryable> {
    throwIfAborted(signal);
    // One controller for both the caller's signal and the timeout, rather than AbortSignal.any and
    // AbortSignal.timeout: Safari before 17.4 lacks `any`, and this way the timer is cleared and the
    // listener leaves the caller's (possibly long-lived) signal when the request ends.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`no answer within ${this.#timeoutMs} ms`, 'TimeoutError'));
    }, this.#timeoutMs);
    const forward = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(this.#url, {
        method: 'POST',
        headers: this.#headers(),
        body: JSON.stringify({
          model: this.#model,
          input: batch,
          ...(this.#requestDimensions ? { dimensions: this.dimensions } : {}),
          encoding_format: 'float',
        }),
        signal: controller.signal,
      });
      // Inside the try: the timeout covers a server that sends headers and then stalls the body.
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      if (timedOut) {
        return {
          error: new LongshipError(
            'TIMEOUT',
            `${this.#endpoint} did not answer within ${this.#timeoutMs} ms`,
            { cause: this.#scrub(error) },
          ),
        };
      }
      return {
        error: new LongshipError('REMOTE_HTTP', `could not reach ${this.#endpoint}`, {
          cause: this.#scrub(error),
        }),
      };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
    if (!response.ok) return this.#httpFailure(response, text);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new LongshipError(
        'REMOTE_RESPONSE',
        `${this.#endpoint} answered ${response.status} with a body that is not JSON: ${this.#excerpt(text)}`,
        { cause: this.#apiKey && text.includes(this.#apiKey) ? parseError(this.#redact(text)) : error },
      );
    }
    return this.#vectors(body, batch.length);
  }

  #headers(): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    return headers;
  }

  #httpFailure(response: Response, text: string): Retryable {
    const { status, statusText } = response;
    const error = new LongshipError(
      'REMOTE_HTTP',
      this.#redact(`${this.#endpoint} answered ${status} ${statusText}`.trim()) +
        `: ${this.#excerpt(errorMessage(text))}`,
      { cause: { status } },
    );
    // Other 4xx mean the request itself is wrong (bad key, unknown model, input too long): sending
    // it again cannot help.
    if (status !== 429 && status < 500) throw error;
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return retryAfterMs === undefined ? { error } : { error, retryAfterMs };
  }

  #vectors(body: unknown, count: number): Float32Array[] {
    const data = isRecord(body) ? body.data : undefined;
    if (!Array.isArray(data)) {
      throw this.#badResponse(`has no data array: ${this.#excerpt(JSON.stringify(body) ?? '')}`);
    }
    if (data.length !== count) throw this.#badResponse(`has ${data.length} embeddings for ${count} inputs`);
    // Servers may omit `index` altogether (then the order is the input order), but not for some items.
    const indexed = data.some((item) => isRecord(item) && item.index !== undefined);
    const vectors: Float32Array[] = new Array(count);
    data.forEach((item, position) => {
      if (!isRecord(item)) throw this.#badResponse(`has data[${position}] that is not an object`);
      const index = indexed ? item.index : position;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) {
        throw this.#badResponse(`has data[${position}] with index ${String(index)}, not 0 to ${count - 1}`);
      }
      if (vectors[index]) throw this.#badResponse(`has index ${index} twice`);
      const embedding = item.embedding;
      if (!Array.isArray(embedding)) {
        throw this.#badResponse(`has data[${position}].embedding that is not an array of floats`);
      }
      if (embedding.length !== this.dimensions) {
        throw new LongshipError(
          'DIMENSION_MISMATCH',
          `model '${this.#model}' at ${this.#endpoint} returned ${embedding.length}-dimensional vectors, but this ` +
            `RemoteEmbedder was configured with dimensions: ${this.dimensions}` +
            (this.#requestDimensions
              ? ''
              : ' (set requestDimensions: true if the model can shorten its vectors)'),
        );
      }
      const vector = new Float32Array(embedding);
      for (let j = 0; j < vector.length; j++) {
        // new Float32Array turns null into 0 and "1" into 1, so the originals are checked too.
        if (typeof embedding[j] !== 'number' || !Number.isFinite(vector[j])) {
          throw this.#badResponse(`has data[${position}].embedding[${j}] that is not a finite float32`);
        }
      }
      vectors[index] = vector;
    });
    return vectors;
  }

  #badResponse(problem: string): LongshipError {
    return new LongshipError('REMOTE_RESPONSE', `the answer from ${this.#endpoint} ${problem}`);
  }

  /** A short, single-line, key-free piece of a response body for an error message. */
  #excerpt(text: string): string {
    const line = this.#redact(text).replace(/\s+/g, ' ').trim();
    return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(empty body)';
  }

  #redact(text: string): string {
    return this.#apiKey ? text.replaceAll(this.#apiKey, '[redacted]') : text;
  }

  // Foreign errors are kept as `cause`, except when they quote the key: a server may echo the
  // Authorization header into a body that JSON.parse's SyntaxError then quotes, for instance. Such an
  // error is replaced by a copy with the key redacted, down its whole cause chain.
  #scrub(error: unknown, depth = 0): unknown {
    if (!this.#apiKey || !mentions(error, this.#apiKey, depth)) return error;
    if (!(error instanceof Error)) return this.#redact(String(error));
    const copy = new Error(this.#redact(error.message), {
      cause: depth < 8 ? this.#scrub(error.cause, depth + 1) : undefined,
    });
    copy.name = error.name;
    copy.stack = this.#redact(error.stack ?? '');
    return copy;
  }
}

function mentions(error: unknown, secret: string, depth: number): boolean {
  if (depth > 8 || error === undefined || error === null) return false;
  if (!(error instanceof Error)) return String(error).includes(secret);
  return (
    error.message.includes(secret) ||
    (error.stack ?? '').includes(secret) ||
    mentions(error.cause, secret, depth + 1)
  );
}

function parseEndpoint(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    // Not quoted: a base URL can carry credentials.
    throw new LongshipError('INVALID_ARGUMENT', 'baseUrl must be an absolute URL', { cause: error });
  }
  // Appended to the path, so that a query string (Azure's ?api-version=…) stays where it is.
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/embeddings`;
  return url;
}

function integerOption(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `${name} must be an integer of at least ${min}, not ${value}`,
    );
  }
  return value;
}

// V8's SyntaxError quotes about ten characters of the text, too few for #scrub to recognise a
// piece of the key; the error from parsing the redacted text says the same without it.
function parseError(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  return undefined;
}

/** OpenAI-style `{"error":{"message":…}}` bodies are boiled down to their message. */
function errorMessage(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    const error = isRecord(body) ? body.error : undefined;
    if (typeof error === 'string') return error;
    if (isRecord(error) && typeof error.message === 'string') return error.message;
  } catch {
    // Not JSON: the raw text is the message.
  }
  return text;
}

/** `Retry-After` is either delay-seconds or an HTTP date. */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
