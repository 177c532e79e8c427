// The demo's pack: its records and snapshots come back as they went in, each vector with a buffer of
// its own (what IndexedDB clones), a pack for another model, schema or corpus is refused, and an
// engine opened over a store the pack was written into loads its indexes rather than building them.
import { describe, expect, it } from 'vitest';
import { decodePack, encodePack, PACK_FORMAT, type PackHeader } from '../../demo/src/pack-format.js';
import { packMismatch, writePack } from '../../demo/src/pack-import.js';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { indexesOf, openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { type NodeRecord, STORE_SCHEMA_VERSION, type VectorRecord } from '../../src/store/store.js';

const embedder = { id: 'test/model', dimensions: 3 };
const header: Omit<PackHeader, 'vectors' | 'snapshots'> = {
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

const snapshots = [
  { name: 'one', bytes: new Uint8Array([1, 2, 3]) },
  { name: 'two', bytes: new Uint8Array([4, 5, 6, 7, 8]) },
];

/** The same three words in every text: vectors that depend on the text, with no model. */
const words = ['npm', 'publish', 'scope'];
const wordsEmbedder = functionEmbedder({
  id: 'test/words',
  dimensions: 3,
  embed: async (texts) =>
    texts.map((text) => Float32Array.from(words, (word) => (text.includes(word) ? 1 : 0) + 0.01)),
});

/** A pack made the way tools/demo/pack.ts makes one: records, then the snapshots an engine saved. */
async function makePack() {
  const source = await openMemoryStore();
  const longship = await openLongship({ store: source, embedder: wordsEmbedder });
  await longship.addResource(
    [
      { path: 'publish.md', content: '# Publish\n\nnpm publish sends a package to the registry.' },
      { path: 'scope.md', content: '# Scope\n\nA scope groups packages: @scope/name.' },
    ],
    { name: 'docs' },
  );
  const all = async (table: 'nodes' | 'vectors' | 'postings' | 'relations') => {
    const records = [];
    for await (const batch of source.scan(table)) records.push(...batch);
    return records;
  };
  const records = {
    format: PACK_FORMAT,
    hash: 'abc',
    embedder: { id: wordsEmbedder.id, dimensions: wordsEmbedder.dimensions },
    schema: STORE_SCHEMA_VERSION,
    version: '0.0.0',
    nextKey: (await source.meta()).nextKey,
    nodes: (await all('nodes')) as NodeRecord[],
    postings: (await all('postings')) as PackHeader['postings'],
    relations: (await all('relations')) as PackHeader['relations'],
  };
  const vectors = (await all('vectors')) as VectorRecord[];
  await longship.close();
  // The snapshots of those records, saved by an engine opened over them.
  const staging = await openMemoryStore({ embedder: records.embedder });
  await writePack(staging, decodePack(encodePack(records, vectors, [])), records.embedder);
  const builder = await openLongship({ store: staging, embedder: wordsEmbedder });
  await builder.find('npm publish');
  await indexesOf(builder).flush();
  const names = ['hnsw-owners', 'hnsw', 'bm25', 'nodes'];
  const saved = await Promise.all(names.map((name) => staging.snapshot(name)));
  await builder.close();
  return decodePack(
    encodePack(
      records,
      vectors,
      saved.map((snapshot, i) => ({ name: names[i]!, bytes: snapshot!.bytes })),
    ),
  );
}

describe('the demo pack', () => {
  it('decodes what it encoded, from any offset, each vector on a buffer of its own', () => {
    const bytes = encodePack(header, vectors, snapshots);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const pack = decodePack(shifted.subarray(1));
    expect(pack.header.nodes).toEqual(header.nodes);
    expect(pack.header.postings).toEqual(header.postings);
    expect(pack.vectors).toEqual(vectors);
    for (const { vector } of pack.vectors) expect(vector.buffer.byteLength).toBe(3 * 4);
    expect(pack.snapshots).toEqual(snapshots);
  });

  it('rejects bytes that are not a whole pack', () => {
    const bytes = encodePack(header, vectors, snapshots);
    expect(() => decodePack(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(/not a Longship pack/);
    expect(() => decodePack(bytes.subarray(0, bytes.length - 4))).toThrow(/truncated/);
  });

  it('refuses a pack made with another model, schema or corpus', () => {
    const pack = decodePack(encodePack(header, vectors, []));
    expect(packMismatch(pack, embedder, 'abc')).toBeUndefined();
    expect(packMismatch(pack, { ...embedder, id: 'other/model' }, 'abc')).toMatch(/test\/model/);
    expect(packMismatch(pack, { ...embedder, dimensions: 4 }, 'abc')).toMatch(/\(3\)/);
    expect(packMismatch(pack, embedder, 'def')).toMatch(/corpus abc/);
    const old = decodePack(encodePack({ ...header, schema: STORE_SCHEMA_VERSION - 1 }, vectors, []));
    expect(packMismatch(old, embedder, 'abc')).toMatch(/schema/);
  });

  it('fills an empty store whose engine then opens from the snapshots and answers as the source', async () => {
    const pack = await makePack();
    const store = await openMemoryStore();
    expect(await writePack(store, pack, pack.header.embedder)).toBe(true);
    const longship = await openLongship({ store, embedder: wordsEmbedder });
    try {
      expect(indexesOf(longship).openedFrom).toEqual({
        vector: 'snapshot',
        lexical: 'snapshot',
        nodes: 'snapshot',
      });
      const found = await longship.find('npm publish', { limit: 2, calibration: false });
      expect(found.resources[0]?.uri).toBe('viking://resources/docs/publish.md');
      expect(await longship.verify()).toEqual({ ok: true, problems: [] });
      // The keys the pack took are taken: the next document gets new ones.
      await longship.addResource('# More\n\nnpm scope', { name: 'more.md' });
      expect(await longship.verify()).toEqual({ ok: true, problems: [] });
    } finally {
      await longship.close();
    }
  });

  it('without its snapshots, the same pack opens by building the indexes', async () => {
    const pack = await makePack();
    const store = await openMemoryStore();
    await writePack(store, { ...pack, snapshots: [] }, pack.header.embedder);
    const longship = await openLongship({ store, embedder: wordsEmbedder });
    try {
      expect(indexesOf(longship).openedFrom.vector).toBe('rebuild');
      const found = await longship.find('npm publish', { limit: 2, calibration: false });
      expect(found.resources[0]?.uri).toBe('viking://resources/docs/publish.md');
    } finally {
      await longship.close();
    }
  });
});
