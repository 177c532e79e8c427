// The one way every component reports and enforces an abort: `ABORTED` with the signal's reason as
// `cause`, checked between steps, and raced against work that may never look at its signal.
import { LongshipError } from './errors.js';

/**
 * The error every component throws when its caller aborts; the signal's reason is kept as `cause`.
 * A reason that is already a LongshipError (`STORE_CLOSED` from close()) is thrown as it is.
 *
 * @example
 * signal.addEventListener('abort', () => reject(abortError(signal)));
 */
export function abortError(signal: AbortSignal, what?: string): LongshipError {
  if (signal.reason instanceof LongshipError) return signal.reason;
  const message = what ? `${what} was aborted` : 'aborted by the caller';
  return new LongshipError('ABORTED', message, { cause: signal.reason });
}

/**
 * Throws {@link abortError} when the signal has fired; `what` names the step in the message.
 *
 * @example
 * for (const doc of documents) { throwIfAborted(signal, 'ingestion'); await plan(doc); }
 */
export function throwIfAborted(signal: AbortSignal | undefined, what?: string): void {
  if (signal?.aborted) throw abortError(signal, what);
}

/**
 * Settles as `work` does, or rejects with {@link abortError} as soon as one of `signals` fires,
 * whether or not `work` ever looks at its signal: a stuck embedder cannot hold its caller. `work`
 * is left to finish on its own; its late failure is swallowed.
 *
 * @example
 * const vectors = await raceAbort(embedder.embed(texts, { signal }), [signal, closing]);
 */
export function raceAbort<T>(
  work: Promise<T>,
  signals: readonly (AbortSignal | undefined)[],
  what?: string,
): Promise<T> {
  const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  const fired = live.find((signal) => signal.aborted);
  if (fired) {
    work.catch(() => undefined);
    return Promise.reject(abortError(fired, what));
  }
  if (live.length === 0) return work;
  return new Promise<T>((resolve, reject) => {
    const listeners = live.map((signal) => {
      const listener = () => {
        stop();
        work.catch(() => undefined);
        reject(abortError(signal, what));
      };
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    });
    const stop = () => {
      for (const remove of listeners) remove();
    };
    work.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}
