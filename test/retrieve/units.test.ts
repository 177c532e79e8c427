import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blendHotness, categoryOf, hotnessOf } from '../../src/retrieve/results.js';
import { identifiersIn } from '../../src/retrieve/retriever.js';
import { createFuser, type FusionReference, ranksOf } from '../../src/retrieve/score/fusion.js';
import { PriorityQueue } from '../../src/retrieve/walk/priority-queue.js';
import type { NodeRecord } from '../../src/store/store.js';

const reference: FusionReference = {
  lexical: [10, 5, 2],
  vector: [0.9, 0.5, 0.1],
  lexicalRank: ranksOf([1, 2, 3]),
  vectorRank: ranksOf([3, 2, 1]),
};
const base = { lexicalWeight: 0.8, useVector: true, useLexical: true, rrfK: 60 };

describe('fusion', () => {
  it('minmax: BM25 over the best, similarity between the reference bounds, blended', () => {
    const fuser = createFuser({ ...base, method: 'minmax' }, reference);
    expect(fuser.fuse(1, { lexical: 10, vector: 0.1 })).toBeCloseTo(0.8, 6);
    expect(fuser.fuse(3, { lexical: 0, vector: 0.9 })).toBeCloseTo(0.2, 6);
    expect(fuser.fuse(2, { lexical: 5, vector: 0.5 })).toBeCloseTo(0.8 * 0.5 + 0.2 * 0.5, 6);
    // Outside the reference: clamped.
    expect(fuser.fuse(9, { lexical: 20, vector: 0.95 })).toBeCloseTo(1, 6);
    expect(fuser.fuse(9, { lexical: 0, vector: -0.3 })).toBe(0);
    expect(fuser.fuse(9, { lexical: 0, vector: undefined })).toBe(0);
    expect(fuser.describe()).toEqual({
      method: 'minmax',
      lexicalWeight: 0.8,
      lexical: [0, 10],
      vector: [0.1, 0.9],
    });
  });

  it('one side off gives the other all the weight', () => {
    const lexical = createFuser({ ...base, method: 'minmax', useVector: false }, reference);
    expect(lexical.fuse(1, { lexical: 5, vector: 0.9 })).toBeCloseTo(0.5, 6);
    const vector = createFuser({ ...base, method: 'minmax', useLexical: false }, reference);
    expect(vector.fuse(1, { lexical: 10, vector: 0.5 })).toBeCloseTo(0.5, 6);
  });

  it('rrf: reciprocal global ranks, rank 1 scaled to 1', () => {
    const fuser = createFuser({ ...base, method: 'rrf', lexicalWeight: 0.5 }, reference);
    expect(fuser.fuse(1, { lexical: 10, vector: 0.1 })).toBeCloseTo(0.5 + 0.5 * (61 / 63), 6);
    expect(fuser.fuse(7, { lexical: 1, vector: 0.2 })).toBe(0);
  });

  it('zscore: squashed into (0, 1), monotone, a BM25 non-match adds nothing', () => {
    const fuser = createFuser({ ...base, method: 'zscore' }, reference);
    const scores = [0, 2, 5, 10, 20].map((lexical) => fuser.fuse(1, { lexical, vector: undefined }));
    expect(scores[0]).toBe(0);
    for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeGreaterThan(scores[i - 1]!);
    expect(Math.max(...scores)).toBeLessThan(1);
  });

  it('keeps every fused score in [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('minmax', 'zscore', 'rrf') as fc.Arbitrary<'minmax' | 'zscore' | 'rrf'>,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
        fc.integer({ min: 0, max: 5 }),
        (method, lexicalWeight, lexical, vector, key) => {
          const score = createFuser({ ...base, method, lexicalWeight }, reference).fuse(key, {
            lexical,
            vector,
          });
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(1 + 1e-12);
        },
      ),
    );
  });
});

describe('identifiersIn', () => {
  it.each([
    ['What does ERR_QUOTA_EXCEEDED mean?', ['ERR_QUOTA_EXCEEDED']],
    ['how do I call fs.readFileSync', ['fs.readFileSync']],
    ['readFileSync throws', ['readFileSync']],
    ['std::vector growth', ['std::vector']],
    ['HTTP404 after deploy', ['HTTP404']],
    ['What does Rule 11.2.1 require?', ['11.2.1']],
    ['what changed in the 1990s on the 2nd floor', []],
    ['How do retries work?', []],
  ])('%s', (query, expected) => {
    expect(identifiersIn(query)).toEqual(expected);
  });
});

describe('hotness', () => {
  const day = 86_400_000;
  const now = Date.UTC(2025, 0, 10);
  it('is (n / (n + 1)) · exp(−ln 2 · age / half-life)', () => {
    expect(hotnessOf({ useCount: 0, updatedAt: now }, now)).toBe(0);
    expect(hotnessOf({ useCount: 1, updatedAt: now }, now)).toBeCloseTo(0.5, 9);
    expect(hotnessOf({ useCount: 3, updatedAt: now, lastUsedAt: now - 7 * day }, now)).toBeCloseTo(0.375, 9);
    expect(hotnessOf({ useCount: 3, updatedAt: now - 14 * day }, now, 14)).toBeCloseTo(0.375, 9);
    // A clock behind the node counts as age 0.
    expect(hotnessOf({ useCount: 1, updatedAt: now + day }, now)).toBeCloseTo(0.5, 9);
  });
  it('blends', () => {
    expect(blendHotness(0.6, 0.2, 0.25)).toBeCloseTo(0.5, 9);
    expect(blendHotness(0.6, 0.2, 0)).toBe(0.6);
  });
});

describe('PriorityQueue', () => {
  it('pops by descending priority, ties by URI', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ uri: fc.string(), priority: fc.integer({ min: -5, max: 5 }) })),
        (entries) => {
          const queue = new PriorityQueue();
          for (const entry of entries) queue.push(entry);
          const popped = [];
          for (let e = queue.pop(); e; e = queue.pop()) popped.push(e);
          expect(popped).toHaveLength(entries.length);
          const expected = [...entries].sort(
            (a, b) => b.priority - a.priority || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0),
          );
          expect(popped.map((e) => [e.priority, e.uri])).toEqual(expected.map((e) => [e.priority, e.uri]));
        },
      ),
    );
  });
});

describe('categoryOf', () => {
  const node = (uri: string, meta: Record<string, unknown> = {}) =>
    ({ uri, contextType: uri.includes('/memories') ? 'memory' : 'resource', meta }) as NodeRecord;
  it('names the memory category, or meta.category', () => {
    expect(categoryOf(node('viking://user/default/memories/events/trip.md'))).toBe('events');
    expect(categoryOf(node('viking://user/default/memories/profile'))).toBe('profile');
    expect(categoryOf(node('viking://agent/default/memories/lessons/x'))).toBe('lessons');
    expect(categoryOf(node('viking://resources/a'))).toBe('');
    expect(categoryOf(node('viking://resources/a', { category: 'howto' }))).toBe('howto');
  });
});
