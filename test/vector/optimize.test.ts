// VectorIndex.optimize(): the index laid out anew in graph order (src/vector/graph-order.ts) is the same
// index: same keys, same vectors, same answers, and it still takes writes.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createVectorIndex,
  loadUsearch,
  loadVectorIndex,
  type Metric,
  type Quantization,
  type UsearchModule,
  type VectorIndex,
} from '../../src/exports/vector.js';
import { graphOrder } from '../../src/vector/graph-order.js';
import { clusteredVectors, expectLongshipError, sequentialKeys, type VectorSet } from './fixtures.js';

let usearch: UsearchModule;
const dimensions = 24;
const count = 3000;
let data: VectorSet;
let queries: VectorSet;

beforeAll(async () => {
  usearch = await loadUsearch();
  data = clusteredVectors({ count, dimensions, seed: 51 });
  queries = clusteredVectors({ count: 30, dimensions, seed: 52 });
});

function build(quantization: Quantization, metric: Metric): VectorIndex {
  const index = createVectorIndex(usearch, { dimensions, quantization, metric, connectivity: 12 });
  index.addBatch(sequentialKeys(count), data.data);
  for (let key = 0; key < count; key += 11) index.remove(key);
  index.changeExpansion({ search: 40 });
  return index;
}

function answers(index: VectorIndex) {
  const allow = sequentialKeys(300).map((key) => key * 7);
  return Array.from({ length: queries.count }, (_, q) => [
    index.search(queries.row(q), 10),
    index.search(queries.row(q), 10, { exact: true }),
    index.search(queries.row(q), 10, { allow }),
    index.search(queries.row(q), 10, { allow, exactBelow: 0 }),
  ]);
}

/** The serialized graph's entry slot (see graph-order.ts for the layout). */
function entrySlot(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const graphAt = 8 + view.getUint32(0, true) * view.getUint32(4, true) + 64;
  return Number(view.getBigUint64(graphAt + 32, true));
}

const heapUsed = () => usearch.exports._longship_heap_used() >>> 0;

describe.each([
  ['f32', 'cos'],
  ['f16', 'l2sq'],
  ['i8', 'cos'],
  ['f32', 'ip'],
] as [Quantization, Metric][])('%s %s: optimize()', (quantization, metric) => {
  it('keeps every key, vector and answer, the expansions, and renumbers the slots from the entry point', () => {
    const index = build(quantization, metric);
    const before = answers(index);
    const bytes = index.serialize();
    const vectors = Array.from(sequentialKeys(count), (key) => index.get(key));
    index.optimize();
    expect(index.size).toBe(count - Math.ceil(count / 11));
    expect(index.expansion).toEqual({ add: 128, search: 40 });
    expect(answers(index)).toEqual(before);
    expect(Array.from(sequentialKeys(count), (key) => index.get(key))).toEqual(vectors);
    for (let key = 0; key < count; key += 11) expect(index.contains(key)).toBe(false);
    // The entry point is now slot 0, and the bytes say the same index in another order.
    const ordered = index.serialize();
    expect(entrySlot(ordered)).toBe(0);
    expect(Buffer.compare(ordered, bytes)).not.toBe(0);
    expect(ordered.byteLength).toBe(bytes.byteLength);
    const reloaded = loadVectorIndex(usearch, ordered);
    reloaded.changeExpansion({ search: 40 });
    expect(answers(reloaded)).toEqual(before);
    for (const i of [index, reloaded]) i.dispose();
  });
});

describe('optimize()', () => {
  it('leaves an index that takes writes: a new key is found, a removed one is not, a freed slot is reused', () => {
    const index = build('f32', 'cos');
    index.optimize();
    index.add(count + 1, queries.row(0));
    index.add(0, data.row(0)); // key 0 was removed: its slot is reused
    expect(index.search(queries.row(0), 1)[0]!.key).toBe(count + 1);
    expect(index.search(data.row(0), 1)[0]!.key).toBe(0);
    expect(index.remove(5)).toBe(true);
    expect(index.search(data.row(5), 10).map((hit) => hit.key)).not.toContain(5);
    index.optimize(); // again, after writes
    expect(index.search(queries.row(0), 1)[0]!.key).toBe(count + 1);
    expect(index.contains(5)).toBe(false);
    index.dispose();
  });

  it('keeps a view read-only, and a disposed index refuses it', () => {
    const original = build('i8', 'cos');
    const view = loadVectorIndex(usearch, original.serialize(), { view: true });
    const before = answers(view);
    view.optimize();
    expect(view.readOnly).toBe(true);
    expect(answers(view)).toEqual(before);
    expectLongshipError(() => view.add(count + 1, data.row(1)), 'READ_ONLY');
    view.dispose();
    expectLongshipError(() => view.optimize(), 'DISPOSED');
    original.dispose();
  });

  it('optimizes an empty index and one of a single vector', () => {
    const empty = createVectorIndex(usearch, { dimensions });
    empty.optimize();
    expect(empty.size).toBe(0);
    empty.add(1, data.row(1));
    empty.optimize();
    expect(empty.search(data.row(1), 1)).toEqual([{ key: 1, distance: expect.closeTo(0, 5) }]);
    empty.dispose();
  });

  it('frees what it replaced: the heap in use comes back after optimize and dispose', () => {
    const baseline = heapUsed();
    for (let round = 0; round < 5; round++) {
      const index = build('f32', 'l2sq');
      index.optimize();
      index.dispose();
    }
    expect(heapUsed()).toBe(baseline);
  });

  it('refuses bytes that are not an index with CORRUPT_INDEX', () => {
    const index = build('f32', 'cos');
    const bytes = index.serialize();
    index.dispose();
    expectLongshipError(() => graphOrder(bytes.subarray(0, bytes.length - 1)), 'CORRUPT_INDEX');
    expectLongshipError(() => graphOrder(bytes.subarray(0, 100)), 'CORRUPT_INDEX');
  });
});
