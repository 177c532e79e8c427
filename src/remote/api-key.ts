import { LongshipError } from '../errors.js';

/**
 * The API key of a remote endpoint, and the one place that knows how to keep it out of error
 * messages, causes and stacks. The key sits in a private field: util.inspect, JSON.stringify and
 * structured clone cannot see it, so logging a client does not print it.
 *
 * @example
 * const key = new ApiKey(options.apiKey);
 * throw new LongshipError('REMOTE_HTTP', key.redact(body), { cause: key.scrub(error) });
 */
export class ApiKey {
  readonly #value: string;

  /** `undefined` or `''` means no key: requests go without an Authorization header. */
  constructor(value: string | undefined) {
    const key = value ?? '';
    // A key that is not a valid header value makes fetch throw a TypeError that quotes it.
    if (typeof key !== 'string' || !/^[\x21-\x7e]*$/.test(key)) {
      throw new LongshipError('INVALID_ARGUMENT', 'apiKey must be printable ASCII without spaces');
    }
    this.#value = key;
  }

  /** `headers` with `Authorization: Bearer …` added when there is a key. */
  authorize(headers: Record<string, string>): Record<string, string> {
    return this.#value ? { ...headers, authorization: `Bearer ${this.#value}` } : headers;
  }

  /** Whether `text` holds the whole key. */
  isIn(text: string): boolean {
    return this.#value !== '' && text.includes(this.#value);
  }

  redact(text: string): string {
    return this.#value ? text.replaceAll(this.#value, '[redacted]') : text;
  }

  /**
   * Foreign errors are kept as `cause`, except when they quote the key (a network error may quote
   * whatever it was given). Such an error is replaced by a copy with the key redacted, down its whole
   * cause chain.
   */
  scrub(error: unknown, depth = 0): unknown {
    if (!this.#value || !mentions(error, this.#value, depth)) return error;
    if (!(error instanceof Error)) return this.redact(String(error));
    const copy = new Error(this.redact(error.message), {
      cause: depth < 8 ? this.scrub(error.cause, depth + 1) : undefined,
    });
    copy.name = error.name;
    copy.stack = this.redact(error.stack ?? '');
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
