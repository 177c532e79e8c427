import { LongshipError } from './errors.js';

/**
 * The error every component throws when its caller aborts; the signal's reason is kept as `cause`.
 *
 * @example
 * signal.addEventListener('abort', () => reject(abortError(signal)));
 */
export function abortError(signal: AbortSignal): LongshipError {
  return new LongshipError('ABORTED', 'aborted by the caller', { cause: signal.reason });
}

/**
 * Throws {@link abortError} when the signal has fired.
 *
 * @example
 * throwIfAborted(options.signal);
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}
