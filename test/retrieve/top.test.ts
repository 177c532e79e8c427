import fc from 'fast-check';
import { expect, it } from 'vitest';
import { topBy } from '../../src/retrieve/score/top.js';

it('selects what a stable sort would put first', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 20 })),
      fc.integer({ min: 0, max: 30 }),
      (scores, count) => {
        const items = scores.map((score, index) => ({ score, index }));
        const expected = [...items].sort((a, b) => b.score - a.score).slice(0, count);
        expect(topBy(items, count, (a, b) => a.score > b.score)).toEqual(expected);
      },
    ),
  );
});

it('with keep, selects what filtering then sorting would, asking keep only about contenders', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ score: fc.integer({ min: 0, max: 20 }), kept: fc.boolean() })),
      fc.integer({ min: 0, max: 30 }),
      (records, count) => {
        const items = records.map((record, index) => ({ ...record, index }));
        const expected = items
          .filter((item) => item.kept)
          .sort((a, b) => b.score - a.score)
          .slice(0, count);
        let asked = 0;
        const keep = (item: (typeof items)[number]) => {
          asked++;
          return item.kept;
        };
        expect(topBy(items, count, (a, b) => a.score > b.score, keep)).toEqual(expected);
        expect(asked).toBeLessThanOrEqual(items.length);
        if (count === 0) expect(asked).toBe(0);
      },
    ),
  );
});
