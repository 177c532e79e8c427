import { abortError, throwIfAborted } from '../../abort.js';
// One IndexedDB connection and the transaction discipline every IdbStore operation follows:
// reads in a readonly transaction; writes in one readwrite transaction that either commits or is
// aborted as a whole, with IndexedDB's DOMExceptions turned into LongshipErrors.

import { type IDBPDatabase, type IDBPTransaction, unwrap } from 'idb';
import { LongshipError } from '../../errors.js';
import type { StoreState } from '../plan/plan-reader.js';
import { errorName, toStoreError } from './idb-errors.js';
import { INITIAL_STATE, type LongshipDB, STATE_KEY, type StoreName } from './idb-schema.js';

export type Tx<Mode extends IDBTransactionMode> = IDBPTransaction<LongshipDB, StoreName[], Mode>;
export type AnyTx = Tx<'readonly'> | Tx<'readwrite'>;

/** Issues a write without awaiting it: the transaction's outcome reports its failure. */
export const fire = (request: Promise<unknown>): void => {
  request.catch(() => undefined);
};

/** Every array key that starts with `prefix`: [prefix, []] sorts above [prefix, any string or number]. */
export const under = (...prefix: (string | number)[]) => IDBKeyRange.bound(prefix, [...prefix, []]);

/**
 * Resolves when the transaction commits; rejects with the error that aborted it. Not idb's
 * tx.done: that rejects on the first request error as it bubbles, before the abort sets tx.error,
 * so a QuotaExceededError from a request would arrive as a bare AbortError.
 */
function committed(tx: AnyTx): Promise<void> {
  const raw = unwrap(tx) as IDBTransaction;
  return new Promise((resolve, reject) => {
    raw.addEventListener('complete', () => resolve());
    raw.addEventListener('abort', () =>
      reject(raw.error ?? new DOMException('The transaction was aborted', 'AbortError')),
    );
  });
}

/** The store's counters and embedder, as of this transaction. */
export async function stateOf(tx: AnyTx): Promise<StoreState> {
  return (await tx.objectStore('meta').get(STATE_KEY)) ?? { ...INITIAL_STATE };
}

/**
 * A connection that knows when it has been closed and why.
 *
 * @example
 * const seq = await connection.write(['meta'], 'allocateKeys', async (tx) => (await stateOf(tx)).seq);
 */
export class IdbConnection {
  private closedBecause: string | undefined;

  constructor(
    readonly db: IDBPDatabase<LongshipDB>,
    readonly name: string,
  ) {
    // Another tab wants a newer version (or to delete the database): step aside rather than block it.
    db.addEventListener('versionchange', () => {
      this.close('it was closed so that another tab could upgrade or delete the database; reopen it');
    });
    db.addEventListener('close', () => {
      this.closedBecause ??= 'the browser closed the database (storage cleared or lost)';
    });
  }

  get isClosed(): boolean {
    return this.closedBecause !== undefined;
  }

  /** Closes the connection; later calls fail with STORE_CLOSED giving the first reason. */
  close(reason: string): void {
    this.closedBecause ??= reason;
    this.db.close();
  }

  private transaction<Mode extends IDBTransactionMode>(stores: StoreName[], mode: Mode): Tx<Mode> {
    if (this.closedBecause) {
      throw new LongshipError('STORE_CLOSED', `store ${this.name}: ${this.closedBecause}`);
    }
    try {
      // Strict: a commit resolves only once the browser has flushed it to disk, so that not even a
      // power cut or an OS crash takes back a write that resolved (Chromium's default, relaxed,
      // completes before the flush).
      const options = mode === 'readwrite' ? { durability: 'strict' as const } : {};
      const tx = this.db.transaction(stores, mode, options) as unknown as Tx<Mode>;
      fire(tx.done);
      return tx;
    } catch (error) {
      throw this.fail(error, 'transaction');
    }
  }

  private fail(error: unknown, during: string): LongshipError {
    if (this.closedBecause && !(error instanceof LongshipError)) {
      return new LongshipError('STORE_CLOSED', `store ${this.name}: ${this.closedBecause}`, { cause: error });
    }
    return toStoreError(error, `store ${this.name}: ${during}`);
  }

  /** Runs `body` in one readonly transaction. */
  async read<T>(stores: StoreName[], during: string, body: (tx: Tx<'readonly'>) => Promise<T>): Promise<T> {
    const tx = this.transaction(stores, 'readonly');
    try {
      return await body(tx);
    } catch (error) {
      throw this.fail(error, during);
    }
  }

  /** Runs `body` in one readwrite transaction and waits for it to commit; any failure aborts it all. */
  async write<T>(
    stores: StoreName[],
    during: string,
    body: (tx: Tx<'readwrite'>) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    throwIfAborted(signal);
    const tx = this.transaction(stores, 'readwrite');
    const done = committed(tx);
    done.catch(() => undefined);
    const abort = () => {
      try {
        tx.abort();
      } catch {
        // Already committed or aborted: nothing left to undo.
      }
    };
    signal?.addEventListener('abort', abort);
    try {
      const result = await body(tx);
      await done;
      return result;
    } catch (error) {
      abort();
      if (signal?.aborted) throw abortError(signal);
      // A request that failed aborts the transaction with its error: report that, not the echo.
      const reason = errorName(error) === 'AbortError' ? await done.catch((e: unknown) => e) : error;
      throw this.fail(reason ?? error, during);
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }
}
