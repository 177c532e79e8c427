// BM25 with a corpus's statistics: a part of a corpus scored with the whole's statistics scores
// every document exactly as one index of the whole corpus does, whether the parts are documents an
// `allow` admits in one index or indexes of their own (the shards of a corpus).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { createLexicalIndex } from '../../src/lexical/bm25-index.js';
import type { CorpusStatistics, LexicalDoc, LexicalIndex } from '../../src/lexical/lexical-index.js';

const WORDS = ['glacier', 'fjord', 'coral', 'reef', 'valley', 'warm', 'cold', 'sea', 'ice', 'sand'];

const docArbitrary = (key: number) =>
  fc
    .record({
      title: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
      body: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }),
    })
    .map(({ title, body }): LexicalDoc => ({ key, body: body.join(' '), title: title.join(' ') }));

const corpusArbitrary = fc
  .integer({ min: 2, max: 24 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => docArbitrary(i + 1))));

function indexOf(docs: readonly LexicalDoc[]): LexicalIndex {
  const index = createLexicalIndex();
  for (const doc of docs) index.add(doc);
  return index;
}

function sum(parts: readonly CorpusStatistics[]): CorpusStatistics {
  const terms: Record<string, number> = {};
  for (const part of parts)
    for (const [term, df] of Object.entries(part.terms)) terms[term] = (terms[term] ?? 0) + df;
  return {
    documents: parts.reduce((total, part) => total + part.documents, 0),
    length: parts.reduce((total, part) => total + part.length, 0),
    terms,
  };
}

const everything = () => true;
const queryArbitrary = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 })
  .map((w) => w.join(' '));
const all = { limit: Number.POSITIVE_INFINITY } as const;

describe('BM25 with a corpus’s statistics', () => {
  it('scores a set of shards exactly as one index of their union', () => {
    fc.assert(
      fc.property(corpusArbitrary, queryArbitrary, fc.integer({ min: 2, max: 4 }), (docs, query, count) => {
        const whole = indexOf(docs);
        const shards = Array.from({ length: count }, (_, i) =>
          indexOf(docs.filter((doc) => doc.key % count === i)),
        );
        const statistics = sum(shards.map((shard) => shard.statistics!(query, everything)));
        expect(statistics).toEqual(whole.statistics!(query, everything));
        const merged = shards
          .flatMap((shard) => shard.search(query, { ...all, statistics }))
          .sort((a, b) => b.score - a.score || a.key - b.key);
        // Exactly: the same integers go into the same arithmetic.
        expect(merged).toEqual(whole.search(query, all));
      }),
    );
  });

  it('scores the documents an allow admits as an index of them alone', () => {
    fc.assert(
      fc.property(corpusArbitrary, queryArbitrary, (docs, query) => {
        const index = indexOf(docs);
        const allow = (key: number) => key % 3 !== 0;
        const statistics = index.statistics!(query, allow);
        expect(index.search(query, { ...all, allow, statistics })).toEqual(
          indexOf(docs.filter((doc) => allow(doc.key))).search(query, all),
        );
      }),
    );
  });

  it('counts only live documents, and takes given totals as they are', () => {
    const index = indexOf([
      { key: 1, body: 'cold ice' },
      { key: 2, body: 'cold sea' },
      { key: 3, body: 'warm sand' },
    ]);
    index.remove(2);
    const statistics = index.statistics!('cold sea', everything);
    expect(statistics.documents).toBe(2);
    expect(statistics.terms).toEqual({ cold: 1 });
    expect(index.statistics!('cold', everything, { documents: 7, length: 70 })).toMatchObject({
      documents: 7,
      length: 70,
    });
  });

  it('refuses statistics with prefix or fuzzy matching', () => {
    const index = indexOf([{ key: 1, body: 'glacier' }]);
    const statistics = index.statistics!('glac', everything);
    for (const extra of [{ prefix: true }, { fuzzy: 1 }]) {
      let error: unknown;
      try {
        index.search('glac', { ...extra, statistics });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(LongshipError);
      expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
    }
  });
});
