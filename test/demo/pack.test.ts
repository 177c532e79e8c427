// The demo's pack: its records come back as they went in, each vector with a buffer of its own (what
// IndexedDB clones), and a pack for another model, schema or corpus is refused.
import { describe, expect, it } from 'vitest';
import { decodePack, encodePack, PACK_FORMAT, type PackHeader } from '../../demo/src/pack-format.js';
import { packMismatch } from '../../demo/src/pack-import.js';
import { STORE_SCHEMA_VERSION, type VectorRecord } from '../../src/store/store.js';

const embedder = { id: 'test/model', dimensions: 3 };
const header: Omit<PackHeader, 'vectors'> = {
  format: PACK_FORMAT,
  hash: 'abc',
  embedder,
  schema: STORE_SCHEMA_VERSION,
  version: '0.0.0',
  nextKey: 4,
  nodes: [
    {
      uri: 'viking://resources/a',
      parent: 'viking://resources',
      name: 'a',
      kind: 'file',
      contextType: 'resource',
      key: 1,
      l0: 'é',
      summaryKind: 'extractive',
      meta: { pages: { first: 1, last: 2 } },
      createdAt: 1,
      updatedAt: 2,
      useCount: 0,
    },
  ],
  postings: [{ key: 1, body: 'b' }],
  relations: [],
};
const vectors: VectorRecord[] = [
  { key: 2, nodeKey: 1, chunk: 0, vector: new Float32Array([0.5, -1, 2]) },
  { key: 3, nodeKey: 1, chunk: 1, vector: new Float32Array([3, 0, -0.25]) },
];

describe('the demo pack', () => {
  it('decodes what it encoded, from any offset, each vector on a buffer of its own', () => {
    const bytes = encodePack(header, vectors);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const pack = decodePack(shifted.subarray(1));
    expect(pack.header.nodes).toEqual(header.nodes);
    expect(pack.header.postings).toEqual(header.postings);
    expect(pack.vectors).toEqual(vectors);
    for (const { vector } of pack.vectors) expect(vector.buffer.byteLength).toBe(3 * 4);
  });

  it('rejects bytes that are not a whole pack', () => {
    const bytes = encodePack(header, vectors);
    expect(() => decodePack(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(/not a Longship pack/);
    expect(() => decodePack(bytes.subarray(0, bytes.length - 4))).toThrow(/truncated/);
  });

  it('refuses a pack made with another model, schema or corpus', () => {
    const pack = decodePack(encodePack(header, vectors));
    expect(packMismatch(pack, embedder, 'abc')).toBeUndefined();
    expect(packMismatch(pack, { ...embedder, id: 'other/model' }, 'abc')).toMatch(/test\/model/);
    expect(packMismatch(pack, { ...embedder, dimensions: 4 }, 'abc')).toMatch(/\(3\)/);
    expect(packMismatch(pack, embedder, 'def')).toMatch(/corpus abc/);
    const old = decodePack(encodePack({ ...header, schema: STORE_SCHEMA_VERSION - 1 }, vectors));
    expect(packMismatch(old, embedder, 'abc')).toMatch(/schema/);
  });
});
