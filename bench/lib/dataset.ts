import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchArgs } from './args.js';
import { Random } from './random.js';

/**
 * Seeded clustered vectors, L2-normalised like sentence embeddings (so cosine, inner product and
 * Euclidean distance rank neighbours the same way, whatever metric a peer offers).
 *
 * Each cluster has a random centre and a random `rank`-dimensional subspace; a point is its cluster's
 * centre, plus a Gaussian step inside that subspace, plus a little isotropic Gaussian noise in all
 * dimensions. Neighbourhoods therefore have a low intrinsic dimension, as real embeddings do, instead of
 * the uniform-random worst case (where every HNSW, native included, falls to recall ≈ 0.1).
 * Queries are held-out points from the same clusters, drawn from their own random stream.
 */
export interface ClusterModel {
  dims: number;
  clusters: number;
  rank: number;
  /** Norm of the step inside a cluster's subspace, relative to the centre's (≈ 1). */
  spread: number;
  /** Norm of the isotropic noise, relative to the centre's. */
  noise: number;
}

/** Version of the generator: bump it when the generation changes so that caches are not reused. */
export const generatorVersion = 1;

/** Default rank of each cluster's subspace: the intrinsic dimension of a neighbourhood (`--rank`). */
export const defaultRank = 16;

export function clusterModel(n: number, dims: number, rank = defaultRank): ClusterModel {
  return {
    dims,
    clusters: Math.min(300, Math.max(8, Math.floor(n / 100))),
    rank,
    spread: 1,
    noise: 0.35,
  };
}

export function describeModel(model: ClusterModel): string {
  return (
    `${model.clusters} Gaussian clusters, each a random centre plus a step in its own random ` +
    `${model.rank}-dimensional subspace (norm ≈ ${model.spread}× the centre's) plus isotropic noise ` +
    `(norm ≈ ${model.noise}×), L2-normalised`
  );
}

class Generator {
  readonly centres: Float32Array;
  readonly bases: Float32Array;

  constructor(
    readonly model: ClusterModel,
    seed: number,
  ) {
    const { dims, clusters, rank } = model;
    const random = new Random(seed, 0);
    const scale = 1 / Math.sqrt(dims);
    this.centres = new Float32Array(clusters * dims);
    for (let i = 0; i < this.centres.length; i++) this.centres[i] = random.gaussian() * scale;
    this.bases = new Float32Array(clusters * rank * dims);
    for (let i = 0; i < this.bases.length; i++) this.bases[i] = random.gaussian() * scale;
  }

  generate(count: number, random: Random): Float32Array {
    const { dims, clusters, rank, spread, noise } = this.model;
    const out = new Float32Array(count * dims);
    const z = new Float64Array(rank);
    const stepScale = spread / Math.sqrt(rank);
    const noiseScale = noise / Math.sqrt(dims);
    const point = new Float64Array(dims);
    for (let p = 0; p < count; p++) {
      const c = random.below(clusters);
      for (let r = 0; r < rank; r++) z[r] = random.gaussian() * stepScale;
      const centre = c * dims;
      for (let d = 0; d < dims; d++) point[d] = this.centres[centre + d]! + random.gaussian() * noiseScale;
      for (let r = 0; r < rank; r++) {
        const basis = (c * rank + r) * dims;
        const weight = z[r]!;
        for (let d = 0; d < dims; d++) point[d] = point[d]! + weight * this.bases[basis + d]!;
      }
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += point[d]! * point[d]!;
      const inverse = 1 / Math.sqrt(norm);
      const row = p * dims;
      for (let d = 0; d < dims; d++) out[row + d] = point[d]! * inverse;
    }
    return out;
  }
}

/** Everything an engine's child process needs: the same files for every engine. */
export interface DatasetFiles {
  /** `nMax × dims` f32, row-major. Engines that run on fewer vectors take a prefix. */
  base: string;
  /** `queries × dims` f32. */
  queries: string;
  nMax: number;
  dims: number;
  queryCount: number;
  k: number;
  /** Exact top-k keys (i32, `queries × k`) for each n an engine runs at. */
  truth: Record<number, string>;
  description: string;
}

export function defaultCacheDir(): string {
  return join(tmpdir(), 'longship-bench');
}

/** Generates (or reuses) the vectors, the queries and the exact ground truth for every n in `sizes`. */
export function prepareDataset(options: {
  sizes: number[];
  dims: number;
  queries: number;
  k: number;
  seed: number;
  rank: number;
  cacheDir: string;
  log: (message: string) => void;
}): DatasetFiles {
  const { dims, queries, k, seed, cacheDir, log } = options;
  const nMax = Math.max(...options.sizes);
  const model = clusterModel(nMax, dims, options.rank);
  mkdirSync(cacheDir, { recursive: true });
  const rank = model.rank === defaultRank ? '' : `-r${model.rank}`;
  const stem = `v${generatorVersion}-seed${seed}-d${dims}-c${model.clusters}${rank}`;
  const basePath = join(cacheDir, `${stem}-base-n${nMax}.f32`);
  const queryPath = join(cacheDir, `${stem}-queries-q${queries}.f32`);
  const generator = new Generator(model, seed);
  if (!existsSync(basePath)) {
    const started = performance.now();
    writeAtomically(basePath, generator.generate(nMax, new Random(seed, 1)));
    log(`generated ${nMax} × ${dims} vectors in ${seconds(started)} s`);
  }
  if (!existsSync(queryPath)) writeAtomically(queryPath, generator.generate(queries, new Random(seed, 2)));
  const base = readF32(basePath);
  const queryVectors = readF32(queryPath);
  const truth: Record<number, string> = {};
  for (const n of new Set(options.sizes)) {
    const path = join(cacheDir, `${stem}-base-n${nMax}-truth-n${n}-q${queries}-k${k}.i32`);
    if (!existsSync(path)) {
      const started = performance.now();
      writeAtomically(path, exactTopK(base.subarray(0, n * dims), queryVectors, dims, k).keys);
      log(`exact ground truth for n = ${n} in ${seconds(started)} s`);
    }
    truth[n] = path;
  }
  return {
    base: basePath,
    queries: queryPath,
    nMax,
    dims,
    queryCount: queries,
    k,
    truth,
    description: describeModel(model),
  };
}

/** {@link prepareDataset} with bench:vector's flags, for every n in `sizes`. */
export function datasetFor(args: BenchArgs, sizes: number[], log: (message: string) => void): DatasetFiles {
  const { dims, queries, k, seed, rank } = args;
  return prepareDataset({
    sizes,
    dims,
    queries,
    k,
    seed,
    rank,
    cacheDir: args.cacheDir ?? defaultCacheDir(),
    log,
  });
}

/** Exact top-k by cosine over L2-normalised vectors (so by inner product), nearest first. */
export function exactTopK(
  base: Float32Array,
  queries: Float32Array,
  dims: number,
  k: number,
): { keys: Int32Array; distances: Float32Array } {
  const n = base.length / dims;
  const count = queries.length / dims;
  const keys = new Int32Array(count * k).fill(-1);
  const distances = new Float32Array(count * k).fill(Number.POSITIVE_INFINITY);
  for (let q = 0; q < count; q++) {
    const query = queries.subarray(q * dims, (q + 1) * dims);
    const top = new TopK(k);
    for (let i = 0; i < n; i++) top.push(i, 1 - dot(query, base, i * dims, dims));
    top.write(keys, distances, q * k);
  }
  return { keys, distances };
}

/** Inner product of `a` with the row of `rows` starting at `offset`. */
export function dot(a: Float32Array, rows: Float32Array, offset: number, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 4 <= dims; d += 4) {
    s0 += a[d]! * rows[offset + d]!;
    s1 += a[d + 1]! * rows[offset + d + 1]!;
    s2 += a[d + 2]! * rows[offset + d + 2]!;
    s3 += a[d + 3]! * rows[offset + d + 3]!;
  }
  for (; d < dims; d++) s0 += a[d]! * rows[offset + d]!;
  return s0 + s1 + s2 + s3;
}

/** The k smallest (distance, key) pairs seen so far, kept sorted (k is small). */
export class TopK {
  readonly keys: Int32Array;
  readonly distances: Float64Array;
  size = 0;

  constructor(readonly k: number) {
    this.keys = new Int32Array(k);
    this.distances = new Float64Array(k);
  }

  push(key: number, distance: number): void {
    const k = this.k;
    if (this.size === k && distance >= this.distances[k - 1]!) return;
    let at = this.size < k ? this.size++ : k - 1;
    while (at > 0 && this.distances[at - 1]! > distance) {
      this.distances[at] = this.distances[at - 1]!;
      this.keys[at] = this.keys[at - 1]!;
      at--;
    }
    this.distances[at] = distance;
    this.keys[at] = key;
  }

  write(keys: Int32Array, distances: Float32Array, offset: number): void {
    for (let i = 0; i < this.size; i++) {
      keys[offset + i] = this.keys[i]!;
      distances[offset + i] = this.distances[i]!;
    }
  }
}

export function readF32(path: string): Float32Array {
  const bytes = readAligned(path);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

export function readI32(path: string): Int32Array {
  const bytes = readAligned(path);
  return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** Small files come back in a shared pool at any offset; typed arrays of 4-byte numbers need 4. */
function readAligned(path: string): Uint8Array {
  const bytes = readFileSync(path);
  return bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
}

function writeAtomically(path: string, data: Float32Array | Int32Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  renameSync(temporary, path);
}

function seconds(started: number): string {
  return ((performance.now() - started) / 1000).toFixed(1);
}
