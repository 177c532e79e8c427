import { beforeAll, describe, expect, it } from 'vitest';
import {
  createVectorIndex,
  loadUsearch,
  type SearchHit,
  type VectorIndex,
} from '../../src/exports/vector.js';
import {
  clusteredVectors,
  exactTopK,
  expectLongshipError,
  expectSameTopK,
  recall,
  seededRandom,
  sequentialKeys,
  type VectorSet,
} from './fixtures.js';

const count = 10_000;
const dimensions = 64;
const k = 10;

let index: VectorIndex;
let data: VectorSet;
let queries: VectorSet;

beforeAll(async () => {
  const usearch = await loadUsearch();
  data = clusteredVectors({ count, dimensions, seed: 21 });
  queries = clusteredVectors({ count: 40, dimensions, seed: 22 });
  index = createVectorIndex(usearch, { dimensions });
  index.addBatch(sequentialKeys(count), data.data);
});

/** A seeded random subset of the keys, in random order (the binding must not assume sorted input). */
function sample(fraction: number, seed: number): number[] {
  const random = seededRandom(seed);
  const keys: number[] = [];
  for (let key = 0; key < count; key++) if (random() < fraction) keys.push(key);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  return keys;
}

function truthAmong(allow: readonly number[], query: Float32Array, wanted = k): SearchHit[] {
  const allowed = new Set(allow);
  return exactTopK('cos', data, query, wanted, { allowed: (key) => allowed.has(key) });
}

function expectOnlyAllowed(hits: SearchHit[], allow: readonly number[]) {
  const allowed = new Set(allow);
  for (const hit of hits) expect(allowed.has(hit.key), `key ${hit.key} is not allowed`).toBe(true);
  expect(new Set(hits.map((hit) => hit.key)).size).toBe(hits.length);
}

describe('filtered search', () => {
  it('a large allow-list on the HNSW path returns only allowed keys and ≥ 0.95 of the true top-k', () => {
    const allow = sample(0.5, 1);
    let total = 0;
    for (let q = 0; q < queries.count; q++) {
      const query = queries.row(q);
      const hits = index.search(query, k, { allow, exactBelow: 0 });
      expect(hits).toHaveLength(k);
      expectOnlyAllowed(hits, allow);
      total += recall(hits, truthAmong(allow, query));
    }
    expect(total / queries.count).toBeGreaterThanOrEqual(0.95);
  });

  it('a large allow-list with exact: true on the HNSW path is the true top-k', () => {
    const allow = sample(0.3, 2);
    for (let q = 0; q < 10; q++) {
      const query = queries.row(q);
      expectSameTopK(index.search(query, k, { allow, exactBelow: 0, exact: true }), truthAmong(allow, query));
    }
  });

  it('a small allow-list (scored key by key) is the true top-k', () => {
    const allow = sample(0.05, 3); // ~500 keys: under the default threshold of 2,048
    expect(allow.length).toBeLessThan(2048);
    for (let q = 0; q < queries.count; q++) {
      const query = queries.row(q);
      expectSameTopK(index.search(query, k, { allow }), truthAmong(allow, query));
    }
  });

  it('a 0.1%-selective filter finds the true top-k, scored or on the HNSW path', () => {
    const allow = sample(0.001, 4);
    expect(allow.length).toBeGreaterThanOrEqual(5);
    expect(allow.length).toBeLessThanOrEqual(20);
    for (let q = 0; q < queries.count; q++) {
      const query = queries.row(q);
      const truth = truthAmong(allow, query, 5);
      expectSameTopK(index.search(query, 5, { allow }), truth);
      expectSameTopK(index.search(query, 5, { allow, exactBelow: 0, exact: true }), truth);
      // The graph walk may miss some of so few keys, but must never return another.
      expectOnlyAllowed(index.search(query, 5, { allow, exactBelow: 0 }), allow);
    }
  });

  it('k beyond the allowed keys returns every allowed key present, nearest first', () => {
    const allow = [5, 17, 9_999, 4_000];
    const query = queries.row(0);
    for (const exactBelow of [undefined, 0]) {
      const hits = index.search(query, 50, { allow, exactBelow, exact: true });
      expectSameTopK(hits, truthAmong(allow, query, 50));
      expect(hits).toHaveLength(4);
    }
  });

  it('an empty allow-list, or one that names no stored key, returns nothing', () => {
    const query = queries.row(1);
    for (const exactBelow of [undefined, 0]) {
      expect(index.search(query, k, { allow: [], exactBelow })).toEqual([]);
      expect(index.search(query, k, { allow: new Float64Array(0), exactBelow })).toEqual([]);
      expect(index.search(query, k, { allow: [count, count + 1, 2 ** 40], exactBelow })).toEqual([]);
    }
  });

  it('a key listed twice comes back once', () => {
    const query = queries.row(2);
    for (const exactBelow of [undefined, 0]) {
      const hits = index.search(query, k, { allow: [7, 7, 7, 8, 8, 3, 7], exactBelow, exact: true });
      expect(hits.map((hit) => hit.key).sort((a, b) => a - b)).toEqual([3, 7, 8]);
    }
  });

  it('accepts any array-like of keys', () => {
    const query = queries.row(3);
    const keys = sample(0.02, 5);
    const expected = index.search(query, k, { allow: keys });
    expect(index.search(query, k, { allow: Float64Array.from(keys) })).toEqual(expected);
    expect(index.search(query, k, { allow: Uint32Array.from(keys) })).toEqual(expected);
  });

  it('rejects keys that are not keys (they used to be cast to a valid one inside WASM: -1 to 0, 1.5 to 1)', () => {
    const query = queries.row(4);
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53]) {
      for (const exactBelow of [undefined, 0]) {
        expectLongshipError(
          () => index.search(query, k, { allow: [0, 1, bad], exactBelow }),
          'INVALID_ARGUMENT',
        );
      }
    }
  });

  it('combines with rescore: rescored hits are still only allowed keys', () => {
    const allow = sample(0.01, 6);
    const query = queries.row(5);
    const hits = index.search(query, k, { allow, rescore: { vectors: (key) => data.row(key) } });
    expectOnlyAllowed(hits, allow);
    expectSameTopK(hits, truthAmong(allow, query));
  });
});
