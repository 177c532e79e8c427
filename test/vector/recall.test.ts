import { beforeAll, describe, expect, it } from 'vitest';
import {
  createVectorIndex,
  distance,
  loadUsearch,
  type SearchHit,
  type UsearchModule,
} from '../../src/exports/vector.js';
import {
  clusteredVectors,
  exactTopK,
  expectLongshipError,
  recall,
  sequentialKeys,
  type VectorSet,
} from './fixtures.js';

// 10k × 256 at the defaults (M = 16, ef_construction = 128, ef_search = 64): large enough that
// HNSW is really approximate and that i8's smaller vectors show in memoryUsage, small enough
// to build twice in a few seconds.
const count = 10_000;
const dimensions = 256;
const queryCount = 100;
const k = 10;

let usearch: UsearchModule;
let data: VectorSet;
let queries: VectorSet;
let truth: SearchHit[][];

beforeAll(async () => {
  usearch = await loadUsearch();
  data = clusteredVectors({ count, dimensions, seed: 1 });
  // Same clusters, different points: queries are near the data but never stored vectors.
  queries = clusteredVectors({ count: queryCount, dimensions, seed: 2 });
  truth = Array.from({ length: queryCount }, (_, q) => exactTopK('cos', data, queries.row(q), k));
});

function meanRecall(search: (query: Float32Array) => SearchHit[]): number {
  let total = 0;
  for (let q = 0; q < queryCount; q++) total += recall(search(queries.row(q)), truth[q]!);
  return total / queryCount;
}

describe('recall@10 against exact search on clustered vectors', () => {
  let f32Memory = 0;

  it('f32 at default settings reaches ≥ 0.95', () => {
    const index = createVectorIndex(usearch, { dimensions });
    index.addBatch(sequentialKeys(count), data.data);
    expect(index.size).toBe(count);
    const hits = index.search(queries.row(0), k);
    expect(hits).toHaveLength(k);
    for (let i = 1; i < k; i++) expect(hits[i]!.distance).toBeGreaterThanOrEqual(hits[i - 1]!.distance);
    expect(meanRecall((query) => index.search(query, k))).toBeGreaterThanOrEqual(0.95);
    f32Memory = index.memoryUsage;
    index.dispose();
  });

  it('i8 with rescoring by f32 vectors reaches ≥ 0.95, in well under f32 memory', () => {
    const index = createVectorIndex(usearch, { dimensions, quantization: 'i8' });
    index.addBatch(sequentialKeys(count), data.data);
    const rescore = { vectors: (key: number) => data.row(key) };
    const rescored = meanRecall((query) => index.search(query, k, { rescore }));
    const plain = meanRecall((query) => index.search(query, k));
    expect(rescored).toBeGreaterThanOrEqual(0.95);
    // Rescoring must do something: the stored bytes alone cap recall lower (≈ 0.87).
    expect(rescored).toBeGreaterThan(plain);
    // Rescored distances are the full-precision ones (summed in f32 inside WASM, in f64 by distance()).
    const query = queries.row(7);
    for (const hit of index.search(query, k, { rescore })) {
      expect(hit.distance).toBeCloseTo(distance('cos', query, data.row(hit.key)), 5);
    }
    expect(f32Memory).toBeGreaterThan(0);
    expect(index.memoryUsage).toBeLessThan(0.6 * f32Memory);
    index.dispose();
  });

  it('rescore keeps the stored distance for keys without a vector, and returns k hits', () => {
    const index = createVectorIndex(usearch, { dimensions, quantization: 'i8' });
    index.addBatch(sequentialKeys(1000), data.slice(0, 1000).data);
    const query = queries.row(3);
    const stored = index.search(query, 50);
    const hits = index.search(query, 5, { rescore: { vectors: () => undefined, candidates: 50 } });
    expect(hits).toEqual(stored.slice(0, 5));
    // A vector of the wrong length is bad input, not a silent misranking.
    expectLongshipError(
      () => index.search(query, 5, { rescore: { vectors: (key) => data.row(key).subarray(1) } }),
      'DIMENSION_MISMATCH',
    );
    index.dispose();
  });
});
