import { beforeAll, describe, expect, it } from 'vitest';
import {
  allocateIndexBytes,
  createVectorIndex,
  loadUsearch,
  loadVectorIndex,
  type Quantization,
  type UsearchModule,
  type VectorIndex,
} from '../../src/exports/vector.js';
import { LongshipError } from '../../src/index.js';
import {
  clusteredVectors,
  expectLongshipError,
  seededRandom,
  sequentialKeys,
  type VectorSet,
} from './fixtures.js';

let usearch: UsearchModule;
const dimensions = 24;
const count = 2000;
let data: VectorSet;
let queries: VectorSet;

beforeAll(async () => {
  usearch = await loadUsearch();
  data = clusteredVectors({ count, dimensions, seed: 41 });
  queries = clusteredVectors({ count: 25, dimensions, seed: 42 });
});

function build(quantization: Quantization, removed = 0): VectorIndex {
  const index = createVectorIndex(usearch, { dimensions, quantization, metric: 'l2sq', connectivity: 12 });
  index.addBatch(sequentialKeys(count), data.data);
  for (let key = 0; key < removed; key++) index.remove(key * 7);
  return index;
}

function answers(index: VectorIndex) {
  const allow = sequentialKeys(200).map((key) => key * 3);
  return Array.from({ length: queries.count }, (_, q) => [
    index.search(queries.row(q), 10),
    index.search(queries.row(q), 10, { exact: true }),
    index.search(queries.row(q), 10, { allow }),
    index.search(queries.row(q), 10, { allow, exactBelow: 0 }),
  ]);
}

const heapUsed = () => usearch.exports._longship_heap_used() >>> 0;

describe.each(['f32', 'f16', 'i8'] as Quantization[])('%s: serialize → load and → view', (quantization) => {
  it('give the same answers as the original, removed keys included', () => {
    const original = build(quantization, 100);
    const expected = answers(original);
    const bytes = original.serialize();
    expect(bytes).toBeInstanceOf(Uint8Array);
    for (const view of [false, true]) {
      const loaded = loadVectorIndex(usearch, bytes, { view });
      expect(loaded.readOnly).toBe(view);
      expect(loaded.size).toBe(count - 100);
      expect(loaded.dimensions).toBe(dimensions);
      expect(loaded.metric).toBe('l2sq');
      expect(loaded.quantization).toBe(quantization);
      expect(loaded.connectivity).toBe(12);
      expect(loaded.contains(0)).toBe(false);
      expect(loaded.contains(1)).toBe(true);
      expect(loaded.get(1)).toEqual(original.get(1));
      expect(loaded.memoryUsage).toBeGreaterThan(0);
      expect(answers(loaded)).toEqual(expected);
      // The same bytes again: nothing was lost or added on the way.
      // (Compared as a Buffer: a deep toEqual of 300 KB takes seconds.)
      expect(Buffer.compare(loaded.serialize(), bytes)).toBe(0);
      loaded.dispose();
    }
    original.dispose();
  });
});

describe('serialized indexes', () => {
  it('a view is read-only: add, addBatch, remove and reserve throw READ_ONLY, and nothing changes', () => {
    const original = build('f32', 10);
    const view = loadVectorIndex(usearch, original.serialize(), { view: true });
    const before = answers(view);
    expectLongshipError(() => view.add(count + 1, data.row(0)), 'READ_ONLY');
    expectLongshipError(() => view.addBatch([count + 1, count + 2], data.slice(0, 2).data), 'READ_ONLY');
    // Key 0 was removed in the original: USearch would reuse its slot, writing into the viewed bytes.
    expectLongshipError(() => view.add(0, data.row(0)), 'READ_ONLY');
    expectLongshipError(() => view.remove(1), 'READ_ONLY');
    expectLongshipError(() => view.reserve(count * 2), 'READ_ONLY');
    expect(view.contains(1)).toBe(true);
    expect(view.contains(count + 1)).toBe(false);
    expect(view.size).toBe(count - 10);
    expect(answers(view)).toEqual(before);
    view.changeExpansion({ search: 128 }); // search settings are not writes
    expect(view.search(queries.row(0), 5)).toHaveLength(5);
    view.dispose();
    original.dispose();
  });

  it('a loaded copy is writable and independent of the original and of the bytes', () => {
    const original = build('f32');
    const bytes = original.serialize();
    const copy = loadVectorIndex(usearch, bytes);
    const view = loadVectorIndex(usearch, bytes, { view: true });
    bytes.fill(0); // the caller's bytes were copied into WASM memory
    copy.remove(5);
    copy.add(count + 5, data.row(5));
    expect(copy.search(data.row(5), 1)[0]!.key).toBe(count + 5);
    expect(original.search(data.row(5), 1)[0]!.key).toBe(5);
    expect(view.search(data.row(5), 1)[0]!.key).toBe(5);
    for (const index of [copy, view, original]) index.dispose();
  });

  // Opening leaves the key table out (wasm/patches/lazy-key-lookups.patch): whichever key lookup comes
  // first must fill it, and a size counted before it must already leave the removed keys out.
  it('after opening, the first call of each kind that looks keys up finds them all', () => {
    const original = build('f32', 10);
    const bytes = original.serialize();
    const firstCalls: ((index: VectorIndex) => void)[] = [
      (index) => expect(index.size).toBe(count - 10),
      (index) => expect(index.contains(0)).toBe(false),
      (index) => expect(index.get(1)).toEqual(original.get(1)),
      (index) => expect(index.get(7)).toBeUndefined(),
      (index) =>
        expect(
          index.search(data.row(3), 2, { allow: [3, 7, 8], exactBelow: 10 }).map((hit) => hit.key),
        ).toEqual([3, 8]),
      (index) => expect(index.remove(1)).toBe(true),
      (index) => expect(index.remove(0)).toBe(false),
      (index) => expectLongshipError(() => index.add(1, data.row(1)), 'DUPLICATE_KEY'),
      (index) => index.add(0, data.row(0)),
    ];
    for (const [i, first] of firstCalls.entries()) {
      for (const view of [false, true]) {
        if (view && i >= 5) continue; // writes: a view refuses them before looking at any key
        const opened = loadVectorIndex(usearch, bytes, { view });
        first(opened);
        const removedNow = i === 5 ? 1 : 0;
        const addedNow = i === 8 ? 1 : 0;
        expect(opened.size).toBe(count - 10 - removedNow + addedNow);
        expect(opened.contains(1)).toBe(removedNow === 0);
        expect(opened.contains(0)).toBe(addedNow === 1);
        expect(opened.contains(14)).toBe(false);
        expect(opened.contains(count - 1)).toBe(true);
        opened.dispose();
      }
    }
    original.dispose();
  });

  it('an empty index round-trips, and expansionSearch applies on load', () => {
    const empty = createVectorIndex(usearch, { dimensions: 7, metric: 'ip', quantization: 'f16' });
    for (const view of [false, true]) {
      const loaded = loadVectorIndex(usearch, empty.serialize(), { view });
      expect([loaded.size, loaded.dimensions, loaded.metric, loaded.quantization]).toEqual([
        0,
        7,
        'ip',
        'f16',
      ]);
      expect(loaded.search(new Float32Array(7), 3)).toEqual([]);
      loaded.dispose();
    }
    empty.dispose();
    const original = build('f32');
    const loaded = loadVectorIndex(usearch, original.serialize(), { expansionSearch: 200 });
    expect(loaded.search(queries.row(0), 10)).toEqual(original.search(queries.row(0), 10, { exact: true }));
    expectLongshipError(
      () => loadVectorIndex(usearch, original.serialize(), { expansionSearch: -1 }),
      'INVALID_ARGUMENT',
    );
    loaded.dispose();
    original.dispose();
  });
});

describe('allocateIndexBytes: bytes written in place, then opened', () => {
  it('written in uneven chunks, in any order, they open as load and as view with the same answers', () => {
    const original = build('i8', 50);
    const expected = answers(original);
    const bytes = original.serialize();
    for (const view of [false, true]) {
      const room = allocateIndexBytes(usearch, bytes.length);
      expect(room.length).toBe(bytes.length);
      const starts = [0, 1, 4097, 70_000, bytes.length - 3].filter((at) => at < bytes.length);
      const ends = [...starts.slice(1), bytes.length];
      for (const i of [3, 1, 4, 0, 2].filter((i) => i < starts.length)) {
        room.write(bytes.subarray(starts[i]!, ends[i]!), starts[i]!);
      }
      const index = room.open({ view, expansionSearch: 64 });
      expect(index.readOnly).toBe(view);
      expect(answers(index)).toEqual(expected);
      expect(Buffer.compare(index.serialize(), bytes)).toBe(0);
      // The bytes were consumed by open(): no second index from them, and dispose() is harmless.
      expectLongshipError(() => room.open(), 'DISPOSED');
      expectLongshipError(() => room.write(bytes.subarray(0, 1), 0), 'DISPOSED');
      room.dispose();
      index.dispose();
    }
    original.dispose();
  });

  it('a view made writable is the same index: same answers and expansion, and it takes writes', () => {
    const original = build('i8', 50);
    const expected = answers(original);
    const bytes = original.serialize();
    const room = allocateIndexBytes(usearch, bytes.length);
    room.write(bytes, 0);
    const view = room.open({ view: true });
    // The bytes do not keep the expansions: a loaded index starts from the defaults.
    expect(view.expansion).toEqual({ add: 128, search: 64 });
    view.changeExpansion({ search: 7 });
    expect(view.expansion).toEqual({ add: 128, search: 7 });
    const narrow = answers(view);
    expect(narrow).not.toEqual(expected); // so that the expansion carrying over is seen
    const writable = view.writable();
    expect(writable).toBe(view); // made writable where it lies, not copied
    expect(writable.readOnly).toBe(false);
    expect(writable.expansion).toEqual({ add: 128, search: 7 });
    expect(answers(writable)).toEqual(narrow);
    writable.changeExpansion({ search: 64 });
    expect(answers(writable)).toEqual(expected);
    expect(writable.writable()).toBe(writable);
    // It writes: a new key is found, a removed one is not; key 0's slot (removed in the original) is reused.
    writable.add(count + 1, queries.row(0));
    writable.add(0, data.row(0));
    expect(writable.search(queries.row(0), 1)[0]!.key).toBe(count + 1);
    expect(writable.search(data.row(0), 1)[0]!.key).toBe(0);
    expect(writable.remove(count + 1)).toBe(true);
    expect(writable.contains(count + 1)).toBe(false);
    writable.dispose();
    expectLongshipError(() => view.writable(), 'DISPOSED');
    original.dispose();
  });

  // A loaded index keeps its nodes and vectors in the bytes it was opened from (wasm/patches/writable-view.patch):
  // writes go into them (a reused slot, new links) and beside them (new nodes), and nothing is lost either way.
  it.each(['f32', 'i8'] as Quantization[])(
    '%s: a loaded index rewired by many writes stays whole',
    (quantization) => {
      const original = build(quantization);
      const loaded = loadVectorIndex(usearch, original.serialize());
      original.dispose();
      const memory = loaded.memoryUsage;
      // Remove a third (their slots lie in the bytes and are reused next), then add as many again and a half more.
      for (let key = 0; key < count; key += 3) expect(loaded.remove(key)).toBe(true);
      for (let key = 0; key < count; key += 2) loaded.add(count + key, data.row(key));
      const present = Array.from({ length: count }, (_, key) => key)
        .filter((key) => key % 3 !== 0)
        .concat(Array.from({ length: count / 2 }, (_, i) => count + 2 * i));
      expect(loaded.size).toBe(present.length);
      expect(loaded.memoryUsage).toBeGreaterThan(memory);
      for (const key of [0, 3, 1998]) expect(loaded.contains(key)).toBe(false);
      let found = 0;
      for (let q = 0; q < queries.count; q++) {
        const exact = loaded.search(queries.row(q), 10, { exact: true }).map((hit) => hit.key);
        const approximate = new Set(loaded.search(queries.row(q), 10).map((hit) => hit.key));
        found += exact.filter((key) => approximate.has(key)).length;
        for (const key of approximate) expect(present.includes(key)).toBe(true);
      }
      expect(found / (10 * queries.count)).toBeGreaterThanOrEqual(0.95);
      // Its bytes again, opened afresh, answer as it does.
      const again = loadVectorIndex(usearch, loaded.serialize());
      expect(answers(again)).toEqual(answers(loaded));
      expect(again.size).toBe(present.length);
      for (const index of [loaded, again]) index.dispose();
    },
  );

  it('a write that does not fit, or a bad length, is INVALID_ARGUMENT and leaves the bytes usable', () => {
    const original = build('f32');
    const bytes = original.serialize();
    const room = allocateIndexBytes(usearch, bytes.length);
    expectLongshipError(() => room.write(bytes, 1), 'INVALID_ARGUMENT');
    expectLongshipError(() => room.write(bytes.subarray(0, 2), -1), 'INVALID_ARGUMENT');
    expectLongshipError(() => room.write(bytes.subarray(0, 2), 0.5), 'INVALID_ARGUMENT');
    room.write(bytes, 0);
    const index = room.open({ view: true });
    expect(answers(index)).toEqual(answers(original));
    index.dispose();
    for (const length of [-1, 1.5, Number.NaN]) {
      expectLongshipError(() => allocateIndexBytes(usearch, length), 'INVALID_ARGUMENT');
    }
    // Past 32 bits malloc's size would wrap around to a small block that writes then overrun.
    for (const length of [2 ** 32 - 1, 2 ** 32 + 16]) {
      expectLongshipError(() => allocateIndexBytes(usearch, length), 'OUT_OF_MEMORY');
    }
    original.dispose();
  });

  it('corrupt bytes fail with CORRUPT_INDEX, and neither they nor unopened bytes stay on the heap', () => {
    const original = build('f32');
    const bytes = original.serialize();
    const baseline = heapUsed();
    for (const view of [false, true]) {
      const room = allocateIndexBytes(usearch, bytes.length);
      room.write(bytes, 0);
      room.write(new Uint8Array(40).fill(0xff), layout(bytes).graph); // the graph's header
      expectLongshipError(() => room.open({ view }), 'CORRUPT_INDEX');
      expectLongshipError(() => room.open({ view }), 'DISPOSED');
    }
    allocateIndexBytes(usearch, bytes.length).dispose();
    expect(heapUsed()).toBe(baseline);
    original.dispose();
  });

  it('the heap growing between writes does not lose what was written', () => {
    const original = build('f32');
    const bytes = original.serialize();
    const room = allocateIndexBytes(usearch, bytes.length);
    room.write(bytes.subarray(0, 1000), 0);
    const before = usearch.memory.buffer.byteLength;
    const big = usearch.exports._malloc(before) >>> 0; // forces the heap to grow
    expect(usearch.memory.buffer.byteLength).toBeGreaterThan(before);
    room.write(bytes.subarray(1000), 1000);
    const index = room.open();
    expect(answers(index)).toEqual(answers(original));
    usearch.exports._free(big);
    index.dispose();
    original.dispose();
  });
});

/** Where the parts of a serialized index begin (USearch's format, 32-bit matrix dimensions). */
function layout(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rows = view.getUint32(0, true);
  const columns = view.getUint32(4, true);
  const head = 8 + rows * columns; // magic, version, kinds, counts, dimensions (64 bytes)
  const graph = head + 64; // size, connectivity, connectivity_base, max_level, entry_slot (5 × u64)
  const levels = graph + 40; // one i16 per node
  const nodes = levels + 2 * rows; // key u64, level i16, then per level a u32 count and u32 slots
  return { view, rows, head, graph, levels, nodes };
}

type Corruption = [name: string, corrupt: (bytes: Uint8Array) => Uint8Array];

const corruptions: Corruption[] = [
  ['empty', () => new Uint8Array(0)],
  ['one byte', (b) => b.slice(0, 1)],
  ['truncated to 8 bytes', (b) => b.slice(0, 8)],
  ['truncated inside the vectors', (b) => b.slice(0, layout(b).head - 100)],
  ['truncated inside the header', (b) => b.slice(0, layout(b).head + 30)],
  ['truncated after the header', (b) => b.slice(0, layout(b).graph + 20)],
  ['truncated by half', (b) => b.slice(0, b.length >> 1)],
  ['missing its last byte', (b) => b.slice(0, -1)],
  ['random garbage (1 KB)', () => garbage(1024, 1)],
  ['random garbage (100 KB)', () => garbage(100_000, 2)],
  ['the right vectors and header, then garbage', (b) => splice(b, layout(b).graph, garbage(b.length, 3))],
  ['a wrong magic', (b) => poke(b, (l) => l.view.setUint8(l.head, 0x58))],
  ['a wrong major version', (b) => poke(b, (l) => l.view.setUint16(l.head + 7, 99, true))],
  ['an unknown metric kind', (b) => poke(b, (l) => l.view.setUint8(l.head + 13, 0xee))],
  // These loaded, then trapped in search or read past the vectors before the binding checked them.
  ['an unknown scalar kind', (b) => poke(b, (l) => l.view.setUint8(l.head + 14, 0xee))],
  ['zero dimensions', (b) => poke(b, (l) => l.view.setBigUint64(l.head + 33, 0n, true))],
  ['more dimensions than stored', (b) => poke(b, (l) => l.view.setBigUint64(l.head + 33, 25n, true))],
  ['fewer dimensions than stored', (b) => poke(b, (l) => l.view.setBigUint64(l.head + 33, 8n, true))],
  ['a wrong row count', (b) => poke(b, (l) => l.view.setUint32(0, l.rows + 1, true))],
  ['a wrong graph size', (b) => poke(b, (l) => l.view.setBigUint64(l.graph, BigInt(l.rows - 1), true))],
  ['a max level too high', (b) => poke(b, (l) => l.view.setBigUint64(l.graph + 24, 9n, true))],
  [
    'an entry slot out of range',
    (b) => poke(b, (l) => l.view.setBigUint64(l.graph + 32, BigInt(l.rows + 3), true)),
  ],
  ['a node level out of range', (b) => poke(b, (l) => l.view.setInt16(l.levels, 3000, true))],
  ['a negative node level', (b) => poke(b, (l) => l.view.setInt16(l.levels + 2, -2, true))],
  ['a neighbour out of range', (b) => poke(b, (l) => l.view.setUint32(l.nodes + 14, 0xfffffff0, true))],
  ['a neighbour count past capacity', (b) => poke(b, (l) => l.view.setUint32(l.nodes + 10, 1000, true))],
];

function garbage(length: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  return Uint8Array.from({ length }, () => Math.floor(random() * 256));
}

function poke(bytes: Uint8Array, write: (at: ReturnType<typeof layout>) => void): Uint8Array {
  const copy = bytes.slice();
  write(layout(copy));
  return copy;
}

function splice(bytes: Uint8Array, at: number, rest: Uint8Array): Uint8Array {
  const copy = bytes.slice();
  copy.set(rest.subarray(0, copy.length - at), at);
  return copy;
}

describe('corrupt bytes', () => {
  let serialized: Uint8Array;
  beforeAll(() => {
    const original = build('f32');
    serialized = original.serialize();
    original.dispose();
  });

  it.each(corruptions)('%s: load and view throw CORRUPT_INDEX', (_, corrupt) => {
    const bytes = corrupt(serialized);
    const baseline = heapUsed();
    for (const view of [false, true]) {
      const error = expectLongshipError(() => loadVectorIndex(usearch, bytes, { view }), 'CORRUPT_INDEX');
      expect(error.message).toMatch(/^Could not load the index: /);
    }
    // A failed load frees what it took.
    expect(heapUsed()).toBeLessThanOrEqual(baseline + 1024);
  });

  it('random byte flips: each load either fails with CORRUPT_INDEX or yields an index that searches', () => {
    const original = build('i8', 50);
    const bytes = original.serialize();
    const random = seededRandom(43);
    const outcomes = { corrupt: 0, loaded: 0 };
    for (let trial = 0; trial < 400; trial++) {
      const copy = bytes.slice();
      // Aim half of the flips at the headers and the graph, where structure lives.
      const graphStart = layout(bytes).head;
      for (let flips = 1 + Math.floor(random() * 3); flips > 0; flips--) {
        const from = random() < 0.5 ? graphStart : 0;
        copy[from + Math.floor(random() * (copy.length - from))] = Math.floor(random() * 256);
      }
      let index: VectorIndex;
      try {
        index = loadVectorIndex(usearch, copy, { view: random() < 0.5 });
      } catch (error) {
        expect(error).toBeInstanceOf(LongshipError);
        expect((error as LongshipError).code).toBe('CORRUPT_INDEX');
        outcomes.corrupt++;
        continue;
      }
      outcomes.loaded++;
      for (let q = 0; q < 3; q++) {
        index.search(queries.row(q), 5);
        index.search(queries.row(q), 5, { exact: true });
      }
      index.dispose();
    }
    expect(outcomes.corrupt).toBeGreaterThan(50);
    expect(outcomes.loaded).toBeGreaterThan(50);
    original.dispose();
  });

  it('after all that, the module still creates, fills, searches and serializes indexes', () => {
    for (const [, corrupt] of corruptions) {
      expect(() => loadVectorIndex(usearch, corrupt(serialized))).toThrow(LongshipError);
    }
    const index = createVectorIndex(usearch, { dimensions });
    index.addBatch(sequentialKeys(500), data.slice(0, 500).data);
    expect(index.search(data.row(123), 1)[0]!.key).toBe(123);
    const again = loadVectorIndex(usearch, index.serialize(), { view: true });
    expect(again.search(data.row(321), 1)[0]!.key).toBe(321);
    again.dispose();
    index.dispose();
  });
});
