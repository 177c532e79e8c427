// A database as Longship's schema v1 wrote it, built by hand: the migration test must not use the
// code it tests. v1 kept vectors as plain number arrays and had no index on relations' `to`.

import { request } from '../harness.js';

export interface V1Contents {
  nodes: Array<Record<string, unknown>>;
  vectors: Array<{ key: number; nodeKey: number; chunk: number; vector: number[] }>;
  postings: Array<{ key: number; body: string }>;
  relations: Array<{ from: string; to: string; reason: string; createdAt: number }>;
  state: { seq: number; nextKey: number; embedder?: { id: string; dimensions: number } };
}

/** Creates database `name` at version 1 with `contents`, and closes it. */
export async function createV1Database(
  factory: IDBFactory,
  name: string,
  contents: V1Contents,
): Promise<void> {
  const open = factory.open(name, 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    const nodes = db.createObjectStore('nodes', { keyPath: 'uri' });
    nodes.createIndex('key', 'key', { unique: true });
    nodes.createIndex('parent', 'parent');
    db.createObjectStore('vectors', { keyPath: 'key' }).createIndex('nodeKey', 'nodeKey');
    db.createObjectStore('postings', { keyPath: 'key' });
    db.createObjectStore('relations', { keyPath: ['from', 'to'] });
    db.createObjectStore('changes', { keyPath: 'seq' });
    db.createObjectStore('meta');
    db.createObjectStore('snapshots', { keyPath: 'name' });
    db.createObjectStore('snapshotChunks', { keyPath: ['name', 'generation', 'index'] });
  };
  const db = await request(open);
  const tx = db.transaction(['nodes', 'vectors', 'postings', 'relations', 'meta'], 'readwrite');
  for (const n of contents.nodes) tx.objectStore('nodes').put(n);
  for (const v of contents.vectors) tx.objectStore('vectors').put(v);
  for (const p of contents.postings) tx.objectStore('postings').put(p);
  for (const r of contents.relations) tx.objectStore('relations').put(r);
  tx.objectStore('meta').put(contents.state, 'state');
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onabort = () => reject(tx.error);
  });
  db.close();
}
