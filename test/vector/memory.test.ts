import { beforeAll, describe, expect, it } from 'vitest';
import {
  createVectorIndex,
  loadUsearch,
  loadVectorIndex,
  type UsearchModule,
} from '../../src/exports/vector.js';
import { LongshipError } from '../../src/index.js';
import { clusteredVectors, sequentialKeys, type VectorSet } from './fixtures.js';

// The heap never shrinks, but what is freed is reused: after the same work is undone, the bytes
// in use (mallinfo's uordblks) must come back to where they were.
const heapUsed = (usearch: UsearchModule) => usearch.exports._longship_heap_used() >>> 0;
const slackBytes = 64 * 1024;

let usearch: UsearchModule;
let data: VectorSet;
const dimensions = 16;

beforeAll(async () => {
  usearch = await loadUsearch();
  data = clusteredVectors({ count: 32, dimensions, seed: 51 });
});

function cycle(i: number): void {
  const quantization = (['f32', 'f16', 'i8'] as const)[i % 3]!;
  const index = createVectorIndex(usearch, { dimensions, quantization });
  index.addBatch(sequentialKeys(24), data.slice(0, 24).data);
  index.add(100 + i, data.row(30));
  const query = data.row(i % 32);
  index.search(query, 5);
  index.search(query, 5, { exact: true });
  index.search(query, 5, { allow: [1, 2, 3, 4] });
  index.search(query, 5, { allow: [1, 2, 3, 4], exactBelow: 0 });
  index.search(query, 5, { rescore: { vectors: (key) => data.row(key % 32) } });
  index.get(3);
  index.remove(4);
  if (i % 10 === 0) {
    const bytes = index.serialize();
    loadVectorIndex(usearch, bytes).dispose();
    loadVectorIndex(usearch, bytes, { view: true }).dispose();
  }
  index.dispose();
}

function failingCycle(i: number, corrupt: Uint8Array): void {
  const index = createVectorIndex(usearch, { dimensions });
  index.add(1, data.row(1));
  const attempts = [
    () => index.add(1, data.row(2)), // DUPLICATE_KEY, from inside WASM
    () => index.addBatch([2, 3, 2], data.slice(0, 3).data), // part of a batch, then DUPLICATE_KEY
    () => index.add(5, new Float32Array(dimensions + 1)), // DIMENSION_MISMATCH
    () => index.search(data.row(0), -1), // INVALID_ARGUMENT
    () => loadVectorIndex(usearch, corrupt, { view: i % 2 === 0 }), // CORRUPT_INDEX after the copy in
  ];
  for (const attempt of attempts) expect(attempt).toThrow(LongshipError);
  const view = loadVectorIndex(usearch, index.serialize(), { view: true });
  expect(() => view.add(9, data.row(9))).toThrow(LongshipError); // READ_ONLY
  view.dispose();
  index.dispose();
}

describe('WASM heap', () => {
  it('1,000 create / add / search / serialize / dispose cycles come back to the baseline', () => {
    for (let i = 0; i < 20; i++) cycle(i); // warm up: first-time allocations of the allocator itself
    const baseline = heapUsed(usearch);
    for (let i = 0; i < 1000; i++) cycle(i);
    const after = heapUsed(usearch);
    expect(after).toBeLessThanOrEqual(baseline + slackBytes);
    // And the memory did not simply move out of sight: the heap itself stopped growing.
    const heapBytes = usearch.memory.buffer.byteLength;
    for (let i = 0; i < 200; i++) cycle(i);
    expect(usearch.memory.buffer.byteLength).toBe(heapBytes);
  });

  it('1,000 cycles of failing calls leak nothing either', () => {
    const source = createVectorIndex(usearch, { dimensions });
    source.addBatch(sequentialKeys(32), data.data);
    const corrupt = source.serialize().slice(0, -10);
    source.dispose();
    for (let i = 0; i < 20; i++) failingCycle(i, corrupt);
    const baseline = heapUsed(usearch);
    for (let i = 0; i < 1000; i++) failingCycle(i, corrupt);
    expect(heapUsed(usearch)).toBeLessThanOrEqual(baseline + slackBytes);
  });

  it('a disposed index gives back its vectors: 5k vectors’ worth of heap, returned', () => {
    const baseline = heapUsed(usearch);
    const big = clusteredVectors({ count: 5000, dimensions, seed: 52 });
    const index = createVectorIndex(usearch, { dimensions });
    index.addBatch(sequentialKeys(5000), big.data);
    expect(heapUsed(usearch) - baseline).toBeGreaterThan(5000 * dimensions * 4);
    expect(index.memoryUsage).toBeGreaterThan(5000 * dimensions * 4);
    index.dispose();
    expect(heapUsed(usearch)).toBeLessThanOrEqual(baseline + slackBytes);
  });

  it('works with a heap past 2 GiB, where WASM pointers look negative to JS', async () => {
    // A module of its own: this one's heap stays at 2+ GiB (of address space, not resident memory).
    const high = await loadUsearch();
    // Take all the memory below 2 GiB, big pieces first, so that every later allocation, small
    // ones too, lands above it (malloc returns those as negative i32s).
    const fill: number[] = [];
    for (const size of [2 ** 28, 2 ** 20, 2 ** 12, 16]) {
      for (;;) {
        const pointer = high.exports._malloc(size);
        expect(pointer).not.toBe(0);
        fill.push(pointer);
        if (pointer < 0) break;
      }
    }
    expect(high.memory.buffer.byteLength).toBeGreaterThan(2 ** 31);
    const vectors = clusteredVectors({ count: 2000, dimensions, seed: 53 });
    const index = createVectorIndex(high, { dimensions });
    index.addBatch(sequentialKeys(2000), vectors.data);
    expect(index.memoryUsage).toBeGreaterThan(0);
    const bytes = index.serialize();
    // Big allocations (the serialized copy, the graph) now come from above 2 GiB.
    for (const view of [false, true]) {
      const loaded = loadVectorIndex(high, bytes, { view });
      expect(loaded.search(vectors.row(1234), 1)[0]!.key).toBe(1234);
      expect(loaded.search(vectors.row(99), 1, { allow: [99, 100] })[0]!.key).toBe(99);
      expect(loaded.get(7)).toEqual(index.get(7));
      loaded.dispose();
    }
    expect(index.search(vectors.row(5), 1)[0]!.key).toBe(5);
    index.dispose();
    for (const pointer of fill) high.exports._free(pointer);
  });
});
