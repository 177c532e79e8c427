import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyScores } from '../../src/retrieve/score/lexical-matches.js';

describe('keyScores', () => {
  it('gives each hit its score and every other key 0, whether the keys are dense or sparse', () => {
    const key = fc.oneof(fc.nat(2000), fc.nat(Number.MAX_SAFE_INTEGER));
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ key, score: fc.double({ min: 0.001, max: 100, noNaN: true }) }), {
          selector: (hit) => hit.key,
        }),
        fc.array(key, { maxLength: 20 }),
        (hits, probes) => {
          const score = keyScores(hits);
          const expected = new Map(hits.map((hit) => [hit.key, hit.score]));
          for (const k of [...hits.map((hit) => hit.key), ...probes]) {
            expect(score(k)).toBe(expected.get(k) ?? 0);
          }
        },
      ),
    );
  });
});
