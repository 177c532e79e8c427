// `longship/testing`: the store contract suites, for a Store of your own (docs/internals/store.md). They run
// under vitest, an optional peer dependency: only this entry imports it.

export type { ChangeLog } from '../store/change-log.js';
export type { OpenStoreOptions, Store } from '../store/store.js';
export { changeLogContract } from '../testing/change-log-contract.js';
export type { ChangeLogHarness, SnapshotTamper, StoreHarness } from '../testing/harness.js';
export { storeContract } from '../testing/store-contract.js';
