/**
 * How context() counts tokens (docs/guide/context.md, "Tokens"). The default is OpenAI's `o200k_base`
 * (GPT-4o, GPT-4.1, GPT-5, o-series) from `gpt-tokenizer`: pure JavaScript with no dependencies, so
 * it runs in browsers, workers, Deno and workerd alike; one encoding is one module of about 1 MB
 * gzipped, loaded on the first context() call only. Another model's tokenizer plugs in as
 * `{ name, count }`.
 */
import { raceAbort, throwIfAborted } from '../abort.js';
import { LongshipError } from '../errors.js';

/**
 * Counts the tokens of a text as the model that will read it does. `count` may return a promise
 * (a tokenizer on the page, reached from the worker), though a synchronous one is faster.
 *
 * @example
 * const words: Tokenizer = { name: 'words', count: (text) => text.split(/\s+/).filter(Boolean).length };
 * await longship.context('retry policy', { budget: { tokens: 500 }, tokenizer: words });
 */
export interface Tokenizer {
  /** Reported with each result (`tokenizer`), so a count can be traced to what counted it. */
  readonly name?: string;
  count(text: string): number | Promise<number>;
}

/** A tokenizer that can stop counting past a limit: the default one can, with `gpt-tokenizer`. */
interface BoundedTokenizer extends Tokenizer {
  /** The count if it is at most `limit`; otherwise some number above `limit`. */
  countUpTo(text: string, limit: number): number;
}

/** The name the default tokenizer reports. */
export const defaultTokenizerName = 'o200k_base';

let loading: Promise<Tokenizer> | undefined;

/**
 * The default tokenizer, `o200k_base`, loaded once. Special-token text in a document
 * (`<|endoftext|>`) is counted as the plain text it is, never refused.
 *
 * @example
 * const tokenizer = await defaultTokenizer();
 * tokenizer.count('Hello, world!'); // 4
 */
export function defaultTokenizer(): Promise<Tokenizer> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(
    ({ countTokens, isWithinTokenLimit }) => {
      const plain = { disallowedSpecial: new Set<string>() };
      const tokenizer: BoundedTokenizer = {
        name: defaultTokenizerName,
        count: (text) => countTokens(text, plain),
        countUpTo: (text, limit) => {
          const within = isWithinTokenLimit(text, limit, plain);
          return within === false ? limit + 1 : within;
        },
      };
      return tokenizer;
    },
    (error: unknown) => {
      loading = undefined;
      throw new LongshipError('MODEL_LOAD', `the ${defaultTokenizerName} tokenizer could not be loaded`, {
        cause: error,
      });
    },
  );
  return loading;
}

/**
 * `tokenizer` as context() calls it under `signal`: each count first checks the signal, and a count
 * that returns a promise is raced against it, so a tokenizer that never answers cannot hold
 * context() past its signal (`ABORTED`). A synchronous count that never returns blocks the thread
 * it runs on, and nothing can stop it there (docs/guide/context.md, "Tokens").
 */
export function abortableTokenizer(tokenizer: Tokenizer, signal: AbortSignal | undefined): Tokenizer {
  if (!signal) return tokenizer;
  const what = 'context()';
  const abortable: Tokenizer & Partial<BoundedTokenizer> = {
    ...(tokenizer.name === undefined ? {} : { name: tokenizer.name }),
    count(text) {
      throwIfAborted(signal, what);
      const counted = tokenizer.count(text);
      return typeof counted === 'number' ? counted : raceAbort(Promise.resolve(counted), [signal], what);
    },
  };
  const bounded = (tokenizer as Partial<BoundedTokenizer>).countUpTo;
  if (typeof bounded === 'function') {
    abortable.countUpTo = (text, limit) => {
      throwIfAborted(signal, what);
      return bounded.call(tokenizer, text, limit);
    };
  }
  return abortable;
}

/**
 * The tokens of `text` if at most `limit`, else some number above `limit`: a long text that cannot
 * fit is not counted to its end where the tokenizer can stop early.
 */
export async function countUpTo(tokenizer: Tokenizer, text: string, limit: number): Promise<number> {
  const bounded = (tokenizer as Partial<BoundedTokenizer>).countUpTo;
  if (typeof bounded !== 'function' || limit < 0) return countTokens(tokenizer, text);
  return bounded.call(tokenizer, text, limit);
}

/**
 * `tokenizer.count(text)`, checked: a count that is not a whole number ≥ 0 would make every budget
 * meaningless, so it is INVALID_ARGUMENT naming the tokenizer.
 */
export async function countTokens(tokenizer: Tokenizer, text: string): Promise<number> {
  const counted = tokenizer.count(text);
  const count = typeof counted === 'number' ? counted : await counted;
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `tokenizer ${tokenizer.name ?? '(unnamed)'} counted ${String(count)} tokens; a count must be a whole number ≥ 0`,
    );
  }
  return count;
}
