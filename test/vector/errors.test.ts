import { beforeAll, describe, expect, it } from 'vitest';
import {
  createVectorIndex,
  loadUsearch,
  loadVectorIndex,
  type UsearchModule,
  type VectorIndex,
  type VectorIndexOptions,
} from '../../src/exports/vector.js';
import { expectLongshipError } from './fixtures.js';

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

const vector = (...values: number[]) => new Float32Array(values);

function small(): VectorIndex {
  const index = createVectorIndex(usearch, { dimensions: 3 });
  index.add(1, vector(1, 0, 0));
  index.add(2, vector(0, 1, 0));
  return index;
}

describe('typed errors', () => {
  it('are LongshipErrors with a code, a name and a message', () => {
    const index = small();
    const error = expectLongshipError(() => index.add(1, vector(1, 1, 1)), 'DUPLICATE_KEY');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('LongshipError');
    expect(error.message).toMatch(/add: Key already present/);
    index.dispose();
  });

  it('DIMENSION_MISMATCH for vectors and queries of the wrong length', () => {
    const index = small();
    expectLongshipError(() => index.add(3, vector(1, 2)), 'DIMENSION_MISMATCH');
    expectLongshipError(() => index.add(3, vector(1, 2, 3, 4)), 'DIMENSION_MISMATCH');
    expectLongshipError(() => index.addBatch([3, 4], vector(1, 2, 3, 4, 5)), 'DIMENSION_MISMATCH');
    expectLongshipError(() => index.addBatch([3], vector(1, 2, 3, 4, 5, 6)), 'DIMENSION_MISMATCH');
    expectLongshipError(() => index.search(vector(1, 0), 1), 'DIMENSION_MISMATCH');
    expectLongshipError(() => index.search(new Float32Array(0), 1), 'DIMENSION_MISMATCH');
    expectLongshipError(() => index.search(vector(1, 0), 1, { exact: true }), 'DIMENSION_MISMATCH');
    expectLongshipError(() => index.search(vector(1, 0, 0, 0), 1, { allow: [1] }), 'DIMENSION_MISMATCH');
    expect(index.size).toBe(2);
    index.dispose();
  });

  it('INVALID_ARGUMENT for vectors that are not Float32Arrays or not finite; the heap stays sound', () => {
    const index = small();
    const other = createVectorIndex(usearch, { dimensions: 16 });
    other.add(1, new Float32Array(16).fill(1));
    const plain = Array.from({ length: 16 }, (_, i) => i + 1);
    // A plain array has no byteLength: it used to be copied past its room on the heap.
    expectLongshipError(() => other.search(plain as unknown as Float32Array, 3), 'INVALID_ARGUMENT');
    expectLongshipError(() => other.add(2, plain as unknown as Float32Array), 'INVALID_ARGUMENT');
    expectLongshipError(() => other.addBatch([2], plain as unknown as Float32Array), 'INVALID_ARGUMENT');
    expectLongshipError(() => index.search([1, 0, 0] as unknown as Float32Array, 1), 'INVALID_ARGUMENT');
    expectLongshipError(() => index.add(3, null as unknown as Float32Array), 'INVALID_ARGUMENT');
    expectLongshipError(
      () => index.add(3, new Float64Array(3) as unknown as Float32Array),
      'INVALID_ARGUMENT',
    );
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expectLongshipError(() => index.add(3, vector(1, bad, 0)), 'INVALID_ARGUMENT');
      expectLongshipError(() => index.addBatch([3, 4], vector(1, 0, 0, 0, bad, 0)), 'INVALID_ARGUMENT');
      expectLongshipError(() => index.search(vector(bad, 0, 0), 1), 'INVALID_ARGUMENT');
      const rescore = { vectors: () => vector(bad, 0, 0) };
      expectLongshipError(() => index.search(vector(1, 0, 0), 1, { rescore }), 'INVALID_ARGUMENT');
    }
    // Nothing was written, and both indexes (and a new one) still work.
    expect(index.size).toBe(2);
    expect(index.contains(3)).toBe(false);
    expect(index.search(vector(1, 0.1, 0), 1)[0]?.key).toBe(1);
    expect(other.search(new Float32Array(16).fill(1), 1)[0]?.key).toBe(1);
    const fresh = createVectorIndex(usearch, { dimensions: 16 });
    fresh.add(7, new Float32Array(16).fill(2));
    expect(fresh.search(new Float32Array(16).fill(2), 1)[0]?.key).toBe(7);
    for (const i of [index, other, fresh]) i.dispose();
  });

  it('DUPLICATE_KEY for a key already present, in add and within or across a batch', () => {
    const index = small();
    expectLongshipError(() => index.add(2, vector(0, 0, 1)), 'DUPLICATE_KEY');
    expectLongshipError(() => index.addBatch([5, 5], vector(1, 1, 0, 0, 1, 1)), 'DUPLICATE_KEY');
    expect(index.contains(5)).toBe(true);
    expect(index.size).toBe(3);
    // The stored vector for key 2 is unchanged.
    expect(index.get(2)).toEqual(vector(0, 1, 0));
    index.dispose();
  });

  it('INVALID_ARGUMENT for keys that are negative, fractional, not finite or ≥ 2^53', () => {
    const index = small();
    for (const key of [-1, -0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 2 ** 64]) {
      expectLongshipError(() => index.add(key, vector(1, 1, 1)), 'INVALID_ARGUMENT');
      expectLongshipError(() => index.addBatch([10, key], vector(1, 1, 1, 1, 1, 1)), 'INVALID_ARGUMENT');
      expectLongshipError(() => index.remove(key), 'INVALID_ARGUMENT');
      expectLongshipError(() => index.contains(key), 'INVALID_ARGUMENT');
      expectLongshipError(() => index.get(key), 'INVALID_ARGUMENT');
    }
    // A batch with a bad key adds nothing, not even the good keys before it.
    expect(index.contains(10)).toBe(false);
    expect(index.size).toBe(2);
    index.dispose();
  });

  it('INVALID_ARGUMENT for bad index options', () => {
    const bad: VectorIndexOptions[] = [
      { dimensions: 0 },
      { dimensions: -3 },
      { dimensions: 1.5 },
      { dimensions: Number.NaN },
      { dimensions: 65537 },
      { dimensions: 4, metric: 'hamming' as never },
      { dimensions: 4, quantization: 'f64' as never },
      { dimensions: 4, connectivity: 1 },
      { dimensions: 4, connectivity: 2.5 },
      { dimensions: 4, connectivity: 1e9 }, // USearch refuses it: too large
      { dimensions: 4, expansionAdd: 0 },
      { dimensions: 4, expansionSearch: -1 },
      { dimensions: 4, expansionSearch: 2 ** 32 }, // would wrap around in size_t
    ];
    for (const options of bad) {
      expect(() => createVectorIndex(usearch, options), JSON.stringify(options)).toThrowError(
        expect.objectContaining({ name: 'LongshipError', code: 'INVALID_ARGUMENT' }),
      );
    }
    const defaults = createVectorIndex(usearch, { dimensions: 4 });
    expect([defaults.metric, defaults.quantization, defaults.connectivity]).toEqual(['cos', 'f32', 16]);
    defaults.dispose();
  });

  it('INVALID_ARGUMENT for bad search, reserve and expansion arguments', () => {
    const index = small();
    const query = vector(1, 0, 0);
    for (const k of [-1, 1.5, Number.NaN])
      expectLongshipError(() => index.search(query, k), 'INVALID_ARGUMENT');
    // A huge k is not an error: it asks for everything there is.
    expect(index.search(query, 2 ** 32 + 1)).toHaveLength(2);
    expect(index.search(query, Number.MAX_SAFE_INTEGER, { exact: true })).toHaveLength(2);
    for (const capacity of [-1, 1.5, Number.NaN, 2 ** 32]) {
      expectLongshipError(() => index.reserve(capacity), 'INVALID_ARGUMENT');
    }
    // These used to reach WASM: -5 became 2^32 − 5 and every later search failed with "Out of memory!".
    for (const expansion of [-5, 0, 1, 1.5, 2 ** 32]) {
      expectLongshipError(() => index.changeExpansion({ search: expansion }), 'INVALID_ARGUMENT');
      expectLongshipError(() => index.changeExpansion({ add: expansion }), 'INVALID_ARGUMENT');
    }
    index.changeExpansion({});
    index.changeExpansion({ add: 40, search: 200 });
    expect(index.search(query, 1)).toEqual([{ key: 1, distance: 0 }]);
    index.dispose();
  });

  it('DISPOSED for every use after dispose(); dispose() twice is harmless', () => {
    const index = small();
    index.dispose();
    index.dispose();
    const uses: [string, () => unknown][] = [
      ['size', () => index.size],
      ['capacity', () => index.capacity],
      ['memoryUsage', () => index.memoryUsage],
      ['add', () => index.add(3, vector(1, 1, 1))],
      ['addBatch', () => index.addBatch([3], vector(1, 1, 1))],
      ['search', () => index.search(vector(1, 0, 0), 1)],
      ['search exact', () => index.search(vector(1, 0, 0), 1, { exact: true })],
      ['search allow', () => index.search(vector(1, 0, 0), 1, { allow: [1] })],
      ['remove', () => index.remove(1)],
      ['contains', () => index.contains(1)],
      ['get', () => index.get(1)],
      ['reserve', () => index.reserve(10)],
      ['changeExpansion', () => index.changeExpansion({ search: 10 })],
      ['serialize', () => index.serialize()],
    ];
    for (const [name, use] of uses) {
      expect(use, name).toThrowError(expect.objectContaining({ code: 'DISPOSED' }));
    }
    // What was fixed at creation stays readable.
    expect(index.dimensions).toBe(3);
  });

  it('CORRUPT_INDEX keeps USearch’s reason in the message', () => {
    const error = expectLongshipError(() => loadVectorIndex(usearch, new Uint8Array(100)), 'CORRUPT_INDEX');
    expect(error.message).toMatch(/^Could not load the index: \S/);
  });
});
