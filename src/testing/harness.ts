// What the contract suites (store-contract.ts, change-log-contract.ts) need of a store under test.
import type { ChangeLog } from '../store/change-log.js';
import { type FullStore, fullStore } from '../store/full-store.js';
import type { OpenStoreOptions, Store } from '../store/store.js';

/** Damage to stored snapshots, which a read must refuse. */
export interface SnapshotTamper {
  /** Flips a byte in the middle of a snapshot's chunk `index`, or deletes the chunk. */
  corruptSnapshot(name: string, how: 'flip-byte' | 'drop-chunk', index?: number): Promise<void>;
  /** [name, generation, index] of every stored snapshot chunk. */
  chunkIds(): Promise<Array<[string, string, number]>>;
}

/**
 * One store under test. The contract calls the harness factory once per test, so each test gets a
 * store of its own; `open` opens that one store, and opens it again after `close()`, with what it
 * held (a store in memory keeps its tables outside the object it opens, to be opened again).
 * `options` may be passed on to the store's own open or ignored: the contract records the embedder
 * itself, as openLongship does.
 *
 * @example
 * storeContract('MyStore', () => {
 *   const name = `test-${crypto.randomUUID()}`;
 *   return { open: (options) => openMyStore(name, options) };
 * });
 */
export interface StoreHarness {
  open(options?: OpenStoreOptions): Promise<Store>;
}

/**
 * A store that keeps a change log, under test by `changeLogContract`. `tamper`, where the harness
 * can damage stored snapshots, lets the test that a damaged snapshot reads as missing run.
 */
export interface ChangeLogHarness {
  open(options?: OpenStoreOptions): Promise<Store & ChangeLog>;
  tamper?: SnapshotTamper;
}

/**
 * The store `h` opens, and the same store as the engine uses it (fullStore), with `options.embedder`
 * recorded as openLongship records it: the harness's own open need not.
 *
 * @example
 * const { raw, store } = await opened(harness(), { embedder: EMBEDDER });
 */
export async function opened<S extends Store>(
  h: { open(options?: OpenStoreOptions): Promise<S> },
  options: OpenStoreOptions = {},
): Promise<{ raw: S; store: FullStore }> {
  const raw = await h.open(options);
  const store = fullStore(raw);
  if (options.embedder) {
    await store.useEmbedder(options.embedder, options.onEmbedderMismatch).catch(async (error) => {
      await raw.close().catch(() => undefined);
      throw error;
    });
  }
  return { raw, store };
}
