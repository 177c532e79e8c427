// Records as the Durable Object store's rows hold them, and back: a copy each way, so nothing a
// caller holds aliases what is stored (store.ts).

import type { NodeRecord, PostingRecord, RelationRecord, VectorRecord } from '../store.js';
import type { SqlValue } from './sql-storage.js';
import { parseTagged, stringifyTagged } from './tagged-json.js';

type Row = Record<string, SqlValue>;

export const nodeColumns = (node: NodeRecord): SqlValue[] => [
  node.uri,
  node.key,
  node.parent,
  stringifyTagged(node),
];

export const nodeOf = (row: Row): NodeRecord => parseTagged(row.record as string);

/** A vector's floats as a BLOB: the bytes of its view only, not of the heap it may be a view into. */
export const vectorColumns = (vector: VectorRecord): SqlValue[] => [
  vector.key,
  vector.nodeKey,
  vector.chunk,
  new Uint8Array(vector.vector.buffer, vector.vector.byteOffset, vector.vector.byteLength),
];

export function vectorOf(row: Row): VectorRecord {
  const blob = row.vector as ArrayBuffer | Uint8Array;
  const bytes = blob instanceof Uint8Array ? blob : new Uint8Array(blob);
  // A buffer of its own, exactly the vector's length (an aligned copy of whatever SQLite handed out).
  const vector = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(vector.buffer).set(bytes);
  return { key: Number(row.key), nodeKey: Number(row.node_key), chunk: Number(row.chunk), vector };
}

export const postingColumns = (posting: PostingRecord): SqlValue[] => [posting.key, stringifyTagged(posting)];

export const postingOf = (row: Row): PostingRecord => parseTagged(row.record as string);

export const relationColumns = (relation: RelationRecord): SqlValue[] => [
  relation.from,
  relation.to,
  stringifyTagged(relation),
];

export const relationOf = (row: Row): RelationRecord => parseTagged(row.record as string);
