import { LongshipError } from '../errors.js';
import { keyEchoes } from './key-echoes.js';

/**
 * The API key of a remote endpoint, and the one place that knows how to keep it out of answers,
 * error messages, causes and stacks. The key sits in a private field: util.inspect, JSON.stringify
 * and structured clone cannot see it, so logging a client does not print it.
 *
 * Everything a server sends back passes {@link ApiKey.redactValue} before anyone reads it, so an
 * echo of the key (plain, any case, URL- or JSON-escaped, base64 at any alignment) never reaches a
 * result, an error, a trace or the store (docs/guide/reliability.md).
 *
 * @example
 * const key = new ApiKey(options.apiKey);
 * throw new LongshipError('REMOTE_HTTP', key.redact(body), { cause: key.scrub(error) });
 */
export class ApiKey {
  readonly #value: string;
  readonly #echoes: RegExp | undefined;

  /** `undefined` or `''` means no key: requests go without an Authorization header. */
  constructor(value: string | undefined) {
    const key = value ?? '';
    // A key that is not a valid header value makes fetch throw a TypeError that quotes it.
    if (typeof key !== 'string' || !/^[\x21-\x7e]*$/.test(key)) {
      throw new LongshipError('INVALID_ARGUMENT', 'apiKey must be printable ASCII without spaces');
    }
    this.#value = key;
    this.#echoes = key ? keyEchoes(key) : undefined;
  }

  /** `headers` with `Authorization: Bearer …` added when there is a key. */
  authorize(headers: Record<string, string>): Record<string, string> {
    return this.#value ? { ...headers, authorization: `Bearer ${this.#value}` } : headers;
  }

  /** Whether `text` holds the key in any of the forms {@link redact} removes. */
  isIn(text: string): boolean {
    if (!this.#echoes) return false;
    this.#echoes.lastIndex = 0;
    return this.#echoes.test(text);
  }

  redact(text: string): string {
    return this.#echoes ? text.replace(this.#echoes, '[redacted]') : text;
  }

  /**
   * A parsed JSON answer with every string (object keys included) redacted. Iterative, so a deeply
   * nested answer cannot overflow the stack.
   */
  redactValue(value: unknown): unknown {
    if (!this.#echoes) return value;
    if (typeof value === 'string') return this.redact(value);
    if (typeof value !== 'object' || value === null) return value;
    const pending = [this.#redactKeys(value)];
    for (let holder = pending.pop(); holder; holder = pending.pop()) {
      for (const name of Object.keys(holder)) {
        const item = holder[name];
        if (typeof item === 'string') holder[name] = this.redact(item);
        else if (typeof item === 'object' && item !== null) pending.push(this.#redactKeys(item));
      }
    }
    return value;
  }

  /** The object itself, its keys redacted in place (a parsed answer is ours to change). */
  #redactKeys(item: object): Record<string, unknown> {
    const record = item as Record<string, unknown>;
    if (Array.isArray(item)) return record;
    for (const name of Object.keys(record)) {
      const clean = this.redact(name);
      if (clean !== name) {
        record[clean] = record[name];
        delete record[name];
      }
    }
    return record;
  }

  /**
   * Foreign errors are kept as `cause`, except when they quote the key (a network error may quote
   * whatever it was given). Such an error is replaced by a copy with the key redacted, down its whole
   * cause chain.
   */
  scrub(error: unknown, depth = 0): unknown {
    if (!this.#echoes || !this.#mentions(error, depth)) return error;
    if (!(error instanceof Error)) return this.redact(safeString(error));
    const copy = new Error(this.redact(error.message), {
      cause: depth < 8 ? this.scrub(error.cause, depth + 1) : undefined,
    });
    copy.name = error.name;
    copy.stack = this.redact(error.stack ?? '');
    return copy;
  }

  #mentions(error: unknown, depth: number): boolean {
    if (depth > 8 || error === undefined || error === null) return false;
    if (!(error instanceof Error)) return this.isIn(safeString(error));
    // Own properties too: a TypeError from `new URL()` carries the text it was given as `input`.
    return (
      this.isIn(error.message) ||
      this.isIn(error.stack ?? '') ||
      this.isIn(safeString({ ...error })) ||
      this.#mentions(error.cause, depth + 1)
    );
  }
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'object' ? (JSON.stringify(value) ?? String(value)) : String(value);
  } catch {
    return String(value);
  }
}
