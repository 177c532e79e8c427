// IndexedDB fails with DOMExceptions whose `name` is the only reliable signal (browsers and
// fake-indexeddb differ in class and message). Each becomes a LongshipError, the original as cause.

import { type ErrorCode, LongshipError } from '../../errors.js';

const CODES: Record<string, ErrorCode> = {
  QuotaExceededError: 'QUOTA_EXCEEDED',
  DataCloneError: 'INVALID_ARGUMENT',
  ConstraintError: 'INVALID_ARGUMENT',
  DataError: 'INVALID_ARGUMENT',
  VersionError: 'SCHEMA_MISMATCH',
};

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  QUOTA_EXCEEDED: 'the storage quota is exhausted; nothing of this write was stored',
  INVALID_ARGUMENT: 'IndexedDB refused a record',
  SCHEMA_MISMATCH: 'the database was created by a newer version of Longship',
};

/** The `name` of a thrown DOMException or Error, if it has one. */
export function errorName(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string'
    ? (error as { name: string }).name
    : undefined;
}

/**
 * Wraps a failure from IndexedDB. A LongshipError passes through unchanged.
 *
 * @example
 * catch (e) { throw toStoreError(e, 'commit'); }
 */
export function toStoreError(error: unknown, during: string): LongshipError {
  if (error instanceof LongshipError) return error;
  const name = errorName(error) ?? 'Error';
  const code = CODES[name] ?? 'STORE_ERROR';
  const detail = error instanceof Error && error.message ? `: ${error.message}` : '';
  const message = `${during}: ${MESSAGES[code] ?? `IndexedDB failed with ${name}`}${detail}`;
  return new LongshipError(code, message, { cause: error });
}
