// What SQLite throws in a Durable Object, as the store's typed errors.

import { LongshipError } from '../../errors.js';

/**
 * `error` as a LongshipError: a full database (past the object's storage limit) is `QUOTA_EXCEEDED`,
 * anything else `STORE_ERROR` with the original as `cause`. A LongshipError passes as it is.
 *
 * @example
 * try { sql.exec(query); } catch (error) { throw storeError(error, 'a read'); }
 */
export function storeError(error: unknown, what: string): LongshipError {
  if (error instanceof LongshipError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const full = /SQLITE_FULL|database or disk is full/i.test(message);
  return new LongshipError(full ? 'QUOTA_EXCEEDED' : 'STORE_ERROR', `${what} failed: ${message}`, {
    cause: error,
  });
}
