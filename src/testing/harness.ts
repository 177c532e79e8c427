// What the store contract (store-contract.ts) needs of a Store implementation under test.
import type { OpenStoreOptions, Store, StoreTables } from '../store/store.js';

/** A key of a table: a node's URI, a record's number, a relation's [from, to]. */
export type TableKey = string | number | [string, string];

/**
 * Writes that skip every check, to plant what `verify()` must find and damage what a read must
 * refuse. A store that cannot offer them leaves `tamper` out, and the tests that need it are skipped.
 */
export interface StoreTamper {
  put<T extends keyof StoreTables>(table: T, record: StoreTables[T]): Promise<void>;
  delete(table: keyof StoreTables, key: TableKey): Promise<void>;
  /** Flips a byte in the middle of a snapshot's chunk `index`, or deletes the chunk. */
  corruptSnapshot(name: string, how: 'flip-byte' | 'drop-chunk', index?: number): Promise<void>;
  /** [name, generation, index] of every stored snapshot chunk. */
  chunkIds(): Promise<Array<[string, string, number]>>;
}

/**
 * One store under test. The contract calls the harness factory once per test, so each test gets a
 * store of its own; `open` opens that one store, and opens it again after `close()`.
 *
 * @example
 * storeContract('MyStore', () => {
 *   const name = `test-${crypto.randomUUID()}`;
 *   return { open: (options) => openMyStore(name, options) };
 * });
 */
export interface StoreHarness {
  open(options?: OpenStoreOptions): Promise<Store>;
  tamper?: StoreTamper;
}
