// Record builders for the store contract (store-contract.ts), and for our own store tests.

import { LongshipError } from '../errors.js';
import type {
  EmbedderInfo,
  NodeRecord,
  PostingRecord,
  RelationRecord,
  VectorRecord,
  WriteBatch,
} from '../store/store.js';

export const EMBEDDER: EmbedderInfo = { id: 'test-embedder@1', dimensions: 4 };
export const OTHER_EMBEDDER: EmbedderInfo = { id: 'other-embedder@2', dimensions: 8 };

/** 'viking://resources/a/x' → 'viking://resources/a'; a top-level URI has no parent. */
export function parentOf(uri: string): string | null {
  const cut = uri.lastIndexOf('/');
  const parent = uri.slice(0, cut);
  return parent.endsWith('/') ? null : parent;
}

export function node(uri: string, key: number, extra: Partial<NodeRecord> = {}): NodeRecord {
  return {
    uri,
    parent: parentOf(uri),
    name: uri.slice(uri.lastIndexOf('/') + 1),
    kind: 'file',
    contextType: 'resource',
    key,
    l0: `about ${uri}`,
    summaryKind: 'extractive',
    meta: {},
    createdAt: 1000,
    updatedAt: 1000,
    useCount: 0,
    ...extra,
  };
}

export function dir(uri: string, key: number): NodeRecord {
  return node(uri, key, { kind: 'dir' });
}

export function vector(
  key: number,
  nodeKey: number,
  chunk: number,
  dimensions = EMBEDDER.dimensions,
): VectorRecord {
  return { key, nodeKey, chunk, vector: Float32Array.from({ length: dimensions }, (_, i) => key + i / 10) };
}

export function posting(key: number, body = `body ${key}`): PostingRecord {
  return { key, body };
}

export function relation(from: string, to: string, reason = 'see also'): RelationRecord {
  return { from, to, reason, createdAt: 2000 };
}

/** A node with its posting and `vectorKeys.length` chunk vectors: one consistent unit. */
export function withContent(
  record: NodeRecord,
  vectorKeys: readonly number[] = [],
): Required<Pick<WriteBatch, 'putNodes' | 'putPostings' | 'putVectors'>> {
  return {
    putNodes: [record],
    putPostings: [posting(record.key, record.l0)],
    putVectors: vectorKeys.map((key, chunk) => vector(key, record.key, chunk)),
  };
}

/** Joins batches into one. */
export function merge(...batches: WriteBatch[]): WriteBatch {
  const out: Record<string, unknown[]> = {};
  for (const batch of batches) {
    for (const [field, values] of Object.entries(batch))
      out[field] = [...(out[field] ?? []), ...(values as unknown[])];
  }
  return out as WriteBatch;
}

/** The LongshipError code a promise rejects with (fails the test if it resolves or throws something else). */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LongshipError) return error.code;
    throw error;
  }
  throw new Error('expected a LongshipError, but it resolved');
}

/** Bytes with a position-dependent pattern, so a misplaced chunk changes the content. */
export function patternBytes(length: number, salt = 0): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >>> 11) + salt) & 0xff;
  return bytes;
}

export function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
