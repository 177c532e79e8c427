// The sink the derived indexes read a snapshot into (here BM25's): where the store can read it again,
// it keeps all but the section that can wait, which the reader then reads through the store's ranges.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LazySnapshotSink } from '../../src/derived/lazy-snapshot-sink.js';
import { createLexicalIndex, loadLexicalIndex } from '../../src/lexical/bm25-index.js';
import { postingsSection } from '../../src/lexical/bm25-snapshot.js';
import type { SnapshotRanges } from '../../src/store/change-log.js';

function snapshotOf(count: number): Uint8Array {
  const index = createLexicalIndex();
  for (let key = 0; key < count; key++)
    index.add({ key, body: `river ${key % 5 ? 'stone' : 'reed'} item${key}` });
  return index.serialize();
}

/** Writes the snapshot into the sink in pieces cut at `cuts` (sorted offsets), as a store would. */
function writeInPieces(sink: LazySnapshotSink, bytes: Uint8Array, cuts: readonly number[]): void {
  const ends = [...cuts.filter((cut) => cut > 0 && cut < bytes.length), bytes.length];
  let offset = 0;
  for (const end of ends) {
    if (end <= offset) continue;
    sink.write(bytes.subarray(offset, end), offset);
    offset = end;
  }
}

function rangesOf(bytes: Uint8Array) {
  const counts = { reads: 0, closes: 0 };
  const ranges: SnapshotRanges = {
    read(into, at) {
      counts.reads++;
      into.set(bytes.subarray(at, at + into.length));
    },
    close: () => {
      counts.closes++;
    },
  };
  return { ranges, counts };
}

describe('LazySnapshotSink', () => {
  it('where the store can read again, keeps every byte but the postings, however the pieces fall', () => {
    const bytes = snapshotOf(400);
    const section = postingsSection(bytes, bytes.length)!;
    expect(section.end).toBeGreaterThan(section.start);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 200, max: bytes.length }), { maxLength: 6 }), (cuts) => {
        const sink = new LazySnapshotSink(bytes.length, postingsSection);
        writeInPieces(
          sink,
          bytes,
          [...cuts].sort((a, b) => a - b),
        );
        // Buffer comparisons: toEqual walks typed arrays element by element, slowly.
        const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;
        expect(same(sink.bytes.subarray(0, section.start), bytes.subarray(0, section.start))).toBe(true);
        expect(same(sink.bytes.subarray(section.end), bytes.subarray(section.end))).toBe(true);
        expect(sink.bytes.subarray(section.start, section.end).every((byte) => byte === 0)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('hands the index the ranges it adopted, and lets them go once, when the index is done or disposed', () => {
    const bytes = snapshotOf(200);
    const sink = new LazySnapshotSink(bytes.length, postingsSection);
    writeInPieces(sink, bytes, [4096]);
    const { ranges, counts } = rangesOf(bytes);
    sink.adopt(ranges);
    const index = loadLexicalIndex(sink.bytes, { verified: true, postings: sink.unread() });
    expect(index.search('reed', { limit: 50 })).toEqual(
      loadLexicalIndex(bytes).search('reed', { limit: 50 }),
    );
    expect(counts).toEqual({ reads: 1, closes: 0 });
    index.remove(3);
    expect(counts.closes).toBe(1);
    sink.dispose();
    expect(counts.closes).toBe(1);
  });

  it('keeps everything, and closes the ranges at once, where it cannot read again or the bytes are not a BM25 snapshot', () => {
    const bytes = snapshotOf(50);
    const plain = new LazySnapshotSink(bytes.length, undefined);
    writeInPieces(plain, bytes, [100]);
    expect(plain.bytes).toEqual(bytes);
    expect(plain.unread()).toBeUndefined();

    const other = new Uint8Array(bytes.length).fill(7);
    const sink = new LazySnapshotSink(other.length, postingsSection);
    writeInPieces(sink, other, []);
    expect(sink.bytes).toEqual(other);
    const { ranges, counts } = rangesOf(other);
    sink.adopt(ranges);
    expect(counts.closes).toBe(1);
    expect(sink.unread()).toBeUndefined();
  });
});
