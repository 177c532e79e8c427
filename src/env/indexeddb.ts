// The one place that reads the global `indexedDB`; everything else is handed a factory.

/**
 * The runtime's IndexedDB, or undefined where there is none (Node without a polyfill, workerd).
 *
 * @example
 * const factory = defaultIndexedDB();
 * const store = factory ? await openIdbStore('longship', { indexedDB: factory }) : await openMemoryStore();
 */
export function defaultIndexedDB(): IDBFactory | undefined {
  return typeof indexedDB === 'undefined' ? undefined : indexedDB;
}
