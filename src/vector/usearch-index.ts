// Over 400 lines on purpose: this is the one file that calls the USearch WASM exports, for the
// index (UsearchIndex) and for its serialized bytes on the WASM heap (HeapBytes, which opens into a
// UsearchIndex); both go through the same heap helpers (withHeap, trap) at the bottom.
import { LongshipError } from '../errors.js';
import { graphOrder } from './graph-order.js';
import { check, type UsearchModule } from './usearch-module.js';
import type {
  IndexBytes,
  Metric,
  OpenOptions,
  Quantization,
  SearchHit,
  SearchOptions,
  VectorIndex,
  VectorIndexFactory,
  VectorIndexOptions,
} from './vector-index.js';

const metrics: readonly Metric[] = ['cos', 'ip', 'l2sq'];
const quantizations: readonly Quantization[] = ['f32', 'f16', 'i8'];
const defaults: Required<Omit<VectorIndexOptions, 'dimensions'>> = {
  metric: 'cos',
  quantization: 'f32',
  connectivity: 16,
  expansionAdd: 128,
  expansionSearch: 64,
};

// Native indexes that were never disposed are freed when their wrapper is collected. workerd has
// no FinalizationRegistry before its enable_weak_ref flag (2025-05-05): there, only dispose() frees.
const leaks =
  typeof FinalizationRegistry === 'undefined'
    ? undefined
    : new FinalizationRegistry<{ module: UsearchModule; handle: number }>(({ module, handle }) =>
        module.exports._longship_index_free(handle),
      );

/**
 * Creates an empty HNSW index on the given USearch module.
 *
 * @example
 * const index = createVectorIndex(await loadUsearch(), { dimensions: 3 });
 * index.add(1, new Float32Array([1, 0, 0]));
 * index.search(new Float32Array([1, 0.1, 0]), 1); // [{ key: 1, distance: ≈0.005 }]
 */
export function createVectorIndex(module: UsearchModule, options: VectorIndexOptions): VectorIndex {
  const { expansionAdd: add, expansionSearch: search } = { ...defaults, ...options };
  return new UsearchIndex(module, newHandle(module, options), { add, search });
}

/**
 * Opens an index from bytes written by `serialize()` (or by native USearch). The index reads the bytes in
 * place after one copy into WASM memory, rebuilding none of its structures; with `view: true` it is also
 * read-only (and its searches take no locks). Bytes that arrive in pieces (IndexedDB chunks, a stream)
 * avoid even that copy: see `allocateIndexBytes`.
 */
export function loadVectorIndex(
  module: UsearchModule,
  bytes: Uint8Array,
  options: OpenOptions = {},
): VectorIndex {
  const room = allocateIndexBytes(module, bytes.byteLength);
  room.write(bytes, 0);
  return room.open(options);
}

/**
 * The factory the engine hands to the derived indexes: USearch indexes in `module`.
 *
 * @example
 * const indexes = await openDerivedIndexes({ store, dimensions, factories: { vector: usearchIndexes(usearch), lexical: bm25Indexes } });
 */
export function usearchIndexes(module: UsearchModule): VectorIndexFactory {
  return {
    create: (options) => createVectorIndex(module, options),
    allocate: (length) => allocateIndexBytes(module, length),
  };
}

/**
 * Room on the WASM heap for a serialized index of `length` bytes. The caller writes the bytes in place as
 * they arrive, then `open()`s them: the index reads and writes them where they are, and owns them from
 * then on. The heap grows once, to the size needed, here.
 *
 * @example
 * const room = allocateIndexBytes(usearch, total);
 * for (const { offset, bytes } of chunks) room.write(bytes, offset);
 * const index = room.open({ view: true });
 */
export function allocateIndexBytes(module: UsearchModule, length: number): IndexBytes {
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new LongshipError('INVALID_ARGUMENT', `length must be a non-negative integer, not ${length}`);
  }
  // malloc takes a 32-bit size: past that it would wrap around to a small block.
  if (length >= 0xffffffff) {
    throw new LongshipError('OUT_OF_MEMORY', `${length} bytes do not fit in a 4 GiB WASM heap`);
  }
  // Opening allocates the index's own arrays (a few percent of the bytes for a view); growing the heap again
  // for them cost more than the open itself (7 of 12 ms, 100k × 512 f32). Make that room now, below the bytes.
  const spare = module.exports._malloc(Math.floor(length / 16) + (1 << 20)) >>> 0;
  // malloc(0) may return a pointer or 0; one spare byte keeps "no room" unambiguous.
  const buffer = module.exports._malloc(length + 1) >>> 0;
  if (spare) module.exports._free(spare);
  if (!buffer) throw new LongshipError('OUT_OF_MEMORY', `no room for ${length} bytes on the WASM heap`);
  return new HeapBytes(module, buffer, length);
}

class HeapBytes implements IndexBytes {
  #buffer: number;

  constructor(
    private readonly module: UsearchModule,
    buffer: number,
    readonly length: number,
  ) {
    this.#buffer = buffer;
  }

  write(chunk: Uint8Array, offset: number): void {
    const buffer = this.#live();
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + chunk.byteLength > this.length) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `${chunk.byteLength} bytes at offset ${offset} do not fit in ${this.length}`,
      );
    }
    // A fresh view each time: growing the heap detaches the previous ArrayBuffer.
    new Uint8Array(this.module.memory.buffer, buffer + offset, chunk.byteLength).set(chunk);
  }

  open(options: OpenOptions = {}): VectorIndex {
    const buffer = this.#live();
    const { module, length } = this;
    const view = options.view ?? false;
    // From here on the bytes belong to the index, or are freed here if it cannot open them.
    this.#buffer = 0;
    let handle: number;
    try {
      handle = openHandle(module, buffer, length, view);
    } catch (error) {
      module.exports._free(buffer);
      throw error;
    }
    // A loaded index has the expansions its handle was made with: the defaults.
    const expansion = { add: defaults.expansionAdd, search: defaults.expansionSearch };
    const index = new UsearchIndex(module, handle, expansion, view);
    if (options.expansionSearch) index.changeExpansion({ search: options.expansionSearch });
    return index;
  }

  dispose(): void {
    if (this.#buffer) this.module.exports._free(this.#buffer);
    this.#buffer = 0;
  }

  #live(): number {
    if (!this.#buffer) throw new LongshipError('DISPOSED', 'the bytes were opened or disposed');
    return this.#buffer;
  }
}

/** A new index that reads the serialized bytes at `buffer` in place, and owns them once it opens. */
function openHandle(module: UsearchModule, buffer: number, length: number, view: boolean): number {
  const handle = newHandle(module, { dimensions: 1 });
  try {
    withHeap(module, 4, (errorSlot) => {
      const status = trap(() =>
        module.exports._longship_load(handle, buffer, length, view ? 1 : 0, errorSlot),
      );
      check(module, status, errorSlot, 'Could not load the index');
    });
  } catch (error) {
    module.exports._longship_index_free(handle);
    throw error;
  }
  return handle;
}

function newHandle(module: UsearchModule, options: VectorIndexOptions): number {
  const o = { ...defaults, ...options };
  const metric = metrics.indexOf(o.metric);
  const quantization = quantizations.indexOf(o.quantization);
  if (!Number.isInteger(o.dimensions) || o.dimensions < 1 || o.dimensions > 65536) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `dimensions must be an integer in 1..65536, not ${o.dimensions}`,
    );
  }
  if (metric < 0) throw new LongshipError('INVALID_ARGUMENT', `unknown metric ${o.metric}`);
  if (quantization < 0) throw new LongshipError('INVALID_ARGUMENT', `unknown quantization ${o.quantization}`);
  for (const name of ['connectivity', 'expansionAdd', 'expansionSearch'] as const) {
    checkParameter(name, o[name]);
  }
  return withHeap(module, 8, (at) => {
    const status = module.exports._longship_index_new(
      o.dimensions,
      metric,
      quantization,
      o.connectivity,
      o.expansionAdd,
      o.expansionSearch,
      at,
      at + 4,
    );
    check(module, status, at + 4, 'Could not create the index');
    return new Uint32Array(module.memory.buffer, at, 1)[0]!;
  });
}

class UsearchIndex implements VectorIndex {
  readonly dimensions: number;
  readonly metric: Metric;
  readonly quantization: Quantization;
  readonly connectivity: number;
  #handle: number;
  /** Kept here: the serialized bytes do not keep them, and the module has no getter. */
  #expansion: { add: number; search: number };
  #readOnly: boolean;

  constructor(
    private readonly module: UsearchModule,
    handle: number,
    expansion: { add: number; search: number },
    readOnly = false,
  ) {
    this.#handle = handle;
    this.#expansion = expansion;
    this.#readOnly = readOnly;
    const x = module.exports;
    this.dimensions = x._longship_dimensions(handle);
    this.metric = metrics[x._longship_metric(handle)]!;
    this.quantization = quantizations[x._longship_scalar(handle)]!;
    this.connectivity = x._longship_connectivity(handle);
    leaks?.register(this, { module, handle }, this);
  }

  get readOnly(): boolean {
    return this.#readOnly;
  }

  get handle(): number {
    if (!this.#handle) throw new LongshipError('DISPOSED', 'the index was disposed');
    return this.#handle;
  }

  get size(): number {
    return this.module.exports._longship_size(this.handle);
  }

  get capacity(): number {
    return this.module.exports._longship_capacity(this.handle);
  }

  get memoryUsage(): number {
    return this.module.exports._longship_memory_usage(this.handle) >>> 0;
  }

  reserve(capacity: number): void {
    const handle = this.handle;
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > 0xffffffff) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `capacity must be an integer in 0..2^32-1, not ${capacity}`,
      );
    }
    withHeap(this.module, 4, (errorSlot) => {
      check(
        this.module,
        this.module.exports._longship_reserve(handle, capacity, errorSlot),
        errorSlot,
        'reserve',
      );
    });
  }

  add(key: number, vector: Float32Array): void {
    this.addBatch([key], vector);
  }

  addBatch(keys: ArrayLike<number>, vectors: Float32Array): void {
    const handle = this.handle;
    const count = keys?.length;
    if (!Number.isSafeInteger(count)) {
      throw new LongshipError('INVALID_ARGUMENT', 'keys must be an array of integers');
    }
    checkNumbers(vectors, count * this.dimensions, 'vectors');
    for (let i = 0; i < count; i++) checkKey(keys[i]!);
    const keyBytes = count * 8;
    withHeap(this.module, 8 + keyBytes + vectors.byteLength, (at) => {
      const keysAt = at + 8;
      const vectorsAt = keysAt + keyBytes;
      const heap = this.module.memory.buffer;
      new Float64Array(heap, keysAt, count).set(keys);
      new Float32Array(heap, vectorsAt, vectors.length).set(vectors);
      const status = this.module.exports._longship_add(handle, keysAt, vectorsAt, count, at, at + 4);
      check(this.module, status, at + 4, 'add');
    });
  }

  search(query: Float32Array, k: number, options: SearchOptions = {}): SearchHit[] {
    const handle = this.handle;
    this.checkQuery(query);
    if (!Number.isInteger(k) || k < 0) throw new LongshipError('INVALID_ARGUMENT', `k must be ≥ 0, not ${k}`);
    if (k === 0) return [];
    const { allow, rescore } = options;
    // Never more than the index holds: k past 2^32 would wrap around in size_t.
    const wanted = Math.min(rescore ? Math.max(rescore.candidates ?? Math.max(4 * k, 40), k) : k, this.size);
    const allowed = allow?.length ?? 0;
    if ((allow && allowed === 0) || wanted === 0) return [];
    // An invalid key would be cast to some valid one inside WASM (-1 to 0, 1.5 to 1).
    for (let i = 0; i < allowed; i++) checkKey(allow![i]!);
    const exactBelow = options.exactBelow ?? Math.max(2048, Math.floor(this.size / 50));
    const scoreKeys = allow !== undefined && allowed <= exactBelow;
    // Layout: found | error | query | keys out | distances out | allow-list | scratch vector
    const queryAt = 8;
    // Float64Array views need 8-byte alignment, and an odd number of dimensions leaves 4 over.
    const keysAt = align8(queryAt + query.byteLength);
    const distancesAt = keysAt + wanted * 8;
    const allowAt = align8(distancesAt + wanted * 4);
    const scratchAt = allowAt + allowed * 8;
    const hits = withHeap(this.module, scratchAt + (scoreKeys ? query.byteLength : 0), (at) => {
      const heap = this.module.memory.buffer;
      new Float32Array(heap, at + queryAt, query.length).set(query);
      if (allow) new Float64Array(heap, at + allowAt, allowed).set(allow);
      const x = this.module.exports;
      const exact = options.exact ? 1 : 0;
      const status = scoreKeys
        ? x._longship_score_keys(
            handle,
            at + queryAt,
            wanted,
            at + allowAt,
            allowed,
            at + scratchAt,
            at + keysAt,
            at + distancesAt,
            at,
            at + 4,
          )
        : allow
          ? x._longship_filtered_search(
              handle,
              at + queryAt,
              wanted,
              at + allowAt,
              allowed,
              exact,
              at + keysAt,
              at + distancesAt,
              at,
              at + 4,
            )
          : x._longship_search(
              handle,
              at + queryAt,
              wanted,
              exact,
              at + keysAt,
              at + distancesAt,
              at,
              at + 4,
            );
      check(this.module, status, at + 4, 'search');
      const after = this.module.memory.buffer;
      const found = new Uint32Array(after, at, 1)[0]!;
      const keys = new Float64Array(after, at + keysAt, found);
      const distances = new Float32Array(after, at + distancesAt, found);
      const result: SearchHit[] = new Array(found);
      for (let i = 0; i < found; i++) result[i] = { key: keys[i]!, distance: distances[i]! };
      return result;
    });
    return rescore ? this.rescore(query, hits, k, rescore.vectors) : hits;
  }

  /** Re-ranks `hits` by the caller's f32 vectors, measured inside WASM with the f32 SIMD kernels. */
  private rescore(
    query: Float32Array,
    hits: SearchHit[],
    k: number,
    vectors: (key: number) => Float32Array | undefined,
  ): SearchHit[] {
    const dims = this.dimensions;
    const found: SearchHit[] = [];
    const rows: Float32Array[] = [];
    for (const hit of hits) {
      const vector = vectors(hit.key);
      if (!vector) continue;
      checkNumbers(vector, dims, `rescore vector for key ${hit.key}`);
      found.push(hit);
      rows.push(vector);
    }
    if (rows.length > 0) {
      const rowsAt = query.byteLength;
      const outAt = rowsAt + rows.length * query.byteLength;
      withHeap(this.module, outAt + rows.length * 4, (at) => {
        const heap = this.module.memory.buffer;
        new Float32Array(heap, at, dims).set(query);
        const matrix = new Float32Array(heap, at + rowsAt, rows.length * dims);
        for (let i = 0; i < rows.length; i++) matrix.set(rows[i]!, i * dims);
        this.module.exports._longship_f32_distances(this.handle, at, at + rowsAt, rows.length, at + outAt);
        const distances = new Float32Array(this.module.memory.buffer, at + outAt, rows.length);
        for (let i = 0; i < rows.length; i++) found[i]!.distance = distances[i]!;
      });
    }
    return hits.sort((a, b) => a.distance - b.distance).slice(0, k);
  }

  remove(key: number): boolean {
    const handle = this.handle;
    checkKey(key);
    return withHeap(this.module, 8, (at) => {
      check(this.module, this.module.exports._longship_remove(handle, key, at, at + 4), at + 4, 'remove');
      return new Uint32Array(this.module.memory.buffer, at, 1)[0]! > 0;
    });
  }

  contains(key: number): boolean {
    checkKey(key);
    const found = this.module.exports._longship_contains(this.handle, key);
    if (found < 0) throw keyTableFull();
    return found === 1;
  }

  get(key: number): Float32Array | undefined {
    const handle = this.handle;
    checkKey(key);
    return withHeap(this.module, this.dimensions * 4, (at) => {
      const found = this.module.exports._longship_get(handle, key, at);
      if (found < 0) throw keyTableFull();
      if (found === 0) return undefined;
      return new Float32Array(this.module.memory.buffer, at, this.dimensions).slice();
    });
  }

  changeExpansion({ add, search }: { add?: number; search?: number }): void {
    const handle = this.handle;
    if (add !== undefined) checkParameter('expansionAdd', add);
    if (search !== undefined) checkParameter('expansionSearch', search);
    this.module.exports._longship_change_expansion(handle, add ?? 0, search ?? 0);
    this.#expansion = { add: add || this.#expansion.add, search: search || this.#expansion.search };
  }

  get expansion(): { add: number; search: number } {
    return { ...this.#expansion };
  }

  serialize(): Uint8Array {
    const handle = this.handle;
    const x = this.module.exports;
    const length = x._longship_serialized_length(handle) >>> 0;
    return withHeap(this.module, 4 + length, (at) => {
      check(this.module, x._longship_save(handle, at + 4, length, at), at, 'serialize');
      return new Uint8Array(this.module.memory.buffer, at + 4, length).slice();
    });
  }

  optimize(): void {
    const old = this.handle;
    const ordered = loadVectorIndex(this.module, graphOrder(this.serialize()), {
      view: this.#readOnly,
    }) as UsearchIndex;
    // This index takes over the new handle, with its own expansions; the old one goes.
    const handle = ordered.#handle;
    leaks?.unregister(ordered);
    ordered.#handle = 0;
    this.module.exports._longship_change_expansion(handle, this.#expansion.add, this.#expansion.search);
    this.module.exports._longship_index_free(old);
    leaks?.unregister(this);
    this.#handle = handle;
    leaks?.register(this, { module: this.module, handle }, this);
  }

  writable(): VectorIndex {
    const handle = this.handle; // DISPOSED once disposed
    // The view's bytes are the module's own heap, and its own: it writes into them where they lie.
    if (this.#readOnly) this.module.exports._longship_adopt(handle);
    this.#readOnly = false;
    return this;
  }

  dispose(): void {
    if (!this.#handle) return;
    this.module.exports._longship_index_free(this.#handle);
    leaks?.unregister(this);
    this.#handle = 0;
  }

  private checkQuery(query: Float32Array): void {
    checkNumbers(query, this.dimensions, 'query');
  }
}

/**
 * Vectors are copied onto the WASM heap by their byte length: anything but a Float32Array (a plain
 * array has no byteLength) would write past the room made for it and corrupt every index in the
 * module. NaN and ±Infinity would be stored, then never found again, so they are refused too.
 */
export function checkNumbers(vector: Float32Array, length: number, what: string): void {
  if (!isFloat32Array(vector)) {
    const kind = Array.isArray(vector) ? 'an array' : vector === null ? 'null' : typeof vector;
    throw new LongshipError('INVALID_ARGUMENT', `${what} must be a Float32Array, not ${kind}`);
  }
  if (vector.length !== length) {
    throw new LongshipError('DIMENSION_MISMATCH', `${what} has ${vector.length} numbers, expected ${length}`);
  }
  for (let i = 0; i < length; i++) {
    if (!Number.isFinite(vector[i])) {
      throw new LongshipError('INVALID_ARGUMENT', `${what} has ${vector[i]} at ${i}: numbers must be finite`);
    }
  }
}

/** Also a Float32Array made in another realm (a worker's, a vm context's). */
function isFloat32Array(value: unknown): value is Float32Array {
  return value instanceof Float32Array || Object.prototype.toString.call(value) === '[object Float32Array]';
}

function checkKey(key: number): void {
  if (!Number.isSafeInteger(key) || key < 0) {
    throw new LongshipError('INVALID_ARGUMENT', `keys are integers in 0..2^53-1, not ${key}`);
  }
}

function checkParameter(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 2 || value > 0xffffffff) {
    throw new LongshipError('INVALID_ARGUMENT', `${name} must be an integer in 2..2^32-1, not ${value}`);
  }
}

function align8(offset: number): number {
  return (offset + 7) & ~7;
}

/** Runs `use` with `bytes` of WASM heap (8-byte aligned), freed afterwards whatever happens. */
function withHeap<T>(module: UsearchModule, bytes: number, use: (at: number) => T): T {
  // Pointers past 2 GiB come back negative: malloc returns a signed i32.
  const at = module.exports._malloc(bytes) >>> 0;
  if (!at) throw new LongshipError('OUT_OF_MEMORY', `no room for ${bytes} bytes on the WASM heap`);
  try {
    return use(at);
  } finally {
    module.exports._free(at);
  }
}

/** A trap (out-of-bounds read on corrupt bytes) becomes a typed error instead of a RuntimeError. */
function trap<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) {
      throw new LongshipError('CORRUPT_INDEX', `the serialized index is corrupt (${error.message})`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** Exact distance in f32, the same definitions as the WASM kernels. */
export function distance(metric: Metric, a: Float32Array, b: Float32Array): number {
  let ab = 0;
  let a2 = 0;
  let b2 = 0;
  if (metric === 'l2sq') {
    for (let i = 0; i < a.length; i++) {
      const d = a[i]! - b[i]!;
      ab += d * d;
    }
    return ab;
  }
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    ab += x * y;
    a2 += x * x;
    b2 += y * y;
  }
  if (metric === 'ip') return 1 - ab;
  if (a2 === 0 && b2 === 0) return 0;
  if (a2 === 0 || b2 === 0) return 1;
  return 1 - ab / Math.sqrt(a2 * b2);
}

// An opened index fills its key table on the first lookup (wasm/binding.cpp keys_ready): that can run out of heap.
function keyTableFull(): LongshipError {
  return new LongshipError('OUT_OF_MEMORY', 'out of WASM memory while indexing the keys of an opened index');
}
