import fc from 'fast-check';
import { expect, it } from 'vitest';
import { topBy } from '../../src/retrieve/top.js';

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
