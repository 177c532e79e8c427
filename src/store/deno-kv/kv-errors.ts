// How a failure of Deno KV itself reaches the caller: a LongshipError STORE_ERROR, the KV's error its cause.

import { LongshipError } from '../../errors.js';

/** `task`'s result; a failure of the KV (not a LongshipError) as STORE_ERROR with it as cause. */
export async function kvErrors<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (error instanceof LongshipError) throw error;
    throw new LongshipError('STORE_ERROR', `Deno KV failed: ${(error as Error)?.message ?? error}`, {
      cause: error,
    });
  }
}
