// Model-based property test: random sequences of operations on a small index must agree with a
// Map of key → vector searched by brute force.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createVectorIndex,
  loadUsearch,
  loadVectorIndex,
  type Metric,
  type SearchHit,
  type UsearchModule,
  type VectorIndex,
} from '../../src/exports/vector.js';
import { exactTopKOf, expectSameTopK, normalize } from './fixtures.js';

const dimensions = 5; // odd on purpose: it once misaligned the search results
const keys = fc.integer({ min: 0, max: 24 }); // few keys, so adds collide and removes hit
// Eighths: exact in f32, and coarse enough that equal distances (ties) and zero vectors occur.
const component = fc.integer({ min: -8, max: 8 }).map((x) => x / 8);
const vectors = fc
  .array(component, { minLength: dimensions, maxLength: dimensions })
  .map((v) => new Float32Array(v));
const ks = fc.integer({ min: 1, max: 12 });

type Model = Map<number, Float32Array>;
interface Real {
  index: VectorIndex;
}

let usearch: UsearchModule;
beforeAll(async () => {
  usearch = await loadUsearch();
});

function commands(metric: Metric) {
  const checkSize = (model: Model, real: Real) => expect(real.index.size).toBe(model.size);
  const checkHits = (model: Model, hits: SearchHit[], k: number) => {
    expect(hits.length).toBeLessThanOrEqual(Math.min(k, model.size));
    expect(new Set(hits.map((hit) => hit.key)).size).toBe(hits.length);
    for (const hit of hits) expect(model.has(hit.key), `key ${hit.key} is not in the model`).toBe(true);
    for (let i = 1; i < hits.length; i++)
      expect(hits[i]!.distance).toBeGreaterThanOrEqual(hits[i - 1]!.distance);
  };

  class Add implements fc.Command<Model, Real> {
    constructor(
      readonly key: number,
      readonly vector: Float32Array,
    ) {}
    check = () => true;
    run(model: Model, real: Real) {
      if (model.has(this.key)) {
        expect(() => real.index.add(this.key, this.vector)).toThrowError(
          expect.objectContaining({ code: 'DUPLICATE_KEY' }),
        );
      } else {
        real.index.add(this.key, this.vector);
        model.set(this.key, this.vector);
      }
      checkSize(model, real);
      expect(real.index.contains(this.key)).toBe(true);
    }
    toString = () => `add(${this.key}, [${[...this.vector]}])`;
  }

  class Remove implements fc.Command<Model, Real> {
    constructor(readonly key: number) {}
    check = () => true;
    run(model: Model, real: Real) {
      expect(real.index.remove(this.key)).toBe(model.delete(this.key));
      expect(real.index.contains(this.key)).toBe(false);
      checkSize(model, real);
    }
    toString = () => `remove(${this.key})`;
  }

  class Get implements fc.Command<Model, Real> {
    constructor(readonly key: number) {}
    check = () => true;
    run(model: Model, real: Real) {
      expect(real.index.contains(this.key)).toBe(model.has(this.key));
      const added = model.get(this.key);
      const stored = real.index.get(this.key);
      if (!added || metric !== 'cos') return expect(stored).toEqual(added);
      // cos stores the unit vector (a zero vector stays zero), normalised in f32.
      const unit = normalize(added.slice());
      expect(stored).toHaveLength(dimensions);
      for (let d = 0; d < dimensions; d++) expect(stored![d]).toBeCloseTo(unit[d]!, 6);
    }
    toString = () => `get(${this.key})`;
  }

  class ExactSearch implements fc.Command<Model, Real> {
    constructor(
      readonly query: Float32Array,
      readonly k: number,
    ) {}
    check = () => true;
    run(model: Model, real: Real) {
      const hits = real.index.search(this.query, this.k, { exact: true });
      checkHits(model, hits, this.k);
      expectSameTopK(hits, exactTopKOf(metric, model, this.query, this.k));
    }
    toString = () => `search([${[...this.query]}], ${this.k}, exact)`;
  }

  class GraphSearch implements fc.Command<Model, Real> {
    constructor(
      readonly query: Float32Array,
      readonly k: number,
    ) {}
    check = () => true;
    run(model: Model, real: Real) {
      // Approximate, so only its invariants: never a removed key, no duplicates, nearest first.
      checkHits(model, real.index.search(this.query, this.k), this.k);
    }
    toString = () => `search([${[...this.query]}], ${this.k})`;
  }

  class FilteredSearch implements fc.Command<Model, Real> {
    constructor(
      readonly query: Float32Array,
      readonly k: number,
      readonly allow: number[],
      readonly graph: boolean,
    ) {}
    check = () => true;
    run(model: Model, real: Real) {
      const options = { allow: this.allow, exact: true, exactBelow: this.graph ? 0 : undefined };
      const hits = real.index.search(this.query, this.k, options);
      const allowed = new Map([...model].filter(([key]) => this.allow.includes(key)));
      checkHits(allowed, hits, this.k);
      expectSameTopK(hits, exactTopKOf(metric, allowed, this.query, this.k));
    }
    toString = () =>
      `search([${[...this.query]}], ${this.k}, allow [${this.allow}]${this.graph ? ', graph' : ''})`;
  }

  class RoundTrip implements fc.Command<Model, Real> {
    check = () => true;
    run(model: Model, real: Real) {
      const loaded = loadVectorIndex(usearch, real.index.serialize());
      real.index.dispose();
      real.index = loaded;
      checkSize(model, real);
    }
    toString = () => 'serialize → load';
  }

  return [
    fc.tuple(keys, vectors).map(([key, vector]) => new Add(key, vector)),
    fc.tuple(keys, vectors).map(([key, vector]) => new Add(key, vector)),
    keys.map((key) => new Remove(key)),
    keys.map((key) => new Get(key)),
    fc.tuple(vectors, ks).map(([query, k]) => new ExactSearch(query, k)),
    fc.tuple(vectors, ks).map(([query, k]) => new GraphSearch(query, k)),
    fc
      .tuple(vectors, ks, fc.uniqueArray(keys, { maxLength: 10 }), fc.boolean())
      .map(([query, k, allow, graph]) => new FilteredSearch(query, k, allow, graph)),
    fc.constant(new RoundTrip()),
  ];
}

describe.each(['l2sq', 'cos'] as Metric[])(
  '%s: random operations agree with a Map and brute force',
  (metric) => {
    it('contains, get and size match; search never returns a removed key; exact search is exact', () => {
      fc.assert(
        fc.property(fc.commands(commands(metric), { maxCommands: 60 }), (sequence) => {
          const real = { index: createVectorIndex(usearch, { dimensions, metric, connectivity: 4 }) };
          try {
            fc.modelRun(() => ({ model: new Map(), real }), sequence);
          } finally {
            real.index.dispose();
          }
        }),
        { numRuns: 150, seed: 20_240_601 },
      );
    });
  },
);
