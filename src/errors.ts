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
  | 'WASM_LOAD';

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
