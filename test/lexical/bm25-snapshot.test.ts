import { describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { ANALYZER_ID } from '../../src/lexical/analyzer.js';
import { createLexicalIndex, loadLexicalIndex } from '../../src/lexical/bm25-index.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/lexical/bm25-snapshot.js';
import { tableLength } from '../../src/lexical/term-dictionary.js';

function expectCorrupt(action: () => unknown, message?: RegExp): void {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('CORRUPT_INDEX');
    if (message) expect((error as LongshipError).message).toMatch(message);
    return;
  }
  expect.fail('expected CORRUPT_INDEX');
}

function sample(): Uint8Array {
  const index = createLexicalIndex({ fieldWeights: { title: 3 } });
  index.add({
    key: 3,
    title: 'Reading files',
    headings: 'fs › sync',
    body: 'readFileSync blocks the thread.',
  });
  index.add({ key: 8, body: 'ERR_INVALID_ARG means an argument was invalid. 東京タワー' });
  index.add({ key: 2 ** 40, body: 'files and more files' });
  index.add({ key: 5, body: '' });
  // Five documents: three bits a slot, so a packed posting can name a slot past them.
  index.add({ key: 13, body: 'zebra' });
  return index.serialize();
}

// The snapshot's trailing checksum (FNV-1a over its little-endian 32-bit words), recomputed after
// an edit, so a test can reach the checks that come after it.
function resealed(bytes: Uint8Array, edit: (view: DataView, bytes: Uint8Array) => void): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  edit(view, copy);
  let hash = 0x811c9dc5;
  for (let i = 0; i < copy.length - 4; i += 4) hash = Math.imul(hash ^ view.getUint32(i, true), 0x01000193);
  view.setUint32(copy.length - 4, hash >>> 0, true);
  return copy;
}

const HEADER_BYTES = 80;
// Where the keys start: after the header and the analyzer id, padded to 8 bytes.
const KEYS_AT = Math.ceil((HEADER_BYTES + ANALYZER_ID.length) / 8) * 8;

describe('Bm25Index snapshots', () => {
  it('packs each posting into one word, and keeps two words a pair when a frequency will not fit', () => {
    const bytes = sample();
    const packed = decodeSnapshot(bytes);
    expect(packed.slotBits).toBe(3);
    expect(packed.postings.length).toBe(packed.offsets.at(-1));
    // The same pairs with one frequency too large for the 29 bits above a slot.
    const pairs = new Uint32Array(2 * packed.postings.length);
    packed.postings.forEach((word, i) => {
      pairs[2 * i] = word & 7;
      pairs[2 * i + 1] = word >>> 3;
    });
    pairs[1] = 2 ** 29;
    const unpacked = decodeSnapshot(encodeSnapshot({ ...packed, postings: pairs, slotBits: 0 }));
    expect(unpacked.slotBits).toBe(0);
    expect([...unpacked.postings]).toEqual([...pairs]);
    // And loaded, both score alike where the frequencies are alike.
    pairs[1] = packed.postings[0]! >>> 3;
    const again = encodeSnapshot({ ...packed, postings: pairs, slotBits: 0 });
    expect([...decodeSnapshot(again).postings]).toEqual([...packed.postings]);
  });

  it('load back an index that answers the same', () => {
    const bytes = sample();
    const index = loadLexicalIndex(bytes);
    expect(index.size).toBe(5);
    expect(index.search('files', { limit: Infinity }).map((hit) => hit.key)).toEqual([2 ** 40, 3]);
    expect(loadLexicalIndex(createLexicalIndex().serialize()).size).toBe(0);
  });

  it('refuses every truncation', () => {
    const bytes = sample();
    for (let length = 0; length < bytes.length; length++)
      expectCorrupt(() => loadLexicalIndex(bytes.subarray(0, length)));
    const longer = new Uint8Array(bytes.length + 4);
    longer.set(bytes);
    expectCorrupt(() => loadLexicalIndex(longer));
  });

  it('refuses a flip of any bit of any byte', () => {
    const bytes = sample();
    for (let at = 0; at < bytes.length; at++) {
      for (const bit of [0x01, 0x80]) {
        const flipped = bytes.slice();
        flipped[at]! ^= bit;
        expectCorrupt(() => loadLexicalIndex(flipped));
      }
    }
  });

  it('refuses another analyzer, another version, and what is not a snapshot', () => {
    const bytes = sample();
    const otherAnalyzer = resealed(bytes, (_, copy) => {
      copy[HEADER_BYTES + ANALYZER_ID.length - 1]! ^= 0x03;
    });
    expectCorrupt(() => loadLexicalIndex(otherAnalyzer), /analysed by/);
    // Format 1 (terms without their hash table) reads as corrupt: the store rebuilds the index.
    expectCorrupt(() => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(8, 1, true))), /version 1/);
    // Format 2 (two words a pair) too.
    expectCorrupt(() => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(8, 2, true))), /version 2/);
    expectCorrupt(() => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(8, 4, true))), /version 4/);
    expectCorrupt(() => loadLexicalIndex(new TextEncoder().encode('{"format":"longship-lexical"}')));
    expectCorrupt(() => loadLexicalIndex({ format: 'longship-lexical' } as unknown as Uint8Array));
    expectCorrupt(() => loadLexicalIndex('snapshot' as unknown as Uint8Array));
  });

  it('reads a format 1 snapshot (its terms without a hash table) as CORRUPT_INDEX, for the store to rebuild', () => {
    // Written by format 1's serialize(): 'Reading files' / 'readFileSync blocks the thread.' and 'files and more files'.
    const format1 = Buffer.from(
      'TFNCTTI1RgoBAAAAAgAAAAcAAAAIAAAAFAAAAC0AAAAzMzMzMzPzPwAAAAAAAOg/AAAAAAAAAEAAAAAAAAD4PwAAAAAAAPA/bG9uZ3NoaXAtZW4tcG9ydGVyLTEAAAAAAAAAAAAACEAAAAAAAAAgQAAAAAAAACxAAAAAAAAAGEAAAAAAAQAAAAMAAAAEAAAABQAAAAYAAAAHAAAACAAAAAAAAAAGAAAAAAAAAAYAAAABAAAABAAAAAAAAAACAAAAAAAAAAIAAAAAAAAAAgAAAAAAAAACAAAAAQAAAAIAAAByZWFkAGZpbGUAcmVhZGZpbGVzeW5jAHN5bmMAYmxvY2sAdGhyZWFkAG1vcmUAAAAChahU',
      'base64',
    );
    expectCorrupt(() => loadLexicalIndex(new Uint8Array(format1)), /format version 1, not 3/);
  });

  it('skips its own checksum and the per-posting checks for bytes a store has verified, and no more', () => {
    const bytes = sample();
    const header = new DataView(bytes.buffer);
    const postings = KEYS_AT + 10 * 8 + (header.getUint32(16, true) + 1) * 4;
    // A posting's frequency changed, the checksum left stale: only the checks skipped would see it.
    const changed = bytes.slice();
    new DataView(changed.buffer).setUint32(postings, header.getUint32(postings, true) + 8, true);
    expectCorrupt(() => loadLexicalIndex(changed), /checksum/);
    expect(loadLexicalIndex(changed, { verified: true }).size).toBe(5);
    // Its header and sections are still checked.
    expectCorrupt(() => loadLexicalIndex(bytes.subarray(0, bytes.length - 4), { verified: true }));
    expectCorrupt(() =>
      loadLexicalIndex(
        resealed(bytes, (view) => view.setUint32(8, 2, true)),
        { verified: true },
      ),
    );
  });

  it('refuses inconsistent contents even under a valid checksum', () => {
    const bytes = sample();
    const keys = KEYS_AT;
    // Settings out of range.
    expectCorrupt(
      () => loadLexicalIndex(resealed(bytes, (view) => view.setFloat64(40, 2, true))),
      /settings/,
    );
    // A key that is not a whole number, and a key listed twice.
    expectCorrupt(() => loadLexicalIndex(resealed(bytes, (view) => view.setFloat64(keys, 1.5, true))));
    expectCorrupt(() =>
      loadLexicalIndex(
        resealed(bytes, (view) => view.setFloat64(keys + 8, view.getFloat64(keys, true), true)),
      ),
    );
    // A negative length.
    expectCorrupt(() => loadLexicalIndex(resealed(bytes, (view) => view.setFloat64(keys + 5 * 8, -1, true))));
    // Packed postings (frequency above three bits of slot): one past the documents, one with
    // frequency 0, one out of order.
    const header = new DataView(bytes.buffer);
    expect(header.getUint32(72, true)).toBe(3);
    const postings = keys + 10 * 8 + (header.getUint32(16, true) + 1) * 4;
    const firstPosting = header.getUint32(postings, true);
    expectCorrupt(
      () => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(postings, (1 << 3) | 6, true))),
      /postings/,
    );
    expectCorrupt(
      () => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(postings, firstPosting & 7, true))),
      /postings/,
    );
    // A term's second posting made a copy of its first.
    const { offsets } = decodeSnapshot(bytes);
    const long = offsets.findIndex((offset, t) => offsets[t + 1]! - offset >= 2);
    const secondPosting = postings + 4 * (offsets[long]! + 1);
    expectCorrupt(
      () =>
        loadLexicalIndex(
          resealed(bytes, (view) =>
            view.setUint32(secondPosting, view.getUint32(secondPosting - 4, true), true),
          ),
        ),
      /postings/,
    );
    // A slot layout it cannot read.
    expectCorrupt(
      () => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(72, 30, true))),
      /posting layout/,
    );
    // The terms: where they start, their hash table, their bytes.
    const termCount = header.getUint32(16, true);
    const starts = postings + header.getUint32(20, true) * 4;
    const table = starts + (termCount + 1) * 4;
    const tableEntries = tableLength(termCount);
    const text = table + tableEntries * 4;
    const start = (t: number) => header.getUint32(starts + 4 * t, true);
    // A NUL inside a term, and a term's NUL replaced.
    expectCorrupt(
      () => loadLexicalIndex(resealed(bytes, (_, copy) => (copy[text] = 0))),
      /term 0 holds a NUL/,
    );
    expectCorrupt(
      () => loadLexicalIndex(resealed(bytes, (_, copy) => (copy[text + start(1) - 1] = 0x61))),
      /term 0 is empty or unterminated/,
    );
    expectCorrupt(
      () => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(starts, 1, true))),
      /their extent/,
    );
    // The table: an id past the last, an id dropped, two ids swapped.
    const entries = Array.from({ length: tableEntries }, (_, i) => header.getUint32(table + 4 * i, true));
    const filled = entries.flatMap((id, i) => (id === 0 ? [] : [i]));
    expectCorrupt(
      () =>
        loadLexicalIndex(
          resealed(bytes, (view) => view.setUint32(table + 4 * filled[0]!, termCount + 1, true)),
        ),
      /past the last/,
    );
    expectCorrupt(
      () => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(table + 4 * filled[0]!, 0, true))),
      /every term once/,
    );
    // Two terms whose places in the table differ (not one probe chain): swapped, each is lost.
    const [a, b] = [filled[0]!, filled.find((i) => i > filled[0]! + 1 && entries[i - 1] === 0)!];
    expectCorrupt(
      () =>
        loadLexicalIndex(
          resealed(bytes, (view) => {
            view.setUint32(table + 4 * a, entries[b]!, true);
            view.setUint32(table + 4 * b, entries[a]!, true);
          }),
        ),
      /not where the table puts it/,
    );
    // A term listed twice: one term's bytes copied over another's of the same length.
    const lengthOf = (t: number) => start(t + 1) - start(t);
    const twin = (t: number) =>
      Array.from({ length: termCount }, (_, u) => u).find((u) => u !== t && lengthOf(u) === lengthOf(t));
    const first = Array.from({ length: termCount }, (_, t) => t).find((t) => twin(t) !== undefined)!;
    const second = twin(first)!;
    const duplicated = resealed(bytes, (_, copy) =>
      copy.copyWithin(text + start(second), text + start(first), text + start(first + 1)),
    );
    // The table still puts the copy where the original's hash was: rehash it there to reach the check.
    expectCorrupt(() => loadLexicalIndex(duplicated), /listed twice|not where the table puts it/);
  });
});
