/** Every failure Longship reports carries one of these codes; `switch` on it. */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  /** A string is not a valid `viking://` URI; the message says what is wrong and where. */
  | 'INVALID_URI'
  | 'DIMENSION_MISMATCH'
  | 'DUPLICATE_KEY'
  | 'READ_ONLY'
  | 'CORRUPT_INDEX'
  | 'OUT_OF_MEMORY'
  | 'INDEX_ERROR'
  | 'DISPOSED'
  | 'WASM_LOAD'
  /** An embedding model (its tokenizer, weights or runtime) could not be loaded; see `cause`. */
  | 'MODEL_LOAD'
  /** The caller's AbortSignal fired; the `cause` is its reason. */
  | 'ABORTED'
  /** A request took longer than its `timeoutMs`. */
  | 'TIMEOUT'
  /** A remote endpoint could not be reached or answered with an HTTP error status. */
  | 'REMOTE_HTTP'
  /** A remote endpoint answered 2xx with a body that is not what its protocol promises. */
  | 'REMOTE_RESPONSE'
  /** An LLM answered, but not with what its prompt asked for (no JSON, or JSON outside the schema). */
  | 'LLM_OUTPUT'
  /** The browser's storage quota is used up; the write was rolled back. `cause`: the DOMException. */
  | 'QUOTA_EXCEEDED'
  /** Another tab holds the database open at an older version, so it cannot be upgraded. */
  | 'STORE_BLOCKED'
  /** Another process has the file store open for writing; the message names the folder and the pid. */
  | 'STORE_LOCKED'
  /** The store was closed (by close(), or to let another tab upgrade it). */
  | 'STORE_CLOSED'
  /** The database was written by a newer schema than this code knows. */
  | 'SCHEMA_MISMATCH'
  /** The store's vectors come from another embedder (id or dimensions) than the one opening it. */
  | 'EMBEDDER_MISMATCH'
  /** The storage engine failed in a way no other code describes; see `cause`. */
  | 'STORE_ERROR'
  /** The input is of a kind ingestion cannot read (no fetch for a URL, an unsupported value). */
  | 'UNSUPPORTED_INPUT'
  /** A document is larger than the ingestion limit (`maxBytes`); nothing of it was read further. */
  | 'INPUT_TOO_LARGE'
  /** A document is binary (NUL bytes, invalid UTF-8, mostly control characters), not text. */
  | 'BINARY_INPUT'
  /** A document (a PDF, a Word file) is password-protected; nothing of it was read. */
  | 'ENCRYPTED_INPUT'
  /** A document (a PDF, a Word file) is damaged or truncated and cannot be read. */
  | 'CORRUPT_INPUT'
  /** No node at that `viking://` URI (or no relation between the two). */
  | 'NOT_FOUND'
  /** A node already exists at the URI being created or moved to. */
  | 'ALREADY_EXISTS'
  /** A directory was needed (a parent, the target of `ls`), and the node is a file. */
  | 'NOT_A_DIRECTORY'
  /** A file was needed (`read`, `write`), and the node is a directory. */
  | 'IS_A_DIRECTORY'
  /** `rm` without `recursive` on a directory that has children. */
  | 'DIRECTORY_NOT_EMPTY'
  /** The worker hosting a Longship failed to load or to start; nothing was opened. */
  | 'WORKER_LOST';

/**
 * The one error class Longship throws. Foreign failures (a WASM trap, a fetch) are kept as `cause`.
 *
 * @example
 * try { index.add(1, vector); } catch (e) { if (e instanceof LongshipError && e.code === 'DUPLICATE_KEY') … }
 */
export class LongshipError extends Error {
  override readonly name = 'LongshipError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
