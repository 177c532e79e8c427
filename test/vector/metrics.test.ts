import { beforeAll, describe, expect, it } from 'vitest';
import {
  createVectorIndex,
  distance,
  loadUsearch,
  loadVectorIndex,
  type Metric,
  type Quantization,
  type SearchHit,
  type UsearchModule,
  type VectorIndex,
} from '../../src/exports/vector.js';
import { clusteredVectors, normalize, sequentialKeys, type VectorSet } from './fixtures.js';

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

const metrics: readonly Metric[] = ['cos', 'ip', 'l2sq'];
const quantizations: readonly Quantization[] = ['f32', 'f16', 'i8'];

// How far a stored-and-measured distance may be from the exact f32 one, absolute + relative.
// f16 keeps ~11 bits of mantissa; i8 keeps each component to 1/127 of the vector's length.
// Measured worst cases at 100 dimensions: f32 2e-7, f16 1.1e-4, i8 4e-3 (cos, ip) and 1.7e-2 (l2sq).
const tolerance: Record<Quantization, number> = { f32: 1e-5, f16: 5e-4, i8: 2.5e-2 };
const near = (actual: number, expected: number, quantization: Quantization) =>
  Math.abs(actual - expected) <= tolerance[quantization] * (1 + Math.abs(expected));

// 100 dimensions: not a multiple of the SIMD widths (16 i8 or 8 f16 lanes), so the tail loops run too.
const dimensions = 100;
const count = 400;

/**
 * `ip` is only a similarity for unit vectors, and `i8` keeps only each vector's direction
 * (it stores round(127·x/|x|)), so those get unit vectors. The rest get vectors of varied length,
 * so that l2sq and the f32/f16 storage are checked on magnitudes too.
 */
function dataFor(metric: Metric, quantization: Quantization): VectorSet {
  const unit = metric === 'ip' || quantization === 'i8';
  const set = clusteredVectors({ count, dimensions, seed: 11, normalized: unit });
  if (!unit) {
    for (let i = 0; i < count; i++) {
      const row = set.row(i);
      const scale = 0.5 + (i % 7) / 2;
      for (let d = 0; d < dimensions; d++) row[d]! *= scale;
    }
  }
  return set;
}

describe.each(metrics.flatMap((metric) => quantizations.map((quantization) => ({ metric, quantization }))))(
  '$metric × $quantization',
  ({ metric, quantization }) => {
    let data: VectorSet;
    let index: VectorIndex;

    beforeAll(() => {
      data = dataFor(metric, quantization);
      index = createVectorIndex(usearch, { dimensions, metric, quantization });
      index.addBatch(sequentialKeys(count), data.data);
      expect(index.metric).toBe(metric);
      expect(index.quantization).toBe(quantization);
      return () => index.dispose();
    });

    function expectDistancesAgree(query: Float32Array, hits: SearchHit[]) {
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        const expected = distance(metric, query, data.row(hit.key));
        expect(
          near(hit.distance, expected, quantization),
          `key ${hit.key}: ${hit.distance} vs ${expected}`,
        ).toBe(true);
      }
    }

    it('a stored vector is its own nearest neighbour, at its distance to itself', () => {
      for (let i = 0; i < count; i += 17) {
        for (const exact of [false, true]) {
          const [first] = index.search(data.row(i), 1, { exact });
          expect(first?.key).toBe(i);
          const self = distance(metric, data.row(i), data.row(i));
          expect(near(first!.distance, self, quantization)).toBe(true);
        }
      }
    });

    it('search distances agree with distance() on the graph, exact and allow-list paths', () => {
      const queries = clusteredVectors({ count: 10, dimensions, seed: 12, normalized: true });
      const allow = sequentialKeys(count / 2).map((key) => key * 2);
      for (let q = 0; q < queries.count; q++) {
        const query = queries.row(q);
        const graph = index.search(query, 10);
        const exact = index.search(query, 10, { exact: true });
        const scored = index.search(query, 10, { allow });
        const filtered = index.search(query, 10, { allow, exactBelow: 0, exact: true });
        for (const hits of [graph, exact, scored, filtered]) {
          expectDistancesAgree(query, hits);
          for (let i = 1; i < hits.length; i++)
            expect(hits[i]!.distance).toBeGreaterThanOrEqual(hits[i - 1]!.distance);
        }
        // Every path measures in the stored precision with the same kernel, so their distances are
        // identical, not merely close: a filtered and an unfiltered search can be merged or thresholded.
        const exactByKey = new Map(
          index.search(query, count, { exact: true }).map((hit) => [hit.key, hit.distance]),
        );
        for (const hit of [...graph, ...scored, ...filtered])
          expect(hit.distance).toBe(exactByKey.get(hit.key));
        // i8 sums are integers, so distances tie; the two paths may order tied keys differently.
        const byDistanceThenKey = (a: SearchHit, b: SearchHit) => a.distance - b.distance || a.key - b.key;
        expect(scored.sort(byDistanceThenKey)).toEqual(filtered.sort(byDistanceThenKey));
      }
    });

    it('get() returns the stored vector within the quantization error', () => {
      // i8 keeps the direction (scaled to |v| ≈ 1); cos keeps the unit vector (the one-sum kernel measures
      // 1 − a·b); otherwise f32 and f16 keep every component.
      const unit = metric === 'cos' && quantization !== 'i8';
      for (let i = 0; i < count; i += 31) {
        const original = unit ? normalize(data.row(i).slice()) : data.row(i);
        const stored = index.get(i)!;
        expect(stored).toBeInstanceOf(Float32Array);
        expect(stored).toHaveLength(dimensions);
        expect(distance('cos', original, stored)).toBeLessThan(tolerance[quantization]);
        if (quantization !== 'i8') {
          for (let d = 0; d < dimensions; d++)
            expect(near(stored[d]!, original[d]!, quantization)).toBe(true);
        }
      }
      if (quantization === 'f32' && !unit) expect(index.get(5)).toEqual(data.row(5));
      expect(index.get(count + 1)).toBeUndefined();
    });
  },
);

describe('i8 cosine of vectors with a zero dot product', () => {
  // USearch 2.26.2's scalar i8 cosine returned 0 ("identical") when a·b = 0. Orthogonal vectors must
  // be at distance 1, so they rank last, not first.
  const d = 32;
  const basis = (...entries: [number, number][]) => {
    const vector = new Float32Array(d);
    for (const [at, value] of entries) vector[at] = value;
    return vector;
  };
  const query = basis([0, 1]);
  const stored = new Map<number, Float32Array>([
    [1, basis([1, 1])], // orthogonal: e1
    [2, basis([2, 1])], // orthogonal: e2
    [3, basis([0, 1], [1, 1])], // 45°: distance 1 − 1/√2
    [4, basis([0, 1], [1, 0.2])], // close: distance ≈ 0.02
    [5, basis([1, 1], [2, -1])], // orthogonal with non-zero components
    [6, basis([0, -1])], // opposite: distance 2
  ]);

  function build(): VectorIndex {
    const index = createVectorIndex(usearch, { dimensions: d, quantization: 'i8' });
    for (const [key, vector] of stored) index.add(key, vector);
    return index;
  }

  function expectOrthogonalLast(index: VectorIndex) {
    for (const options of [{}, { exact: true }, { allow: [1, 2, 3, 4, 5, 6] }]) {
      const hits = index.search(query, 6, options);
      expect(hits.map((hit) => hit.key).slice(0, 2)).toEqual([4, 3]);
      expect(hits[0]!.distance).toBeCloseTo(distance('cos', query, stored.get(4)!), 2);
      expect(hits[1]!.distance).toBeCloseTo(1 - Math.SQRT1_2, 2);
      const orthogonal = hits.slice(2, 5);
      expect(orthogonal.map((hit) => hit.key).sort()).toEqual([1, 2, 5]);
      for (const hit of orthogonal) expect(hit.distance).toBeCloseTo(1, 5);
      expect(hits[5]).toEqual({ key: 6, distance: expect.closeTo(2, 5) });
    }
    // A query orthogonal to everything stored but one.
    const [only, ...rest] = index.search(basis([2, 1]), 6, { exact: true });
    expect(only!.key).toBe(2);
    expect(only!.distance).toBeCloseTo(0, 5);
    expect(rest.filter((hit) => hit.key !== 5).every((hit) => Math.abs(hit.distance - 1) < 1e-5)).toBe(true);
  }

  it('ranks orthogonal vectors last at distance 1, in search, exact search and filtered search', () => {
    const index = build();
    expectOrthogonalLast(index);
    index.dispose();
  });

  it('still does after serialize → load and serialize → view (the metric is rebuilt from the header)', () => {
    const index = build();
    const bytes = index.serialize();
    for (const view of [false, true]) {
      const loaded = loadVectorIndex(usearch, bytes, { view });
      expect(loaded.quantization).toBe('i8');
      expectOrthogonalLast(loaded);
      loaded.dispose();
    }
    index.dispose();
  });

  it('zero vectors: two are at distance 0, a zero and a non-zero at 1, for every quantization', () => {
    for (const quantization of quantizations) {
      const index = createVectorIndex(usearch, { dimensions: d, quantization });
      index.add(1, new Float32Array(d));
      index.add(2, query);
      const fromZero = index.search(new Float32Array(d), 2, { exact: true });
      expect(fromZero).toEqual([
        { key: 1, distance: 0 },
        { key: 2, distance: 1 },
      ]);
      index.dispose();
    }
  });
});

describe('any number of dimensions', () => {
  // An odd count left the search results misaligned for their Float64Array view: every search threw.
  it.each([1, 2, 3, 5, 7, 17, 33, 1023])(
    '%i dimensions: every search path, get and a round trip work',
    (d) => {
      for (const quantization of quantizations) {
        const data = clusteredVectors({ count: 60, dimensions: d, seed: 13, clusters: 60, spread: 0.01 });
        const index = createVectorIndex(usearch, { dimensions: d, quantization, metric: 'l2sq' });
        index.addBatch(sequentialKeys(60), data.data);
        const query = data.row(17);
        const allow = [17, 18, 19];
        const rescore = { vectors: (key: number) => data.row(key) };
        // Keys whose stored vector equals the query's: just 17, unless i8 (a direction in 127 steps)
        // cannot tell apart vectors in one or two dimensions.
        const same = index
          .search(query, 60, { exact: true })
          .filter((hit) => hit.distance === 0)
          .map((hit) => hit.key);
        expect(same).toContain(17);
        if (quantization === 'f32') expect(same).toEqual([17]);
        for (const options of [{}, { exact: true }, { allow }, { allow, exactBelow: 0 }, { rescore }]) {
          const [first] = index.search(query, 3, options);
          expect(first, `${quantization} ${JSON.stringify(options)}`).toEqual({
            key: options.rescore ? 17 : expect.toSatisfy((key: number) => same.includes(key)),
            distance: 0,
          });
        }
        expect(index.get(17)).toHaveLength(d);
        const view = loadVectorIndex(usearch, index.serialize(), { view: true });
        expect(view.search(query, 60, { exact: true })).toEqual(index.search(query, 60, { exact: true }));
        view.dispose();
        index.dispose();
      }
    },
  );
});

describe('i8 kernels measure each call with its own query', () => {
  // The i8 kernels keep the last first argument's a·a, and every search casts its query into the same
  // buffer: a norm kept from the call before would measure this query at that query's length. These two
  // directions quantize to lengths 127 and 120 (0.1 · 127 truncates to 12), so a kept norm shows as a
  // distance of ~0.055 between a vector and itself.
  const d = 100;
  const axis = new Float32Array(d);
  axis[0] = 1;
  const spread = new Float32Array(d).fill(0.1);

  it.each(['cos', 'ip'] as Metric[])(
    '%s: a vector is at distance 0 from itself after searches for another',
    (metric) => {
      const index = createVectorIndex(usearch, { dimensions: d, quantization: 'i8', metric });
      index.add(1, axis);
      index.add(2, spread);
      for (const [query, key] of [
        [axis, 1],
        [spread, 2],
        [axis, 1],
        [spread, 2],
      ] as const) {
        for (const options of [{}, { exact: true }, { allow: [1, 2] }]) {
          const [first] = index.search(query, 1, options);
          expect(first!.key).toBe(key);
          expect(first!.distance).toBeCloseTo(0, 6);
        }
      }
      // An add measures its vector against what is stored, with its own norm too.
      index.add(3, axis);
      expect(index.search(axis, 2, { exact: true }).map((hit) => hit.distance)).toEqual([
        expect.closeTo(0, 6),
        expect.closeTo(0, 6),
      ]);
      index.dispose();
    },
  );
});
