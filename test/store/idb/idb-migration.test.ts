import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openIdbStore } from '../../../src/store/idb/idb-open.js';
import { dir, EMBEDDER, node, posting, relation } from '../../../src/testing/records.js';
import { createV1Database, type V1Contents } from './v1-fixture.js';

const R = 'viking://resources';

function v1Contents(): V1Contents {
  return {
    nodes: [dir(R, 1), node(`${R}/a`, 2), node(`${R}/b`, 3)] as unknown as V1Contents['nodes'],
    vectors: [
      { key: 4, nodeKey: 2, chunk: 0, vector: [0.5, 0.25, 0, 1] },
      { key: 5, nodeKey: 2, chunk: 1, vector: [1, 2, 3, 4] },
      { key: 6, nodeKey: 3, chunk: 0, vector: [0, 0, 0, 1] },
    ],
    postings: [posting(1), posting(2), posting(3)],
    relations: [relation(`${R}/a`, `${R}/b`)],
    state: { seq: 3, nextKey: 7, embedder: EMBEDDER },
  };
}

describe('IdbStore schema migrations', () => {
  it('opens a v1 database and migrates it to v2: Float32Array vectors, relations indexed by target', async () => {
    const factory = new IDBFactory();
    await createV1Database(factory, 'old', v1Contents());
    const store = await openIdbStore('old', { indexedDB: factory, embedder: EMBEDDER });
    expect((await store.meta()).schemaVersion).toBe(2);
    const vectors = await store.vectorsOfNode(2);
    expect(vectors.map((v) => v.vector)).toEqual([
      new Float32Array([0.5, 0.25, 0, 1]),
      new Float32Array([1, 2, 3, 4]),
    ]);
    expect(vectors[0]!.vector).toBeInstanceOf(Float32Array);
    // Incoming relations are read through the new 'to' index.
    expect((await store.relations(`${R}/b`)).map((r) => r.from)).toEqual([`${R}/a`]);
    expect(await store.meta()).toMatchObject({ seq: 3, nextKey: 7, embedder: EMBEDDER });
    expect(await store.verify()).toEqual({ ok: true, problems: [] });
    await store.close();
    // The migration ran once; reopening changes nothing.
    const again = await openIdbStore('old', { indexedDB: factory });
    expect((await again.vectors([6]))[0]!.vector).toEqual(new Float32Array([0, 0, 0, 1]));
  });

  it('leaves a v1 database untouched when its migration fails', async () => {
    const factory = new IDBFactory();
    const contents = v1Contents();
    // A vector that cannot become a Float32Array (Float32Array.from(null) throws) fails the v2
    // step half way through its cursor.
    (contents.vectors[1] as { vector: unknown }).vector = null;
    await createV1Database(factory, 'broken', contents);
    const error = await openIdbStore('broken', { indexedDB: factory }).catch((e) => e);
    expect(error.code).toBe('STORE_ERROR');
    expect(error.message).toContain('migrating broken failed');
    expect(error.cause).toBeInstanceOf(TypeError);
    const raw = await new Promise<IDBDatabase>((resolve) => {
      const r = factory.open('broken');
      r.onsuccess = () => resolve(r.result);
    });
    expect(raw.version).toBe(1);
    const first = await new Promise((resolve) => {
      const r = raw.transaction('vectors').objectStore('vectors').get(4);
      r.onsuccess = () => resolve(r.result);
    });
    expect(first).toEqual(contents.vectors[0]);
    expect(Array.isArray((first as { vector: unknown }).vector)).toBe(true);
    raw.close();
  });
});
