import { beforeAll, describe, expect, it } from 'vitest';
import {
  createVectorIndex,
  loadUsearch,
  type Quantization,
  type UsearchModule,
} from '../../src/exports/vector.js';
import { clusteredVectors, exactTopK, recall, sequentialKeys } from './fixtures.js';

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

const dimensions = 48;

describe('add, remove, contains, get, size', () => {
  it('starts empty and searches to nothing', () => {
    const index = createVectorIndex(usearch, { dimensions });
    expect(index.size).toBe(0);
    expect(index.readOnly).toBe(false);
    expect(index.contains(0)).toBe(false);
    expect(index.get(0)).toBeUndefined();
    expect(index.remove(0)).toBe(false);
    expect(index.search(new Float32Array(dimensions), 10)).toEqual([]);
    expect(index.search(new Float32Array(dimensions), 10, { exact: true })).toEqual([]);
    expect(index.search(new Float32Array(dimensions), 0)).toEqual([]);
    index.dispose();
  });

  it('takes keys up to 2^53 − 1 and gives them back exactly', () => {
    const index = createVectorIndex(usearch, { dimensions: 2 });
    const keys = [0, 1, 2 ** 32, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER];
    keys.forEach((key, i) => {
      index.add(key, new Float32Array([1, i]));
    });
    for (const key of keys) expect(index.contains(key)).toBe(true);
    expect(index.search(new Float32Array([1, 4]), 1)[0]!.key).toBe(Number.MAX_SAFE_INTEGER);
    expect(index.search(new Float32Array([1, 2]), 1)[0]!.key).toBe(2 ** 32);
    expect(index.remove(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(index.contains(Number.MAX_SAFE_INTEGER)).toBe(false);
    index.dispose();
  });

  it('grows past its capacity one add at a time, and reserve() makes room up front', () => {
    const data = clusteredVectors({ count: 300, dimensions, seed: 30 });
    const index = createVectorIndex(usearch, { dimensions });
    for (let i = 0; i < data.count; i++) {
      index.add(i, data.row(i));
      expect(index.capacity).toBeGreaterThanOrEqual(index.size);
    }
    expect(index.size).toBe(300);
    index.reserve(5000);
    expect(index.capacity).toBeGreaterThanOrEqual(5000);
    expect(index.size).toBe(300);
    index.reserve(10); // never shrinks
    expect(index.capacity).toBeGreaterThanOrEqual(5000);
    index.dispose();
  });

  describe.each(['f32', 'f16', 'i8'] as Quantization[])('%s: removal', (quantization) => {
    it('a removed key is never found again, while the rest still are', () => {
      const count = 3000;
      const data = clusteredVectors({ count, dimensions, seed: 31, normalized: true });
      const queries = clusteredVectors({ count: 30, dimensions, seed: 32, normalized: true });
      const index = createVectorIndex(usearch, { dimensions, quantization });
      index.addBatch(sequentialKeys(count), data.data);
      // Remove every key that is a multiple of 3, and the neighbours of the first queries (the
      // keys most likely to be found again).
      const removed = new Set<number>();
      for (let key = 0; key < count; key += 3) removed.add(key);
      for (let q = 0; q < 5; q++) for (const hit of index.search(queries.row(q), 5)) removed.add(hit.key);
      for (const key of removed) expect(index.remove(key)).toBe(true);
      for (const key of removed) expect(index.remove(key)).toBe(false);
      expect(index.size).toBe(count - removed.size);
      for (const key of [0, 3, 2997]) {
        expect(index.contains(key)).toBe(false);
        expect(index.get(key)).toBeUndefined();
      }
      expect(index.contains(1)).toBe(true);
      expect(index.get(1)).toHaveLength(dimensions);

      const remaining = sequentialKeys(count).filter((key) => !removed.has(key));
      let total = 0;
      let totalExact = 0;
      for (let q = 0; q < queries.count; q++) {
        const query = queries.row(q);
        for (const options of [{}, { exact: true }, { allow: sequentialKeys(300) }]) {
          for (const hit of index.search(query, 20, options)) {
            expect(removed.has(hit.key), `removed key ${hit.key} came back`).toBe(false);
          }
        }
        const truth = exactTopK('cos', data, query, 10, { allowed: (key) => !removed.has(key) });
        total += recall(index.search(query, 10), truth);
        const exact = index.search(query, 10, { exact: true });
        totalExact += recall(exact, truth);
        // In f32 the exact search is the truth; f16 and i8 rank by their rounded vectors.
        if (quantization === 'f32') expect(exact.map((hit) => hit.key)).toEqual(truth.map((hit) => hit.key));
      }
      expect(total / queries.count).toBeGreaterThanOrEqual(0.9);
      expect(totalExact / queries.count).toBeGreaterThanOrEqual(0.9);
      expect(remaining.length).toBe(index.size);
      index.dispose();
    });

    it('a removed key can be added again, with a new vector', () => {
      const data = clusteredVectors({ count: 200, dimensions, seed: 33, normalized: true });
      const index = createVectorIndex(usearch, { dimensions, quantization });
      index.addBatch(sequentialKeys(100), data.slice(0, 100).data);
      expect(index.remove(42)).toBe(true);
      // Key 42 now stands for what was vector 150.
      index.add(42, data.row(150));
      expect(index.size).toBe(100);
      expect(index.contains(42)).toBe(true);
      const [hit] = index.search(data.row(150), 1);
      expect(hit!.key).toBe(42);
      expect(hit!.distance).toBeLessThan(0.01);
      expect(index.search(data.row(42), 1)[0]!.key).not.toBe(42);
      const stored = index.get(42)!;
      const expected = data.row(150);
      for (let d = 0; d < dimensions; d++) expect(stored[d]).toBeCloseTo(expected[d]!, 1);
      // And removing everything, then adding again, works too.
      for (let key = 0; key < 100; key++) expect(index.remove(key)).toBe(true);
      expect(index.size).toBe(0);
      expect(index.search(data.row(0), 5)).toEqual([]);
      index.addBatch(sequentialKeys(100, 100), data.slice(100, 200).data);
      expect(index.size).toBe(100);
      expect(index.search(data.row(120), 1)[0]!.key).toBe(120);
      index.dispose();
    });
  });

  it('addBatch stops at a duplicate: the keys before it are added, the rest are not', () => {
    const data = clusteredVectors({ count: 5, dimensions, seed: 34 });
    const index = createVectorIndex(usearch, { dimensions });
    index.add(3, data.row(0));
    expect(() => index.addBatch([1, 2, 3, 4, 5], data.data)).toThrow(/Key already present/);
    expect([1, 2, 3, 4, 5].map((key) => index.contains(key))).toEqual([true, true, true, false, false]);
    expect(index.size).toBe(3);
    index.dispose();
  });
});
