import { describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { ANALYZER_ID } from '../../src/lexical/analyzer.js';
import { createLexicalIndex, loadLexicalIndex } from '../../src/lexical/bm25-index.js';

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

const HEADER_BYTES = 72;
// Where the keys start: after the header and the analyzer id, padded to 8 bytes.
const KEYS_AT = Math.ceil((HEADER_BYTES + ANALYZER_ID.length) / 8) * 8;

describe('Bm25Index snapshots', () => {
  it('load back an index that answers the same', () => {
    const bytes = sample();
    const index = loadLexicalIndex(bytes);
    expect(index.size).toBe(4);
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
    expectCorrupt(() => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(8, 2, true))), /version 2/);
    expectCorrupt(() => loadLexicalIndex(new TextEncoder().encode('{"format":"longship-lexical"}')));
    expectCorrupt(() => loadLexicalIndex({ format: 'longship-lexical' } as unknown as Uint8Array));
    expectCorrupt(() => loadLexicalIndex('snapshot' as unknown as Uint8Array));
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
    expectCorrupt(() => loadLexicalIndex(resealed(bytes, (view) => view.setFloat64(keys + 4 * 8, -1, true))));
    // A posting that points past the documents, one with frequency 0, one out of order.
    const postings = keys + 8 * 8 + (new DataView(bytes.buffer).getUint32(16, true) + 1) * 4;
    expectCorrupt(
      () => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(postings, 99, true))),
      /postings/,
    );
    expectCorrupt(
      () => loadLexicalIndex(resealed(bytes, (view) => view.setUint32(postings + 4, 0, true))),
      /postings/,
    );
    // The term list with a separator too many.
    const termBytes = new DataView(bytes.buffer).getUint32(28, true);
    const termsEnd = postings + new DataView(bytes.buffer).getUint32(20, true) * 8 + termBytes;
    expectCorrupt(
      () =>
        loadLexicalIndex(
          resealed(bytes, (_, copy) => {
            copy[termsEnd - 1] = 0;
          }),
        ),
      /terms/,
    );
  });
});
