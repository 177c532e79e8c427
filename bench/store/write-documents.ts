// The synthetic documents' records and their commits, shared by bench:store (Node) and bench:browser's
// store worker (Chromium), so that both runtimes write exactly the same documents the same way.
import type { KeySource } from '../../src/ingest/commit/write-batch.js';
import type { FullStore } from '../../src/store/full-store.js';
import type { NodeRecord, WriteBatch } from '../../src/store/store.js';
import type { Documents } from './synthetic.js';

/** A node record under `parent`: a file when it has `l2`, else a directory. */
export function nodeRecord(uri: string, parent: string, key: number, l0: string, l2?: string): NodeRecord {
  const now = Date.now();
  return {
    uri,
    parent,
    name: uri.slice(uri.lastIndexOf('/') + 1),
    kind: l2 === undefined ? 'dir' : 'file',
    contextType: 'resource',
    key,
    l0,
    ...(l2 !== undefined ? { l2 } : {}),
    summaryKind: 'extractive',
    meta: {},
    createdAt: now,
    updatedAt: now,
    useCount: 0,
  };
}

/**
 * One commit of `count` documents (node, vector, posting) under `dir`, ids from `first`; through an
 * indexed store, it resolves once they are indexed. Keys come from `keys`, a `keyPool(store)` as
 * ingestion uses: a block of keys now and then, not a transaction of their own for every commit.
 */
export async function writeDocuments(
  store: FullStore,
  keys: KeySource,
  docs: Documents,
  dir: string,
  first: number,
  count: number,
): Promise<void> {
  await store.commit(await documentBatch(keys, docs, dir, first, count));
}

/**
 * The batch {@link writeDocuments} commits. Made apart so that a benchmark can time the commit alone:
 * drawing the synthetic texts and vectors is the benchmark's work, not the store's (~0.02 ms a
 * document in Node, 7% of what the store and index take).
 */
export async function documentBatch(
  keys: KeySource,
  docs: Documents,
  dir: string,
  first: number,
  count: number,
): Promise<WriteBatch> {
  const firstKey = await keys(2 * count);
  const batch: Required<Pick<WriteBatch, 'putNodes' | 'putVectors' | 'putPostings'>> = {
    putNodes: [],
    putVectors: [],
    putPostings: [],
  };
  for (let i = 0; i < count; i++) {
    const id = first + i;
    const key = firstKey + 2 * i;
    const body = docs.text(id);
    batch.putNodes.push(nodeRecord(`${dir}/doc-${id}`, dir, key, body.slice(0, 80), body));
    batch.putVectors.push({ key: key + 1, nodeKey: key, chunk: 0, vector: docs.vector(id) });
    batch.putPostings.push({ key, title: `doc-${id}`, body });
  }
  return batch;
}
