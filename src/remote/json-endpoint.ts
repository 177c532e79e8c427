// One JSON POST to an OpenAI-compatible endpoint, the way every remote client needs it (embeddings,
// chat completions, rerank): a timeout per attempt, the caller's AbortSignal, retries with backoff
// on 429/5xx/timeouts/network failures, a bound on requests in flight, and an API key that never
// reaches an error, a log or a trace.

import * as v from 'valibot';
import { abortError, throwIfAborted } from '../abort.js';
import { startDeadline } from '../deadline.js';
import { LongshipError } from '../errors.js';
import { functionSchema } from '../options.js';
import { ApiKey } from './api-key.js';
import { Semaphore } from './semaphore.js';

/** How to reach an endpoint. Shared by `openAiCompatibleLlm()` and `remoteReranker()`. */
export interface EndpointOptions {
  /** The API root, e.g. `https://api.openai.com/v1`; the client appends its path. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`. Never appears in an error message, `cause`, trace or store. */
  apiKey?: string;
  /** The `model` field of each request. */
  model: string;
  /** Limit for one HTTP attempt, body included (default 30 000). */
  timeoutMs?: number;
  /** Retries after a 429, a 5xx, a timeout or a network failure (default 2). */
  maxRetries?: number;
  /** First backoff delay; it doubles with each retry and gets random jitter (default 500). */
  retryBaseMs?: number;
  /** Longest wait before a retry, for backoff and for a server's `Retry-After` alike (default 10 000). */
  retryMaxMs?: number;
  /** Requests in flight at once through this client; more wait their turn (default 4). */
  maxConcurrent?: number;
  /** The fetch to use (default: the global one). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** {@link EndpointOptions}, key by key; a client with more options spreads these into its own schema. */
export const endpointOptionsEntries = {
  baseUrl: v.string(),
  apiKey: v.optional(v.string()),
  model: v.string(),
  timeoutMs: v.optional(v.number()),
  maxRetries: v.optional(v.number()),
  retryBaseMs: v.optional(v.number()),
  retryMaxMs: v.optional(v.number()),
  maxConcurrent: v.optional(v.number()),
  fetch: v.optional(functionSchema),
};

/** @internal */
export const endpointOptionsSchema = v.strictObject(endpointOptionsEntries);

/** Per-call limits; each narrows the client's own. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Limit for each attempt of this call. */
  timeoutMs?: number;
  /** Retries for this call. */
  maxRetries?: number;
}

/** A failure worth another try, and how long the server asked us to wait first. */
interface Retryable {
  error: LongshipError;
  retryAfterMs?: number;
}

/**
 * A JSON endpoint at `{baseUrl}/{path}`. Every failure is a `LongshipError`: `ABORTED`, `TIMEOUT`,
 * `REMOTE_HTTP` (no answer, or an error status) or `REMOTE_RESPONSE` (an answer that is not JSON).
 *
 * @example
 * const endpoint = new JsonEndpoint({ baseUrl, apiKey, model }, 'chat/completions', 'openAiCompatibleLlm');
 * const answer = await endpoint.post({ messages }, { signal });
 */
export class JsonEndpoint {
  readonly model: string;
  /** `origin + path` without query string or credentials: what error messages name. */
  readonly endpoint: string;
  readonly #key: ApiKey;
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #fetch: (url: string, init: RequestInit) => Promise<Response>;
  readonly #slots: Semaphore;

  /** `client` names the caller in messages about its options. */
  constructor(options: EndpointOptions, path: string, client: string) {
    const { model } = options;
    if (typeof model !== 'string' || model === '') {
      throw new LongshipError('INVALID_ARGUMENT', `${client} needs a model`);
    }
    this.#key = new ApiKey(options.apiKey);
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      // Neither quoted nor kept as cause: the URL TypeError's `input` holds the text, credentials too.
      throw new LongshipError('INVALID_ARGUMENT', `${client}: baseUrl must be an absolute URL`);
    }
    if (url.username || url.password) {
      // fetch refuses such a URL with a TypeError that quotes it; pass the secret as apiKey instead.
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `${client}: baseUrl must not hold a user name or password; pass the secret as apiKey`,
      );
    }
    // Appended to the path, so that a query string (Azure's ?api-version=…) stays where it is.
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`;
    this.model = model;
    this.#url = url.href;
    this.endpoint = `${url.origin}${url.pathname}`;
    this.#timeoutMs = integerOption('timeoutMs', options.timeoutMs ?? 30_000, 1);
    this.#maxRetries = integerOption('maxRetries', options.maxRetries ?? 2, 0);
    this.#retryBaseMs = integerOption('retryBaseMs', options.retryBaseMs ?? 500, 0);
    this.#retryMaxMs = integerOption('retryMaxMs', options.retryMaxMs ?? 10_000, 0);
    this.#slots = new Semaphore(integerOption('maxConcurrent', options.maxConcurrent ?? 4, 1));
    // Looked up per call, and never called as a method of this object: some browsers throw
    // "Illegal invocation" when fetch's `this` is not the global.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** POSTs `{ model, ...body }` and resolves with the parsed JSON answer. */
  async post(body: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    const { signal } = options;
    const timeoutMs = Math.min(this.#timeoutMs, options.timeoutMs ?? this.#timeoutMs);
    const maxRetries = Math.min(this.#maxRetries, options.maxRetries ?? this.#maxRetries);
    const payload = JSON.stringify({ model: this.model, ...body });
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#slots.run(() => this.#attempt(payload, timeoutMs, signal), signal);
      if (!isRetryable(outcome)) return outcome.body;
      if (attempt >= maxRetries) throw outcome.error;
      const backoffMs = Math.min(this.#retryMaxMs, this.#retryBaseMs * 2 ** attempt);
      // Half fixed, half random: clients that failed together should not retry together.
      const delayMs = Math.min(
        this.#retryMaxMs,
        outcome.retryAfterMs ?? backoffMs / 2 + (Math.random() * backoffMs) / 2,
      );
      await sleep(delayMs, signal);
    }
  }

  /** A 2xx body that is not what the protocol promises. The problem text is redacted here. */
  badResponse(problem: string, body?: unknown): LongshipError {
    const shown = body === undefined ? '' : `: ${this.#excerpt(JSON.stringify(body) ?? '')}`;
    return new LongshipError('REMOTE_RESPONSE', `the answer from ${this.endpoint} ${problem}${shown}`);
  }

  /** One HTTP request: the parsed answer, a failure worth retrying, or a thrown final failure. */
  async #attempt(
    payload: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<{ body: unknown } | Retryable> {
    throwIfAborted(signal);
    // One signal for both the caller's and the timeout, rather than AbortSignal.any and
    // AbortSignal.timeout: Safari before 17.4 lacks `any`, and this way the timer is cleared and the
    // listener leaves the caller's (possibly long-lived) signal when the attempt ends.
    const deadline = startDeadline(timeoutMs, signal, `a request to ${this.endpoint}`);
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(this.#url, {
        method: 'POST',
        headers: this.#key.authorize({ 'content-type': 'application/json', accept: 'application/json' }),
        body: payload,
        signal: deadline.signal,
      });
      // Inside the try: the timeout covers a server that sends headers and then stalls the body.
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      const cause = this.#key.scrub(error);
      if (deadline.passed()) {
        return {
          error: new LongshipError('TIMEOUT', `${this.endpoint} did not answer within ${timeoutMs} ms`, {
            cause,
          }),
        };
      }
      return { error: new LongshipError('REMOTE_HTTP', `could not reach ${this.endpoint}`, { cause }) };
    } finally {
      deadline.clear();
    }
    if (!response.ok) return this.#httpFailure(response, text);
    try {
      // The one place every answer passes: from here on, no echo of the key exists to leak.
      return { body: this.#key.redactValue(JSON.parse(text)) };
    } catch (error) {
      throw new LongshipError(
        'REMOTE_RESPONSE',
        `${this.endpoint} answered ${response.status} with a body that is not JSON: ${this.#excerpt(text)}`,
        // A server may echo the Authorization header into a body that the SyntaxError then quotes.
        { cause: this.#key.isIn(text) ? parseError(this.#key.redact(text)) : error },
      );
    }
  }

  #httpFailure(response: Response, text: string): Retryable {
    const { status, statusText } = response;
    const error = new LongshipError(
      'REMOTE_HTTP',
      `${this.#key.redact(`${this.endpoint} answered ${status} ${statusText}`.trim())}: ${this.#excerpt(errorMessage(text))}`,
      { cause: { status } },
    );
    // Other 4xx mean the request itself is wrong (bad key, unknown model, input too long): sending
    // it again cannot help.
    if (status !== 429 && status < 500) throw error;
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return retryAfterMs === undefined ? { error } : { error, retryAfterMs };
  }

  /** A short, single-line, key-free piece of a response body for an error message. */
  #excerpt(text: string): string {
    const line = this.#key.redact(text).replace(/\s+/g, ' ').trim();
    return line.length > 200 ? `${line.slice(0, 200)}…` : line || '(empty body)';
  }
}

/** Whether a parsed JSON value is an object (not null, not an array): the first check of any answer. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRetryable(value: { body: unknown } | Retryable): value is Retryable {
  return 'error' in value;
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

// V8's SyntaxError quotes about ten characters of the text, too few for ApiKey.scrub to recognise a
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
