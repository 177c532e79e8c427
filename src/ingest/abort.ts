/** The one way ingestion reports a caller's abort: as `ABORTED`, with the signal's reason as `cause`. */
import { LongshipError } from '../errors.js';

/**
 * Throws `LongshipError('ABORTED')` when `signal` has fired; call it between steps of long work.
 *
 * @example
 * for (const doc of documents) { checkAborted(signal); await plan(doc); }
 */
export function checkAborted(signal: AbortSignal | undefined, what = 'ingestion'): void {
  if (signal?.aborted) throw new LongshipError('ABORTED', `${what} was aborted`, { cause: signal.reason });
}
