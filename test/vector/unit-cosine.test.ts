// Cosine over f32 and f16 stores unit vectors and measures 1 − a·b (one sum, as hnswlib does). Bytes
// serialized before that hold vectors of any length: the mark in the dense head tells the two apart.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createVectorIndex,
  distance,
  loadUsearch,
  loadVectorIndex,
  type Metric,
  type Quantization,
  type UsearchModule,
} from '../../src/exports/vector.js';
import { legacyCosData, legacyCosFile, legacyQuantizations } from './fixtures/legacy-cos.js';
import { clusteredVectors, sequentialKeys } from './fixtures.js';

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

const tolerance: Record<Quantization, number> = { f32: 1e-5, f16: 5e-4, i8: 2.5e-2 };
const markAt = (bytes: Uint8Array) => {
  // 32-bit rows and columns, the vectors, then USearch's 64-byte dense head; the mark is its last byte.
  const [rows, columns] = new Uint32Array(bytes.buffer, bytes.byteOffset, 2);
  return 8 + rows! * columns! + 63;
};
const mark = 'U'.charCodeAt(0);

describe.each(legacyQuantizations)('cos × %s bytes serialized before unit vectors', (quantization) => {
  const data = legacyCosData();
  const bytes = new Uint8Array(
    readFileSync(new URL(`fixtures/${legacyCosFile(quantization)}`, import.meta.url)),
  );

  it('are unmarked', () => {
    expect(bytes[markAt(bytes)]).toBe(0);
  });

  it.each([false, true])(
    'open (view: %s) with their vectors as stored and search by the full cosine',
    (view) => {
      const index = loadVectorIndex(usearch, bytes, { view });
      expect([index.metric, index.quantization, index.size]).toEqual(['cos', quantization, data.count]);
      // The stored vectors kept their lengths (0.5 to 3.5).
      if (quantization === 'f32') expect(index.get(6)).toEqual(data.row(6));
      const queries = clusteredVectors({ count: 8, dimensions: data.dimensions, seed: 22 });
      const allow = sequentialKeys(75).map((key) => key * 2);
      for (let q = 0; q < queries.count; q++) {
        const query = queries.row(q).map((x) => x * (q + 0.5));
        for (const options of [{}, { exact: true }, { allow }, { allow, exactBelow: 0 }]) {
          const hits = index.search(query, 10, options);
          expect(hits).toHaveLength(10);
          for (const hit of hits) {
            const expected = distance('cos', query, data.row(hit.key));
            expect(Math.abs(hit.distance - expected), `key ${hit.key}`).toBeLessThanOrEqual(
              tolerance[quantization] * (1 + expected),
            );
          }
        }
      }
      for (const key of [3, 77, 149]) expect(index.search(data.row(key), 1)[0]!.key).toBe(key);
      // The zero vector (key 150): distance 0 to a zero query, 1 to the rest.
      expect(index.search(new Float32Array(data.dimensions), 2, { exact: true })).toEqual([
        { key: 150, distance: 0 },
        { key: expect.any(Number), distance: 1 },
      ]);
      index.dispose();
    },
  );

  it('stay unmarked through writes and a round trip: new vectors keep their lengths too', () => {
    const index = loadVectorIndex(usearch, bytes);
    const added = data.row(5).map((x) => x * 3);
    index.add(1000, added);
    if (quantization === 'f32') expect(index.get(1000)).toEqual(added);
    const again = index.serialize();
    expect(again[markAt(again)]).toBe(0);
    const reloaded = loadVectorIndex(usearch, again);
    const [first, second] = reloaded.search(added, 2, { exact: true });
    expect(new Set([first!.key, second!.key])).toEqual(new Set([5, 1000]));
    expect(first!.distance).toBeLessThan(tolerance[quantization]);
    index.dispose();
    reloaded.dispose();
  });
});

describe('new indexes', () => {
  const dimensions = 20;
  const data = clusteredVectors({ count: 100, dimensions, seed: 23 });

  it.each([
    ['cos', 'f32', true],
    ['cos', 'f16', true],
    ['cos', 'i8', false],
    ['ip', 'f32', false],
    ['l2sq', 'f16', false],
  ] as [Metric, Quantization, boolean][])('%s × %s: marked %s', (metric, quantization, marked) => {
    const index = createVectorIndex(usearch, { dimensions, metric, quantization });
    index.addBatch(sequentialKeys(100), data.data);
    const bytes = index.serialize();
    expect(bytes[markAt(bytes)]).toBe(marked ? mark : 0);
    // The mark is all a reopened index goes by: the same answers, bit for bit.
    const query = data.row(40).map((x) => x * 2);
    for (const view of [false, true]) {
      const loaded = loadVectorIndex(usearch, bytes, { view });
      expect(loaded.search(query, 100, { exact: true })).toEqual(index.search(query, 100, { exact: true }));
      loaded.dispose();
    }
    index.dispose();
  });

  it('cos over unit vectors ranks as the full cosine of the vectors added, whatever their lengths', () => {
    for (const quantization of legacyQuantizations) {
      const index = createVectorIndex(usearch, { dimensions, quantization });
      const scaled = data.data.map((x, i) => x * (1 + (Math.floor(i / dimensions) % 5)));
      index.addBatch(sequentialKeys(100), scaled);
      const query = data.row(7).map((x) => x * 0.3);
      const hits = index.search(query, 100, { exact: true });
      const exact = [...sequentialKeys(100)]
        .map((key) => ({
          key,
          distance: distance('cos', query, scaled.subarray(key * dimensions, (key + 1) * dimensions)),
        }))
        .sort((a, b) => a.distance - b.distance);
      for (let i = 0; i < 100; i++)
        expect(hits[i]!.distance).toBeCloseTo(exact[i]!.distance, quantization === 'f32' ? 5 : 3);
      expect(hits.slice(0, 10).map((hit) => hit.key)).toEqual(exact.slice(0, 10).map((hit) => hit.key));
      index.dispose();
    }
  });

  it('a marked index taken for an unmarked one measures its unit vectors by the full cosine: the same ranking', () => {
    // Why an unknown mark may always fall back to the three-sum kernel.
    const index = createVectorIndex(usearch, { dimensions });
    index.addBatch(sequentialKeys(100), data.data);
    const bytes = index.serialize();
    bytes[markAt(bytes)] = 0;
    const unmarked = loadVectorIndex(usearch, bytes);
    const query = data.row(11);
    const a = index.search(query, 20, { exact: true });
    const b = unmarked.search(query, 20, { exact: true });
    expect(b.map((hit) => hit.key)).toEqual(a.map((hit) => hit.key));
    for (let i = 0; i < 20; i++) expect(b[i]!.distance).toBeCloseTo(a[i]!.distance, 5);
    index.dispose();
    unmarked.dispose();
  });
});
