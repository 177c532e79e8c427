// `longship/deno-kv`: the store kept in Deno KV (docs/guide/deno-kv.md), over a handle you open:
// `Deno.openKv()`'s, or the `@deno/kv` package's in Node. Nothing here imports either.

export type {
  DenoKv,
  KvAtomicOperation,
  KvEntry,
  KvEntryMaybe,
  KvKey,
  KvKeyPart,
} from '../store/deno-kv/kv-handle.js';
export { type DenoKvStoreOptions, openDenoKvStore } from '../store/deno-kv/open-deno-kv-store.js';
