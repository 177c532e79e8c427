// The BM25F index must rank exactly as the MiniSearch-based index it replaced (kept under bench/ as
// the reference): same analyzer, same BM25F, same scores, through adds, replaces and removes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMiniSearchIndex } from '../../bench/lexical/minisearch-index.js';
import { createLexicalIndex, loadLexicalIndex } from '../../src/lexical/bm25-index.js';
import type { LexicalHit, LexicalIndex, LexicalIndexOptions } from '../../src/lexical/lexical-index.js';

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'running',
  'runs',
  'runner',
  'the',
  'of',
  'readFileSync',
  'fs.readFile',
  'ERR_INVALID_ARG',
  'E1234',
  'v1.2.3',
  'IL-6',
  "user's",
  'café',
  '東京タワー',
  'file',
  'files',
  'sync',
  'read',
  'error',
  'x',
];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(' '));
const optionalText = fc.option(text, { nil: undefined });
const options: fc.Arbitrary<LexicalIndexOptions> = fc.record({
  k1: fc.constantFrom(0, 0.9, 1.2, 2),
  b: fc.constantFrom(0, 0.4, 0.75, 1),
  fieldWeights: fc.record({
    title: fc.constantFrom(0, 0.5, 1, 2, 2.35, 8),
    headings: fc.constantFrom(0, 1, 1.5, 3),
    body: fc.constantFrom(0.05, 1, 1.25),
  }),
});
const operation = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('put' as const),
      key: fc.nat(40),
      title: optionalText,
      headings: optionalText,
      body: text,
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('remove' as const), key: fc.nat(40) }) },
);
const query = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 })
  .map((words) => words.join(' '));

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));

function expectSameScores(got: readonly LexicalHit[], want: readonly LexicalHit[]): void {
  expect(got.map((hit) => hit.key).sort((a, b) => a - b)).toEqual(
    want.map((hit) => hit.key).sort((a, b) => a - b),
  );
  const wanted = new Map(want.map((hit) => [hit.key, hit.score]));
  for (const hit of got) expect(close(hit.score, wanted.get(hit.key)!), `key ${hit.key}`).toBe(true);
  // The same ranking: position by position the scores agree, so only exact ties can swap keys.
  got.forEach((hit, i) => {
    expect(close(hit.score, want[i]!.score), `rank ${i}`).toBe(true);
  });
}

describe('Bm25Index against the MiniSearch index it replaced', () => {
  it('scores every query as MiniSearch does, after any adds, replaces and removes', () => {
    fc.assert(
      fc.property(
        options,
        fc.array(operation, { maxLength: 300 }),
        fc.array(query, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(40), { maxLength: 10 }),
        fc.array(operation, { maxLength: 100 }),
        (settings, operations, queries, allowed, later) => {
          const bm25 = createLexicalIndex(settings);
          const reference = createMiniSearchIndex(settings);
          for (const step of operations) {
            if (step.op === 'put') {
              const doc = { key: step.key, title: step.title, headings: step.headings, body: step.body };
              bm25.replace(doc);
              reference.replace(doc);
            } else {
              expect(bm25.remove(step.key)).toBe(reference.remove(step.key));
            }
          }
          expect(bm25.size).toBe(reference.size);
          const reloaded = loadLexicalIndex(bm25.serialize());
          const allow = new Set(allowed);
          for (const q of queries) {
            expect(reloaded.search(q, { limit: Infinity })).toEqual(bm25.search(q, { limit: Infinity }));
            const want = reference.search(q, { limit: Infinity });
            expectSameScores(bm25.search(q, { limit: Infinity }), want);
            // The best 3 are the first 3 of all (the reference may order keys whose scores differ
            // by a rounding error the other way, so only their scores are compared with it).
            const top = bm25.search(q, { limit: 3 });
            expect(top).toEqual(bm25.search(q, { limit: Infinity }).slice(0, 3));
            top.forEach((hit, i) => {
              expect(close(hit.score, want[i]!.score)).toBe(true);
            });
            expectSameScores(
              bm25.search(q, { limit: Infinity, allow }),
              reference.search(q, { limit: Infinity, allow }),
            );
          }
          // A loaded index keeps changing exactly (its forward index is derived on the first removal).
          for (const step of later) {
            if (step.op === 'put') {
              const doc = { key: step.key, title: step.title, headings: step.headings, body: step.body };
              reloaded.replace(doc);
              reference.replace(doc);
            } else {
              expect(reloaded.remove(step.key)).toBe(reference.remove(step.key));
            }
          }
          expect(reloaded.size).toBe(reference.size);
          for (const q of queries) {
            expectSameScores(
              reloaded.search(q, { limit: Infinity }),
              reference.search(q, { limit: Infinity }),
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('compacts removed documents away without changing a score', () => {
    const bm25 = createLexicalIndex();
    const reference = createMiniSearchIndex();
    const doc = (key: number, round: number) => ({
      key,
      title: WORDS[(key * 7 + round) % WORDS.length],
      body: Array.from(
        { length: 1 + (key % 9) },
        (_, i) => WORDS[(key * 3 + i * 5 + round) % WORDS.length],
      ).join(' '),
    });
    const both = (action: (index: LexicalIndex) => void) => {
      action(bm25);
      action(reference);
    };
    for (let key = 0; key < 400; key++) both((index) => index.add(doc(key, 0)));
    // Enough replaces and removes to pass the compaction threshold several times.
    for (let round = 1; round <= 3; round++) {
      for (let key = round; key < 400; key += 3) both((index) => index.replace(doc(key, round)));
      for (let key = round * 50; key < round * 50 + 60; key++) both((index) => index.remove(key));
      for (const q of ['alpha file', 'readFileSync error', 'running runner sync', 'E1234 café']) {
        expectSameScores(bm25.search(q, { limit: Infinity }), reference.search(q, { limit: Infinity }));
      }
    }
    expect(bm25.size).toBe(reference.size);
  });
});
