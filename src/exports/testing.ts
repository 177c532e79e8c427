// `longship/testing`: the store contract suite, for a Store of your own (docs/internals/store.md). It runs
// under vitest, an optional peer dependency: only this entry imports it.

export type { OpenStoreOptions, Store } from '../store/store.js';
export type { StoreHarness, StoreTamper, TableKey } from '../testing/harness.js';
export { storeContract } from '../testing/store-contract.js';
