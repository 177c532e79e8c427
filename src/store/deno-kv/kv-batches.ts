// Mutations cut into atomic batches that keep under Deno KV's limits (kv-handle.ts).

import { LongshipError } from '../../errors.js';
import {
  BATCH_BYTES,
  BATCH_KEY_BYTES,
  BATCH_MUTATIONS,
  type DenoKv,
  GET_MANY_KEYS,
  type KvAtomicOperation,
  type KvKey,
} from './kv-handle.js';
import { estimateBytes, keyBytes } from './kv-values.js';

/** A set (with its value) or a delete (without). */
export interface Mutation {
  key: KvKey;
  value?: unknown;
  delete?: true;
}

export const set = (key: KvKey, value: unknown): Mutation => ({ key, value });
export const del = (key: KvKey): Mutation => ({ key, delete: true });

/** The size a mutation counts for in a batch. */
export function mutationBytes(m: Mutation): number {
  return keyBytes(m.key) + (m.delete ? 0 : estimateBytes(m.value));
}

/** Mutations in order, cut into batches under the limits, with `reserve` mutations left in the first. */
export function toBatches(mutations: readonly Mutation[], reserve = 0): Mutation[][] {
  const batches: Mutation[][] = [];
  let batch: Mutation[] = [];
  let bytes = 0;
  let keys = 0;
  let room = BATCH_MUTATIONS - reserve;
  for (const m of mutations) {
    const size = mutationBytes(m);
    const key = keyBytes(m.key);
    if (
      batch.length > 0 &&
      (batch.length >= room || bytes + size > BATCH_BYTES || keys + key > BATCH_KEY_BYTES)
    ) {
      batches.push(batch);
      batch = [];
      bytes = 0;
      keys = 0;
      room = BATCH_MUTATIONS;
    }
    batch.push(m);
    bytes += size;
    keys += key;
  }
  if (batch.length > 0 || batches.length === 0) batches.push(batch);
  return batches;
}

/** `mutations` added to `op`, in order. */
export function addTo(op: KvAtomicOperation, mutations: readonly Mutation[]): KvAtomicOperation {
  for (const m of mutations) {
    if (m.delete) op.delete(m.key);
    else op.set(m.key, m.value);
  }
  return op;
}

/** Commits each batch on its own, unchecked: for what is idempotent or not yet published. */
export async function commitEach(kv: DenoKv, mutations: readonly Mutation[]): Promise<void> {
  for (const batch of toBatches(mutations)) {
    const result = await addTo(kv.atomic(), batch).commit();
    if (!result.ok) throw new LongshipError('STORE_ERROR', 'an unchecked Deno KV batch was refused');
  }
}

/** The values at `keys`, in order, null where none: getMany ten keys at a time. */
export async function getValues(kv: DenoKv, keys: readonly KvKey[]): Promise<unknown[]> {
  const reads: Promise<{ value: unknown }[]>[] = [];
  for (let i = 0; i < keys.length; i += GET_MANY_KEYS) {
    reads.push(kv.getMany(keys.slice(i, i + GET_MANY_KEYS) as KvKey[]) as Promise<{ value: unknown }[]>);
  }
  return (await Promise.all(reads)).flat().map((entry) => entry.value);
}

/** Every entry under `prefix`, in key order. */
export async function listAll<T>(
  kv: DenoKv,
  selector: Parameters<DenoKv['list']>[0],
): Promise<{ key: KvKey; value: T }[]> {
  const found: { key: KvKey; value: T }[] = [];
  for await (const entry of kv.list<T>(selector)) found.push({ key: entry.key, value: entry.value });
  return found;
}
