import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { createLexicalIndex, loadLexicalIndex } from '../../src/lexical/bm25-index.js';
import type { LexicalDoc, LexicalHit, LexicalIndex } from '../../src/lexical/lexical-index.js';

function indexOf(
  docs: readonly LexicalDoc[],
  options?: Parameters<typeof createLexicalIndex>[0],
): LexicalIndex {
  const index = createLexicalIndex(options);
  for (const doc of docs) index.add(doc);
  return index;
}

const keys = (hits: readonly LexicalHit[]) => hits.map((hit) => hit.key);

function expectCode(action: () => unknown, code: string): void {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe(code);
    return;
  }
  expect.fail(`expected ${code}`);
}

// Classic BM25 with Lucene's idf, written out independently of the index.
function bm25(tf: number, n: number, N: number, length: number, averageLength: number): number {
  const k1 = 1.2;
  const b = 0.75;
  const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
  return (idf * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * length) / averageLength));
}

const distractors: LexicalDoc[] = [
  { key: 1, body: 'To read a file synchronously, call the sync variant; reading files blocks the thread.' },
  { key: 2, body: 'readFile reads a file asynchronously. fs.readFile takes a callback.' },
  { key: 3, body: 'ERR_INVALID_ARG_TYPE is thrown when an argument has the wrong type.' },
  { key: 4, body: 'Invalid arguments raise an error; the error code names the argument.' },
  { key: 5, body: 'Error E12345 and E123 are unrelated to this one.' },
  { key: 6, body: 'Use fs.readFileSync(path) to read the whole file at once.' },
  { key: 7, body: 'ERR_INVALID_ARG means an argument was invalid.' },
  { key: 8, body: 'The compiler reported E1234 on line 3.' },
];

describe('Bm25Index', () => {
  it('returns every match unsorted on request, the same hits as sorted, and only with no limit', () => {
    const index = createLexicalIndex();
    for (let key = 1; key <= 40; key++) {
      index.add({ key, body: `${'river '.repeat(key % 7)}bank ${key % 3 === 0 ? 'flood' : 'dry'}` });
    }
    const all = { limit: Number.POSITIVE_INFINITY, allow: (key: number) => key !== 5 };
    const sorted = index.search('river flood', all);
    const unsorted = index.search('river flood', { ...all, sorted: false });
    expect(unsorted).not.toEqual(sorted);
    expect([...unsorted].sort((a, b) => b.score - a.score || a.key - b.key)).toEqual(sorted);
    expect(() => index.search('river', { limit: 10, sorted: false })).toThrow(LongshipError);
  });

  it('ranks an exact identifier match first among distractors', () => {
    const index = indexOf(distractors);
    expect(keys(index.search('readFileSync'))[0]).toBe(6);
    expect(keys(index.search('fs.readFileSync'))[0]).toBe(6);
    expect(keys(index.search('ERR_INVALID_ARG'))[0]).toBe(7);
    expect(keys(index.search('E1234'))[0]).toBe(8);
    expect(keys(index.search('ERR_INVALID_ARG_TYPE'))[0]).toBe(3);
  });

  it('finds an identifier from its words, and words inside an identifier', () => {
    const index = indexOf(distractors);
    expect(keys(index.search('read file sync'))).toContain(6);
    expect(keys(index.search('invalid arg'))).toEqual(expect.arrayContaining([3, 7]));
  });

  it('matches inflected forms through stemming', () => {
    const index = indexOf([
      { key: 1, body: 'She runs every morning.' },
      { key: 2, body: 'A quiet afternoon.' },
    ]);
    expect(keys(index.search('running'))).toEqual([1]);
    expect(keys(index.search('run'))).toEqual([1]);
  });

  it('ignores stopwords in queries and documents', () => {
    const index = indexOf([
      { key: 1, body: 'the cat' },
      { key: 2, body: 'a dog' },
    ]);
    expect(index.search('the of and')).toEqual([]);
    expect(index.search('the cat')).toEqual(index.search('cat'));
    expect(index.search('cat')).toHaveLength(1);
  });

  it('weighs a title match above a body match of the same term', () => {
    const index = indexOf([
      { key: 1, title: 'gardening', body: 'soil water light' },
      { key: 2, title: 'light', body: 'soil water gardening' },
    ]);
    expect(keys(index.search('gardening'))).toEqual([1, 2]);
    expect(keys(index.search('light'))).toEqual([2, 1]);
  });

  it('weighs headings between title and body by default', () => {
    const index = indexOf([
      { key: 1, headings: 'compost', body: 'leaves worms' },
      { key: 2, title: 'compost', body: 'leaves worms' },
      { key: 3, body: 'compost leaves worms' },
    ]);
    expect(keys(index.search('compost'))).toEqual([2, 1, 3]);
  });

  it('scores classic BM25 (d = 0, no coordination factor) on a three-document corpus', () => {
    // Lengths count the terms left after stopwords: 3, 5 and 2 (the first doc's "the" and the
    // third's "and" do not count), so the average is 10 / 3.
    const index = indexOf([
      { key: 1, body: 'the banana apple cherry' },
      { key: 2, body: 'banana banana kiwi mango melon' },
      { key: 3, body: 'kiwi and plum' },
    ]);
    const average = 10 / 3;
    const banana = index.search('banana');
    expect(keys(banana)).toEqual([2, 1]);
    expect(banana[0]!.score).toBeCloseTo(bm25(2, 2, 3, 5, average), 12);
    expect(banana[1]!.score).toBeCloseTo(bm25(1, 2, 3, 3, average), 12);

    const both = new Map(index.search('banana kiwi').map((hit) => [hit.key, hit.score]));
    expect(both.get(2)).toBeCloseTo(bm25(2, 2, 3, 5, average) + bm25(1, 2, 3, 5, average), 12);
    expect(both.get(3)).toBeCloseTo(bm25(1, 2, 3, 2, average), 12);
    expect(both.get(1)).toBeCloseTo(bm25(1, 2, 3, 3, average), 12);
  });

  it('scores fields as BM25F: a weighted term counts w times, in a length weighted the same way', () => {
    // Title weight 2: doc 1 has tf 2 and length 2·1 + 2 = 4; doc 2 has tf 1 and length 3.
    const index = indexOf([
      { key: 1, title: 'banana', body: 'apple cherry' },
      { key: 2, body: 'banana kiwi plum' },
      { key: 3, headings: 'kiwi', body: 'plum' },
    ]);
    const average = (4 + 3 + (1.5 + 1)) / 3;
    const hits = index.search('banana');
    expect(hits[0]!.score).toBeCloseTo(bm25(2, 2, 3, 4, average), 12);
    expect(hits[1]!.score).toBeCloseTo(bm25(1, 2, 3, 3, average), 12);
    const kiwi = new Map(index.search('kiwi').map((hit) => [hit.key, hit.score]));
    expect(kiwi.get(3)).toBeCloseTo(bm25(1.5, 2, 3, 2.5, average), 12);
  });

  it('honours k1, b and field weights given as options', () => {
    const index = indexOf(
      [
        { key: 1, body: 'banana banana kiwi' },
        { key: 2, body: 'kiwi plum' },
      ],
      { k1: 2, b: 0, fieldWeights: { body: 1 } },
    );
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    expect(index.search('banana')[0]!.score).toBeCloseTo((idf * 2 * 3) / (2 + 2), 12);
    const titleless = indexOf([{ key: 1, title: 'kiwi', body: 'plum' }], { fieldWeights: { title: 0 } });
    expect(titleless.search('kiwi')).toEqual([]);
  });

  it('adds, replaces, removes and counts documents', () => {
    const index = createLexicalIndex();
    expect(index.size).toBe(0);
    index.add({ key: 1, body: 'alpha beta' });
    index.add({ key: 2, body: 'beta gamma' });
    expect(index.size).toBe(2);
    expect(index.has(1)).toBe(true);
    expectCode(() => index.add({ key: 1, body: 'again' }), 'DUPLICATE_KEY');

    index.replace({ key: 1, body: 'delta' });
    expect(index.size).toBe(2);
    expect(keys(index.search('alpha'))).toEqual([]);
    expect(keys(index.search('delta'))).toEqual([1]);
    index.replace({ key: 3, body: 'delta' });
    expect(index.size).toBe(3);

    expect(index.remove(2)).toBe(true);
    expect(index.remove(2)).toBe(false);
    expect(index.has(2)).toBe(false);
    expect(index.size).toBe(2);
    expect(keys(index.search('beta gamma'))).toEqual([]);
    index.add({ key: 2, body: 'gamma' });
    expect(keys(index.search('gamma'))).toEqual([2]);
  });

  it('scores after removals exactly as an index built without the removed documents', () => {
    const docs = distractors.map((doc) => ({ ...doc }));
    const index = indexOf(docs);
    for (const key of [1, 4, 5]) index.remove(key);
    const fresh = indexOf(docs.filter((doc) => ![1, 4, 5].includes(doc.key)));
    for (const query of ['read file', 'error argument', 'E1234 line']) {
      const got = index.search(query, { limit: Infinity });
      const want = fresh.search(query, { limit: Infinity });
      expect(keys(got)).toEqual(keys(want));
      got.forEach((hit, i) => {
        expect(hit.score).toBeCloseTo(want[i]!.score, 9);
      });
    }
  });

  it('restricts results to allowed keys, as a set or a predicate', () => {
    const index = indexOf(distractors);
    expect(keys(index.search('file', { allow: new Set([2, 6]), limit: Infinity })).sort()).toEqual([2, 6]);
    expect(keys(index.search('file', { allow: (key) => key === 1 }))).toEqual([1]);
    expect(index.search('file', { allow: new Set() })).toEqual([]);
    const all = index.search('file', { limit: Infinity });
    const allowed = index.search('file', { allow: new Set([6]) });
    expect(allowed[0]!.score).toBe(all.find((hit) => hit.key === 6)!.score);
  });

  it('returns at most limit hits, best first', () => {
    const index = indexOf(distractors);
    const all = index.search('file error argument', { limit: Infinity });
    expect(all.length).toBeGreaterThan(3);
    expect(index.search('file error argument', { limit: 3 })).toEqual(all.slice(0, 3));
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score).toBeGreaterThanOrEqual(all[i]!.score);
    expect(index.search('file', { limit: 0 })).toEqual([]);
    expectCode(() => index.search('file', { limit: -1 }), 'INVALID_ARGUMENT');
  });

  it('matches prefixes and typos only when asked', () => {
    const index = indexOf([{ key: 1, body: 'kubectl' }]);
    expect(index.search('kube')).toEqual([]);
    expect(keys(index.search('kube', { prefix: true }))).toEqual([1]);
    expect(index.search('kubctl')).toEqual([]);
    expect(keys(index.search('kubctl', { fuzzy: 1 }))).toEqual([1]);
  });

  it('round-trips through serialize with identical results and scores', () => {
    const index = indexOf(distractors, { fieldWeights: { title: 3 } });
    index.add({ key: 9, title: 'Reading files', headings: 'fs › sync', body: 'readFileSync blocks.' });
    index.remove(2);
    const bytes = index.serialize();
    const copy = loadLexicalIndex(bytes);
    const unchanged = bytes.slice();
    expect(copy.size).toBe(index.size);
    expect(copy.has(2)).toBe(false);
    for (const query of ['readFileSync', 'read file', 'ERR_INVALID_ARG', 'error E1234', 'sync']) {
      expect(copy.search(query, { limit: Infinity })).toEqual(index.search(query, { limit: Infinity }));
    }
    copy.add({ key: 2, body: 'back again' });
    expect(keys(copy.search('again'))).toEqual([2]);
    // Growing a loaded posting list past its snapshot size keeps the old entries.
    copy.add({ key: 10, body: 'synchronously again' });
    expect(keys(copy.search('synchronously', { limit: Infinity }))).toEqual([10, 1]);
    // Postings are read from the snapshot in place, never written there.
    expect(bytes).toEqual(unchanged);
  });

  it('reads a snapshot from any offset of a larger buffer', () => {
    const index = indexOf(distractors);
    const bytes = index.serialize();
    const framed = new Uint8Array(bytes.length + 3);
    framed.set(bytes, 3);
    const copy = loadLexicalIndex(framed.subarray(3));
    expect(copy.search('file error', { limit: Infinity })).toEqual(
      index.search('file error', { limit: Infinity }),
    );
  });

  it('removes documents exactly after a load', () => {
    const index = indexOf(distractors);
    const copy = loadLexicalIndex(index.serialize());
    copy.remove(6);
    copy.remove(7);
    const fresh = indexOf(distractors.filter((doc) => doc.key !== 6 && doc.key !== 7));
    for (const query of ['readFileSync', 'ERR_INVALID_ARG', 'file error']) {
      const got = copy.search(query, { limit: Infinity });
      const want = fresh.search(query, { limit: Infinity });
      expect(keys(got)).toEqual(keys(want));
      got.forEach((hit, i) => {
        expect(hit.score).toBeCloseTo(want[i]!.score, 9);
      });
    }
  });

  it('keeps field weights from the snapshot and lets load change k1 and b', () => {
    const index = indexOf(
      [
        { key: 1, title: 'kiwi', body: 'plum' },
        { key: 2, body: 'kiwi plum plum' },
      ],
      {
        fieldWeights: { title: 4 },
      },
    );
    const loaded = loadLexicalIndex(index.serialize(), { b: 0 });
    const rebuilt = indexOf(
      [
        { key: 1, title: 'kiwi', body: 'plum' },
        { key: 2, body: 'kiwi plum plum' },
      ],
      {
        fieldWeights: { title: 4 },
        b: 0,
      },
    );
    expect(loaded.search('kiwi')).toEqual(rebuilt.search('kiwi'));
  });

  it('refuses invalid keys, documents and options with INVALID_ARGUMENT', () => {
    const index = createLexicalIndex();
    expectCode(() => index.add({ key: -1, body: 'x' }), 'INVALID_ARGUMENT');
    expectCode(() => index.add({ key: 1.5, body: 'x' }), 'INVALID_ARGUMENT');
    expectCode(() => index.add({ key: 1, body: 42 as unknown as string }), 'INVALID_ARGUMENT');
    expectCode(() => createLexicalIndex({ k1: -1 }), 'INVALID_ARGUMENT');
    expectCode(() => createLexicalIndex({ b: 2 }), 'INVALID_ARGUMENT');
    expectCode(() => createLexicalIndex({ fieldWeights: { title: Math.PI } }), 'INVALID_ARGUMENT');
    expectCode(
      () => createLexicalIndex({ fieldWeights: { title: 0, headings: 0, body: 0 } }),
      'INVALID_ARGUMENT',
    );
  });

  it('indexes empty documents and answers empty queries', () => {
    const index = indexOf([
      { key: 1, body: '' },
      { key: 2, body: 'the' },
    ]);
    expect(index.size).toBe(2);
    expect(index.search('')).toEqual([]);
    expect(index.search('anything')).toEqual([]);
  });
});

describe('Bm25Index under random edits', () => {
  const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'zeta', 'readFileSync'];
  const text = fc.array(fc.constantFrom(...vocabulary), { maxLength: 6 }).map((words) => words.join(' '));
  const operation = fc.oneof(
    fc.record({ op: fc.constant('add' as const), key: fc.nat(12), title: text, body: text }),
    fc.record({ op: fc.constant('remove' as const), key: fc.nat(12) }),
  );

  type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

  /** Applies a step to the index and to `model`, what the index should then hold. */
  function apply(index: LexicalIndex, model: Map<number, LexicalDoc>, step: Operation): void {
    if (step.op === 'add') {
      const doc = { key: step.key, title: step.title, body: step.body };
      index.replace(doc);
      model.set(step.key, doc);
    } else {
      expect(index.remove(step.key)).toBe(model.delete(step.key));
    }
  }

  /** The index finds exactly the model's matches, scores them as a fresh index would, and reloads the same. */
  function expectHolds(index: LexicalIndex, model: Map<number, LexicalDoc>): void {
    expect(index.size).toBe(model.size);
    const fresh = indexOf([...model.values()]);
    const reloaded = loadLexicalIndex(index.serialize());
    for (const word of [...vocabulary, 'read']) {
      const hits = index.search(word, { limit: Infinity });
      const expected = [...model.values()]
        .filter((doc) => `${doc.title} ${doc.body}`.includes(word === 'read' ? 'readFileSync' : word))
        .map((doc) => doc.key);
      expect(keys(hits).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
      const want = new Map(fresh.search(word, { limit: Infinity }).map((hit) => [hit.key, hit.score]));
      for (const hit of hits) expect(hit.score).toBeCloseTo(want.get(hit.key)!, 9);
      expect(reloaded.search(word, { limit: Infinity })).toEqual(hits);
    }
  }

  it('returns only present keys, keeps size, and scores like a fresh index and a reloaded one', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
        const index = createLexicalIndex();
        const model = new Map<number, LexicalDoc>();
        for (const step of operations) apply(index, model, step);
        expectHolds(index, model);
      }),
      { numRuns: 200 },
    );
  });

  it('edited after a load (new pairs beside the loaded lists), agrees with a fresh index and reloads', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 30 }),
        fc.array(operation, { maxLength: 30 }),
        (before, after) => {
          const model = new Map<number, LexicalDoc>();
          const first = createLexicalIndex();
          for (const step of before) apply(first, model, step);
          const index = loadLexicalIndex(first.serialize());
          for (const step of after) apply(index, model, step);
          expectHolds(index, model);
        },
      ),
      { numRuns: 200 },
    );
  });
});
