/**
 * Distance metrics: cosine, inner product (1 − a·b) and squared Euclidean. With `cos` over `f32` and `f16`
 * the index stores each vector scaled to unit length and measures 1 − a·b, as hnswlib does (a zero vector
 * stays zero: two are at distance 0, one and any other vector at 1).
 */
export type Metric = 'cos' | 'ip' | 'l2sq';

/**
 * How vectors are stored. `i8` keeps each vector's direction in one byte a dimension (a quarter of
 * `f32`'s memory): it suits cosine over embeddings; rescore with the f32 vectors to recover recall.
 */
export type Quantization = 'f32' | 'f16' | 'i8';

export interface VectorIndexOptions {
  dimensions: number;
  /** Default `'cos'`. */
  metric?: Metric;
  /** Default `'f32'`. */
  quantization?: Quantization;
  /** HNSW graph degree M. Default 16. */
  connectivity?: number;
  /** Candidate list size while inserting (ef_construction). Default 128. */
  expansionAdd?: number;
  /** Candidate list size while searching (ef_search). Default 64. */
  expansionSearch?: number;
}

export interface SearchHit {
  key: number;
  distance: number;
}

export interface SearchOptions {
  /** Scan every vector instead of walking the graph. */
  exact?: boolean;
  /** Only these keys may be returned. The list is searched inside WASM, never through a JS callback. */
  allow?: ArrayLike<number>;
  /**
   * An allow-list at most this long is scored exactly, key by key, instead of walking a graph
   * that would reject almost every candidate. Default: 2,048 keys or 2% of the index, whichever is larger.
   */
  exactBelow?: number;
  /**
   * Re-rank the top `candidates` (default `max(4k, 40)`) with full-precision vectors the caller keeps,
   * e.g. for an `i8` index, measured in f32 inside WASM. Keys without a vector keep their stored distance;
   * a vector of the wrong length throws `DIMENSION_MISMATCH`.
   */
  rescore?: { vectors: (key: number) => Float32Array | undefined; candidates?: number };
}

/**
 * An approximate nearest-neighbour index over numeric keys.
 * Keys are non-negative integers below 2^53; vectors are `Float32Array`s of `dimensions` numbers.
 */
export interface VectorIndex {
  readonly dimensions: number;
  readonly metric: Metric;
  readonly quantization: Quantization;
  readonly connectivity: number;
  /** Vectors present. */
  readonly size: number;
  /** Vectors that fit before the index grows. */
  readonly capacity: number;
  /** Bytes held on the WASM heap by this index. */
  readonly memoryUsage: number;
  /** A view (`{ view: true }`) refuses writes until `writable()`. */
  readonly readOnly: boolean;
  reserve(capacity: number): void;
  add(key: number, vector: Float32Array): void;
  /** Adds `keys.length` vectors laid out one after another in `vectors`. */
  addBatch(keys: ArrayLike<number>, vectors: Float32Array): void;
  search(query: Float32Array, k: number, options?: SearchOptions): SearchHit[];
  /** Returns whether the key was present. */
  remove(key: number): boolean;
  contains(key: number): boolean;
  /** The stored vector (dequantized to f32), or undefined. For `cos` that is the unit vector (`i8`: its direction). */
  get(key: number): Float32Array | undefined;
  /** The candidate list sizes in use: ef_construction (`add`) and ef_search (`search`). */
  readonly expansion: { add: number; search: number };
  changeExpansion(options: { add?: number; search?: number }): void;
  /**
   * This index, writable. A view becomes writable where it lies, at no cost: it owns its bytes on the
   * WASM heap. Searches on a view take no locks, so a store opens its snapshot as a view and calls this
   * at its first write.
   */
  writable(): VectorIndex;
  /**
   * Lays the index out anew in one block of the WASM heap, its nodes and vectors in graph order
   * (breadth-first from the entry point), so that a search finds what it reads next close by: same
   * keys, same graph, same answers, a faster search (~10–20 % at 100k × 512 f32). Worth it after
   * a build or many writes; it briefly holds the index twice (on the heap, and serialized in JS).
   */
  optimize(): void;
  /** The index in USearch's own format, readable by native USearch too. */
  serialize(): Uint8Array;
  /** Frees the WASM memory; any later call throws `DISPOSED`. */
  dispose(): void;
}

export interface OpenOptions {
  /** Open the index read-only (until `writable()`). Either way it reads the bytes in place. Default false. */
  view?: boolean;
  /** Overrides the serialized ef_search. */
  expansionSearch?: number;
}

/**
 * Serialized index bytes on the WASM heap, written in place by the caller (see `allocateIndexBytes`).
 * Views of WASM memory go stale when its heap grows, so bytes go in through `write`, never a kept view.
 */
export interface IndexBytes {
  readonly length: number;
  /** Copies `chunk` to `offset`; throws `INVALID_ARGUMENT` if it does not fit. */
  write(chunk: Uint8Array, offset: number): void;
  /**
   * Opens the bytes as an index. Consumes them, whether it succeeds or throws (`CORRUPT_INDEX` for bytes
   * that are not a sound index): the index reads and writes them in place, and frees them when disposed.
   */
  open(options?: OpenOptions): VectorIndex;
  /** Frees the bytes if they were never opened. */
  dispose(): void;
}

/**
 * Makes vector indexes for a component that must not choose their implementation (the derived
 * indexes): the engine passes one in (`usearchIndexes` in usearch-index.ts).
 */
export interface VectorIndexFactory {
  /** A new, empty index. */
  create(options: VectorIndexOptions): VectorIndex;
  /** Room for a serialized index of `length` bytes, written as a snapshot is read and opened in place. */
  allocate(length: number): IndexBytes;
}
