// The tuning and reporting halves of a benchmark's questions (bench/lib/halves.ts) and how bench:rag
// groups its datasets (bench/rag/halves.ts).
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hash32, splitHalves } from '../../bench/lib/halves.js';
import { loadDataset } from '../../bench/rag/dataset.js';
import { companyOf, groupingOf, halfByQuestion, ragHalves } from '../../bench/rag/halves.js';

interface Item {
  id: number;
  group: string;
}

/** Items in groups of the given sizes, interleaved so that no group's items are adjacent. */
function itemsOf(sizes: readonly number[]): Item[] {
  const items: Item[] = [];
  for (let round = 0; round < Math.max(0, ...sizes); round++) {
    sizes.forEach((size, g) => {
      if (round < size) items.push({ id: items.length, group: `group-${g}` });
    });
  }
  return items;
}

const byGroup = (item: Item) => item.group;
const sizesArb = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 60 });

describe('splitHalves', () => {
  it('puts each item in exactly one half, and each group whole in one half', () => {
    fc.assert(
      fc.property(sizesArb, fc.integer(), (sizes, seed) => {
        const items = itemsOf(sizes);
        const split = splitHalves(items, byGroup, seed);
        const ids = [...split.tuning.items, ...split.reporting.items]
          .map((item) => item.id)
          .sort((a, b) => a - b);
        expect(ids).toEqual(items.map((item) => item.id));
        for (const half of ['tuning', 'reporting'] as const) {
          const groups = new Set(split[half].items.map(byGroup));
          expect([...groups].sort()).toEqual(split[half].groups);
          for (const group of groups) expect(split.halfOf.get(group)).toBe(half);
        }
        expect(split.tuning.groups.filter((group) => split.reporting.groups.includes(group))).toEqual([]);
      }),
    );
  });

  it('is as balanced as the groups allow: the halves differ by at most the largest group', () => {
    fc.assert(
      fc.property(sizesArb, fc.integer(), (sizes, seed) => {
        const split = splitHalves(itemsOf(sizes), byGroup, seed);
        const gap = Math.abs(split.tuning.items.length - split.reporting.items.length);
        expect(gap).toBeLessThanOrEqual(Math.max(...sizes));
        // Two groups or more: each half holds one at least.
        if (sizes.length > 1)
          expect(split.tuning.groups.length * split.reporting.groups.length).toBeGreaterThan(0);
      }),
    );
  });

  it('balances FinanceBench-like companies exactly', () => {
    // Questions per company in the development split: 68 in all, 34 a half is reachable.
    const sizes = [11, 9, 8, 8, 7, 5, 5, 5, 3, 2, 2, 1, 1, 1];
    for (const seed of [1, 7, 40]) {
      const split = splitHalves(itemsOf(sizes), byGroup, seed);
      expect([split.tuning.items.length, split.reporting.items.length]).toEqual([34, 34]);
    }
  });

  it('is the same on every run, and depends on the seed', () => {
    const items = itemsOf([5, 4, 4, 3, 3, 2, 2, 1]);
    const a = splitHalves(items, byGroup, 40);
    expect(splitHalves([...items].reverse(), byGroup, 40).halfOf).toEqual(a.halfOf);
    // Pinned (computed independently in Python), so that a change of hash or of draws, which would move questions between halves, shows.
    expect(a.tuning.groups).toEqual(['group-0', 'group-1', 'group-6', 'group-7']);
    const splits = [1, 2, 3, 4, 5, 6].map((seed) => splitHalves(items, byGroup, seed).tuning.groups.join());
    expect(new Set(splits).size).toBeGreaterThan(1);
  });

  it('keeps one group in one half, and an empty list empty', () => {
    const one = splitHalves(itemsOf([3]), byGroup, 40);
    expect(one.tuning.items.length + one.reporting.items.length).toBe(3);
    expect(one.tuning.groups.length + one.reporting.groups.length).toBe(1);
    const none = splitHalves([], byGroup, 40);
    expect([none.tuning.items, none.reporting.items, [...none.halfOf]]).toEqual([[], [], []]);
  });
});

// Computed independently (Python) from the definition.
const pinnedHashes = [2872998923, 444641715, 4136642919, 2387039943];

describe('hash32', () => {
  it('is FNV-1a over UTF-8 with murmur3 finalising, pinned', () => {
    expect([hash32(''), hash32('a'), hash32('3M'), hash32('é')]).toEqual(pinnedHashes);
  });
});

describe("bench:rag's groups", () => {
  it.each([
    ['3M_2018_10K', '3M'],
    ['JOHNSON_JOHNSON_2022Q4_EARNINGS', 'JOHNSON_JOHNSON'],
    ['AMCOR_2022_8K_dated-2022-07-01', 'AMCOR'],
    ['Pfizer_2023Q2_10Q', 'PFIZER'],
    ['no-year', 'NO-YEAR'],
  ])('the company of %s is %s', (filing, company) => {
    expect(companyOf(filing)).toBe(company);
  });

  it('splits FinanceBench by company and the rest by document', () => {
    expect(groupingOf({ name: 'financebench' })).toBe('company');
    expect(groupingOf({ name: 'syllabusqa' })).toBe('document');
    expect(groupingOf({ name: 'realtalk' })).toBe('document');
  });

  it("keeps each fixture document's questions in one half", () => {
    const dataset = loadDataset(fileURLToPath(new URL('../../bench/rag/fixtures/courses', import.meta.url)));
    const { grouping, split } = ragHalves(dataset);
    expect(grouping).toBe('document');
    const halfOf = halfByQuestion(split);
    expect(halfOf.size).toBe(dataset.questions.length);
    for (const question of dataset.questions) {
      expect(halfOf.get(question)).toBe(split.halfOf.get(question.sampleId));
    }
    expect([split.tuning.groups.length, split.reporting.groups.length]).toEqual([1, 1]);
  });
});
