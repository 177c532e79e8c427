// How records become KV values. Nodes, postings and relations are stored as they are (KV values are
// structured clones, so a node's `meta` keeps what IndexedDB would keep); a node or posting past the
// value limit has its long text fields cut into parts under keys of their own. Vectors are bytes,
// and change records JSON bytes cut into chunks (docs/guide/deno-kv.md).

import { LongshipError } from '../../errors.js';
import type { ChangeRecord, VectorRecord } from '../store.js';
import { type KvKey, VALUE_BYTES } from './kv-handle.js';

/** A node or posting as stored: the record, less any field cut into parts, and how many parts each has. */
export interface StoredRecord<T> {
  record: T;
  parts?: [field: string, count: number][];
}

/** The text fields that may be cut into parts, longest first as a rule. */
const SPLIT_FIELDS = ['l2', 'l1', 'body', 'l0'];
/** Characters a part holds: at most two bytes each once serialized. */
const PART_CHARS = 24 * 1024;

/**
 * An upper estimate of the bytes a value takes serialized: a string two bytes a character (V8 writes
 * a string with any character past Latin-1 as UTF-16), a typed array its bytes, a little per field.
 */
export function estimateBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return 8 + 2 * value.length;
  if (value === null || typeof value !== 'object') return 10;
  if (depth > 64) return Number.POSITIVE_INFINITY;
  if (ArrayBuffer.isView(value)) return 16 + value.byteLength;
  if (value instanceof ArrayBuffer) return 16 + value.byteLength;
  let sum = 8;
  if (value instanceof Map) {
    for (const [k, v] of value) sum += estimateBytes(k, depth + 1) + estimateBytes(v, depth + 1);
  } else if (value instanceof Set) {
    for (const v of value) sum += estimateBytes(v, depth + 1);
  } else {
    for (const [k, v] of Object.entries(value))
      sum += estimateBytes(k, depth + 1) + estimateBytes(v, depth + 1);
  }
  return sum;
}

/** An estimate of the bytes a key takes encoded. */
export function keyBytes(key: KvKey): number {
  let sum = 0;
  for (const part of key) sum += typeof part === 'string' ? 2 + 3 * part.length : 10;
  return sum;
}

/** `record` as stored, and the parts cut from it, each under `partKey(field, i)`. */
export function splitRecord<T extends object>(
  record: T,
  partKey: (field: string, index: number) => KvKey,
): { stored: StoredRecord<T>; parts: [KvKey, string][] } {
  if (estimateBytes(record) <= VALUE_BYTES) return { stored: { record }, parts: [] };
  const rest: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  const counts: [string, number][] = [];
  const parts: [KvKey, string][] = [];
  for (const field of SPLIT_FIELDS) {
    const text = rest[field];
    if (typeof text !== 'string' || text.length === 0) continue;
    delete rest[field];
    let count = 0;
    for (let at = 0; at < text.length; at += PART_CHARS) {
      parts.push([partKey(field, count++), text.slice(at, at + PART_CHARS)]);
    }
    counts.push([field, count]);
    if (estimateBytes(rest) <= VALUE_BYTES) break;
  }
  if (estimateBytes(rest) > VALUE_BYTES) {
    throw new LongshipError(
      'STORE_ERROR',
      `a record's fields other than its text (its meta, headings) take more than ${VALUE_BYTES} bytes, past what a Deno KV value holds`,
    );
  }
  return { stored: { record: rest as T, parts: counts }, parts };
}

/** The keys of a stored record's parts. */
export function partKeys(
  stored: StoredRecord<unknown>,
  partKey: (field: string, index: number) => KvKey,
): KvKey[] {
  return (stored.parts ?? []).flatMap(([field, count]) =>
    Array.from({ length: count }, (_, i) => partKey(field, i)),
  );
}

/** The record whole again, its parts read by `read` (undefined when one is missing). */
export async function joinRecord<T>(
  stored: StoredRecord<T>,
  partKey: (field: string, index: number) => KvKey,
  read: (keys: KvKey[]) => Promise<unknown[]>,
): Promise<T> {
  if (!stored.parts?.length) return stored.record;
  const texts = await read(partKeys(stored, partKey));
  const record: Record<string, unknown> = { ...(stored.record as object) };
  let at = 0;
  for (const [field, count] of stored.parts) {
    const pieces = texts.slice(at, at + count);
    at += count;
    if (pieces.some((piece) => typeof piece !== 'string')) {
      throw new LongshipError('STORE_ERROR', `a part of a stored record's ${field} is missing`);
    }
    record[field] = pieces.join('');
  }
  return record as T;
}

// node key f64, chunk u32, then the floats.
const VECTOR_HEAD = 12;

/** A vector record as a value: its key is in the KV key. */
export function encodeVector(v: VectorRecord): Uint8Array {
  const out = new Uint8Array(VECTOR_HEAD + v.vector.byteLength);
  const view = new DataView(out.buffer);
  view.setFloat64(0, v.nodeKey, true);
  view.setUint32(8, v.chunk, true);
  // Little-endian, as every machine Deno runs on is.
  out.set(new Uint8Array(v.vector.buffer, v.vector.byteOffset, v.vector.byteLength), VECTOR_HEAD);
  return out;
}

export function decodeVector(key: number, bytes: Uint8Array): VectorRecord {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array((bytes.length - VECTOR_HEAD) / 4);
  new Uint8Array(vector.buffer).set(bytes.subarray(VECTOR_HEAD));
  return { key, nodeKey: view.getFloat64(0, true), chunk: view.getUint32(8, true), vector };
}

/** A change record as chunks of JSON bytes, each under the value limit. */
export function encodeChange(change: ChangeRecord): Uint8Array[] {
  const json = JSON.stringify(change, (_, value) =>
    value instanceof Float32Array ? { f32: Array.from(value) } : value,
  );
  return cut(new TextEncoder().encode(json));
}

export function decodeChange(chunks: readonly Uint8Array[]): ChangeRecord {
  const bytes = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return JSON.parse(new TextDecoder().decode(bytes), (_, value) =>
    value && typeof value === 'object' && Array.isArray(value.f32) ? Float32Array.from(value.f32) : value,
  );
}

/** Bytes in pieces of at most the value limit. */
export function cut(bytes: Uint8Array): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += VALUE_BYTES) pieces.push(bytes.slice(at, at + VALUE_BYTES));
  return pieces.length > 0 ? pieces : [new Uint8Array(0)];
}
