// The part of a Deno KV handle the store uses, typed by shape: `Deno.openKv()`'s and the `@deno/kv`
// package's (the same engine in Node) both fit, and neither is imported (docs/guide/deno-kv.md).

/** A part of a KV key. */
export type KvKeyPart = Uint8Array | string | number | bigint | boolean | symbol;
/** A KV key: its parts, ordered part by part. */
export type KvKey = readonly KvKeyPart[];

/** What a read of one key finds: `versionstamp` null when the key holds nothing. */
export interface KvEntryMaybe<T = unknown> {
  key: KvKey;
  value: T | null;
  versionstamp: string | null;
}

/** One entry of a listed range. */
export interface KvEntry<T = unknown> {
  key: KvKey;
  value: T;
  versionstamp: string;
}

/** An atomic batch: its checks hold and every mutation is made, or nothing is. */
export interface KvAtomicOperation {
  check(...checks: { key: KvKey; versionstamp: string | null }[]): this;
  set(key: KvKey, value: unknown): this;
  delete(key: KvKey): this;
  commit(): Promise<{ ok: boolean }>;
}

/** The methods of `Deno.Kv` the store calls. */
export interface DenoKv {
  get<T = unknown>(key: KvKey): Promise<KvEntryMaybe<T>>;
  getMany<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: KvKey }],
  ): Promise<{ [K in keyof T]: KvEntryMaybe<T[K]> }>;
  list<T = unknown>(
    selector:
      | { prefix: KvKey }
      | { prefix: KvKey; start: KvKey }
      | { prefix: KvKey; end: KvKey }
      | { start: KvKey; end: KvKey },
    options?: { batchSize?: number },
  ): AsyncIterable<KvEntry<T>>;
  atomic(): KvAtomicOperation;
}

// Deno KV's limits (denokv's limits.rs): a value of 64 KiB, a key of 2 KiB, an atomic batch of
// 1,000 mutations, 800 KiB of keys and values and 80 KiB of keys, 10 keys a getMany. The store keeps
// under them with room to spare, since it can only estimate how large a value is once serialized.
/** The most a value the store writes may take, estimated; a journal entry wraps one with its key. */
export const VALUE_BYTES = 56 * 1024;
/** Mutations in one atomic batch. */
export const BATCH_MUTATIONS = 900;
/** Estimated keys and values in one atomic batch. */
export const BATCH_BYTES = 640 * 1024;
/** Estimated keys in one atomic batch. */
export const BATCH_KEY_BYTES = 64 * 1024;
/** Keys a getMany reads at once. */
export const GET_MANY_KEYS = 10;
