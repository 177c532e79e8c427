// Shared test data for the vector index: seeded, clustered vectors and exact ground truth.
// Recall tests must use clustered data: uniform random vectors are HNSW's worst case
// (every engine reaches recall@10 ≈ 0.09 on them at scale), so they test nothing useful.
import { expect } from 'vitest';
import { distance, type Metric, type SearchHit } from '../../src/exports/vector.js';
import { LongshipError } from '../../src/index.js';

/** A seeded PRNG (mulberry32): the same seed gives the same numbers on every runtime. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal numbers from a uniform source (Box–Muller). */
export function gaussian(random: () => number): () => number {
  return () => {
    const u = 1 - random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
}

export function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** `count` vectors laid out one after another, like `addBatch` takes them. */
export class VectorSet {
  constructor(
    readonly dimensions: number,
    readonly data: Float32Array,
  ) {}

  get count(): number {
    return this.data.length / this.dimensions;
  }

  /** A view (not a copy) of vector `i`. */
  row(i: number): Float32Array {
    return this.data.subarray(i * this.dimensions, (i + 1) * this.dimensions);
  }

  /** Copies vectors `from..to` into a new set. */
  slice(from: number, to: number): VectorSet {
    return new VectorSet(this.dimensions, this.data.slice(from * this.dimensions, to * this.dimensions));
  }
}

export interface ClusteredOptions {
  count: number;
  dimensions: number;
  /** Number of cluster centres. Default `max(8, count / 100)`. */
  clusters?: number;
  /** Standard deviation of a point around its centre, per unit-norm centre. Default 0.35. */
  spread?: number;
  /** Scale every vector to unit length (for `ip`, and for `i8` which stores only direction). */
  normalized?: boolean;
  seed: number;
}

/**
 * Gaussian blobs around random unit centres, like embeddings of a corpus of topics. Queries drawn with
 * another seed but the same `centresSeed` come from the same clusters without being stored vectors.
 */
export function clusteredVectors(options: ClusteredOptions & { centresSeed?: number }): VectorSet {
  const { count, dimensions, seed } = options;
  const clusters = options.clusters ?? Math.max(8, Math.floor(count / 100));
  const spread = (options.spread ?? 0.35) / Math.sqrt(dimensions);
  const centreNormal = gaussian(seededRandom(options.centresSeed ?? 0x5eed));
  const centres: Float32Array[] = [];
  for (let c = 0; c < clusters; c++) {
    centres.push(normalize(Float32Array.from({ length: dimensions }, centreNormal)));
  }
  const random = seededRandom(seed);
  const normal = gaussian(random);
  const data = new Float32Array(count * dimensions);
  for (let i = 0; i < count; i++) {
    const centre = centres[Math.floor(random() * clusters)]!;
    const row = data.subarray(i * dimensions, (i + 1) * dimensions);
    for (let d = 0; d < dimensions; d++) row[d] = centre[d]! + normal() * spread;
    if (options.normalized) normalize(row);
  }
  return new VectorSet(dimensions, data);
}

/** Keys 0..count-1 (or from `first`), for `addBatch`. */
export function sequentialKeys(count: number, first = 0): Float64Array {
  return Float64Array.from({ length: count }, (_, i) => first + i);
}

/** Uniform vectors in [-1, 1): only for tests that do not measure recall. */
export function randomVectors(count: number, dimensions: number, seed: number): VectorSet {
  const random = seededRandom(seed);
  return new VectorSet(
    dimensions,
    Float32Array.from({ length: count * dimensions }, () => random() * 2 - 1),
  );
}

/**
 * Exact top-k by brute force with the JS `distance()`, ties broken by key. `keys[i]` names row `i`
 * (default: the row number); `allowed` restricts the candidates.
 */
export function exactTopK(
  metric: Metric,
  vectors: VectorSet,
  query: Float32Array,
  k: number,
  options: { keys?: ArrayLike<number>; allowed?: (key: number) => boolean } = {},
): SearchHit[] {
  const top = new TopK(k);
  for (let i = 0; i < vectors.count; i++) {
    const key = options.keys ? options.keys[i]! : i;
    if (options.allowed && !options.allowed(key)) continue;
    top.offer(key, distance(metric, query, vectors.row(i)));
  }
  return top.hits;
}

/** Exact top-k over a model of the index: a Map of key → vector. */
export function exactTopKOf(
  metric: Metric,
  model: ReadonlyMap<number, Float32Array>,
  query: Float32Array,
  k: number,
): SearchHit[] {
  const top = new TopK(k);
  for (const [key, vector] of model) top.offer(key, distance(metric, query, vector));
  return top.hits;
}

// Keeps the k best hits in order; sorting every candidate made ground truth 5× slower.
class TopK {
  readonly hits: SearchHit[] = [];
  constructor(private readonly k: number) {}

  offer(key: number, distance: number): void {
    const hits = this.hits;
    if (this.k === 0) return;
    const worse = (hit: SearchHit) => hit.distance > distance || (hit.distance === distance && hit.key > key);
    if (hits.length === this.k && !worse(hits[hits.length - 1]!)) return;
    let at = hits.length;
    while (at > 0 && worse(hits[at - 1]!)) at--;
    hits.splice(at, 0, { key, distance });
    if (hits.length > this.k) hits.pop();
  }
}

/** Fraction of the true top-k keys found in `found`. */
export function recall(found: readonly SearchHit[], truth: readonly SearchHit[]): number {
  if (truth.length === 0) return 1;
  const wanted = new Set(truth.map((hit) => hit.key));
  return found.filter((hit) => wanted.has(hit.key)).length / truth.length;
}

/**
 * Checks that `found` is a correct exact top-k against `truth`: same length, and the same keys except
 * where distances tie within `tolerance` (then either key may come first or fill the last slot).
 */
export function expectSameTopK(
  found: readonly SearchHit[],
  truth: readonly SearchHit[],
  tolerance = 1e-5,
): void {
  expect(found.length).toBe(truth.length);
  for (let i = 0; i < truth.length; i++) {
    expect(found[i]!.distance).toBeCloseTo(truth[i]!.distance, 4);
  }
  const foundKeys = new Set(found.map((hit) => hit.key));
  const kth = truth.at(-1)?.distance ?? 0;
  for (const hit of truth) {
    // A true hit may be missing only if it ties with the k-th distance.
    if (!foundKeys.has(hit.key)) expect(Math.abs(hit.distance - kth)).toBeLessThanOrEqual(tolerance);
  }
}

/** Asserts that `run` throws a LongshipError with this code, and returns it. */
export function expectLongshipError(run: () => unknown, code: LongshipError['code']): LongshipError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected LongshipError ${code}`).toBeInstanceOf(LongshipError);
  expect((thrown as LongshipError).code).toBe(code);
  return thrown as LongshipError;
}
