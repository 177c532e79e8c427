// A BM25 index loaded without its postings (LexicalLoadOptions.postings) reads each term's list
// when first needed: it must answer, change and serialize exactly as one loaded whole.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { createLexicalIndex, loadLexicalIndex } from '../../src/lexical/bm25-index.js';
import { postingsSection } from '../../src/lexical/bm25-snapshot.js';
import type { LexicalDoc, LexicalIndex, UnreadPostingsSource } from '../../src/lexical/lexical-index.js';

const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'zeta', 'readFileSync', 'river', 'stone'];

/** The snapshot with its postings left unwritten, and a source that reads them from the whole. */
function unread(snapshot: Uint8Array) {
  const section = postingsSection(snapshot, snapshot.length)!;
  const bytes = snapshot.slice();
  bytes.fill(0, section.start, section.end);
  const reads: { at: number; length: number }[] = [];
  let done = 0;
  let failing = false;
  const source: UnreadPostingsSource = {
    read(into, at) {
      if (failing) throw new LongshipError('STORE_ERROR', 'the file is gone');
      expect(done).toBe(0);
      expect(at).toBeGreaterThanOrEqual(section.start);
      expect(at + into.length).toBeLessThanOrEqual(section.end);
      reads.push({ at, length: into.length });
      into.set(snapshot.subarray(at, at + into.length));
    },
    done: () => done++,
  };
  const index = loadLexicalIndex(bytes, { verified: true, postings: source });
  return {
    index,
    section,
    reads,
    bytesRead: () => reads.reduce((sum, read) => sum + read.length, 0),
    done: () => done,
    fail: (on: boolean) => {
      failing = on;
    },
  };
}

function corpus(count: number): LexicalDoc[] {
  const docs: LexicalDoc[] = [];
  for (let key = 0; key < count; key++) {
    const words = vocabulary.filter((_, i) => (key * 7 + i * 3) % (i + 2) === 0);
    docs.push({ key, title: vocabulary[key % vocabulary.length], body: `${words.join(' ')} item${key}` });
  }
  return docs;
}

function indexOf(docs: readonly LexicalDoc[]): LexicalIndex {
  const index = createLexicalIndex();
  for (const doc of docs) index.add(doc);
  return index;
}

describe('a BM25 index loaded without its postings', () => {
  it('answers as one loaded whole, reading only the lists its searches need, each once', () => {
    const snapshot = indexOf(corpus(300)).serialize();
    const whole = loadLexicalIndex(snapshot);
    const lazy = unread(snapshot);
    expect(lazy.bytesRead()).toBe(0);

    expect(lazy.index.search('item7', { limit: 5 })).toEqual(whole.search('item7', { limit: 5 }));
    expect(lazy.reads.length).toBeGreaterThan(0);
    expect(lazy.bytesRead()).toBeLessThan((lazy.section.end - lazy.section.start) / 2);
    const queries = ['river stone', 'alpha', 'readfilesync gamma', 'item12 item250 omega'];
    for (const query of queries) {
      expect(lazy.index.search(query, { limit: Infinity })).toEqual(whole.search(query, { limit: Infinity }));
    }
    const after = lazy.reads.length;
    for (const query of queries) lazy.index.search(query);
    expect(lazy.reads.length).toBe(after);
    // Prefix and fuzzy matches read the lists of the terms they expand to.
    expect(lazy.index.search('ite', { prefix: true, limit: 20 })).toEqual(
      whole.search('ite', { prefix: true, limit: 20 }),
    );
    expect(lazy.index.search('rivr', { fuzzy: 1, limit: 20 })).toEqual(
      whole.search('rivr', { fuzzy: 1, limit: 20 }),
    );
    expect(lazy.bytesRead()).toBeLessThan(lazy.section.end - lazy.section.start);
    // No list was read twice.
    expect(new Set(lazy.reads.map((read) => read.at)).size).toBe(lazy.reads.length);
    expect(lazy.done()).toBe(0);
  });

  it('reads every list left, neighbours in one read, at its first removal, then lets the source go', () => {
    const docs = corpus(200);
    const snapshot = indexOf(docs).serialize();
    const lazy = unread(snapshot);
    lazy.index.search('alpha beta');
    expect(lazy.index.remove(3)).toBe(true);
    expect(lazy.done()).toBe(1);
    expect(lazy.bytesRead()).toBe(lazy.section.end - lazy.section.start);
    // The lists read before split what was left into at most three runs.
    expect(lazy.reads.length).toBeLessThanOrEqual(2 + 3);

    const expected = indexOf(docs.filter((doc) => doc.key !== 3));
    for (const word of [...vocabulary, 'item3', 'item4']) {
      const hits = lazy.index.search(word, { limit: Infinity });
      const want = expected.search(word, { limit: Infinity });
      expect(hits.map((h) => h.key)).toEqual(want.map((h) => h.key));
      hits.forEach((hit, i) => {
        expect(hit.score).toBeCloseTo(want[i]!.score, 9);
      });
    }
  });

  it('serializes as the index loaded whole does, reading the lists first', () => {
    const snapshot = indexOf(corpus(120)).serialize();
    const lazy = unread(snapshot);
    lazy.index.search('gamma');
    expect(lazy.index.serialize()).toEqual(loadLexicalIndex(snapshot).serialize());
    expect(lazy.done()).toBe(1);
  });

  it("throws the source's error when a list cannot be read, and reads it on a later search", () => {
    const snapshot = indexOf(corpus(50)).serialize();
    const whole = loadLexicalIndex(snapshot);
    const lazy = unread(snapshot);
    lazy.fail(true);
    expect(() => lazy.index.search('delta')).toThrow(expect.objectContaining({ code: 'STORE_ERROR' }));
    expect(() => lazy.index.remove(1)).toThrow(expect.objectContaining({ code: 'STORE_ERROR' }));
    // Nothing was changed by the failed removal.
    expect(lazy.index.has(1)).toBe(true);
    lazy.fail(false);
    expect(lazy.index.search('delta', { limit: Infinity })).toEqual(
      whole.search('delta', { limit: Infinity }),
    );
    expect(lazy.index.remove(1)).toBe(true);
    expect(lazy.done()).toBe(1);
  });

  it('is refused for bytes that are not verified', () => {
    const snapshot = indexOf(corpus(10)).serialize();
    expect(() =>
      loadLexicalIndex(snapshot, { postings: { read: () => undefined, done: () => undefined } }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('under random edits, agrees with an index loaded whole that was given the same edits', () => {
    const text = fc.array(fc.constantFrom(...vocabulary), { maxLength: 6 }).map((words) => words.join(' '));
    const operation = fc.oneof(
      fc.record({ op: fc.constant('add' as const), key: fc.nat(30), title: text, body: text }),
      fc.record({ op: fc.constant('remove' as const), key: fc.nat(30) }),
      fc.record({ op: fc.constant('search' as const), query: text, prefix: fc.boolean() }),
    );
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 30 }),
        fc.array(operation, { maxLength: 30 }),
        (before, after) => {
          const first = createLexicalIndex();
          for (const step of before) {
            if (step.op === 'add') first.replace({ key: step.key, title: step.title, body: step.body });
            else if (step.op === 'remove') first.remove(step.key);
          }
          const snapshot = first.serialize();
          const whole = loadLexicalIndex(snapshot);
          const lazy = unread(snapshot).index;
          for (const step of after) {
            if (step.op === 'add') {
              const doc = { key: step.key, title: step.title, body: step.body };
              lazy.replace(doc);
              whole.replace(doc);
            } else if (step.op === 'remove') {
              expect(lazy.remove(step.key)).toBe(whole.remove(step.key));
            } else {
              const options = { limit: Infinity, prefix: step.prefix };
              expect(lazy.search(step.query, options)).toEqual(whole.search(step.query, options));
            }
          }
          expect(lazy.size).toBe(whole.size);
          for (const word of vocabulary) {
            expect(lazy.search(word, { limit: Infinity })).toEqual(whole.search(word, { limit: Infinity }));
          }
          expect(lazy.serialize()).toEqual(whole.serialize());
        },
      ),
      { numRuns: 200 },
    );
  });
});
