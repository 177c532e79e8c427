// The port of OpenViking's `normalize_answer` and `check_recall` (bench/rag/check-recall.ts).
// Every expected value here was first computed by OpenViking's own Python functions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRecall, joined, normalizeAnswer, recallIn, retrieved } from '../../bench/rag/check-recall.js';
import { cutAt } from '../../bench/rag/measure.js';

describe('normalizeAnswer', () => {
  it.each([
    ['The Cash-Flow, 2018!', 'cashflow 2018'],
    ['Tom and Jerry', 'tom jerry'],
    ['1,000,000 and 2.5%', '1000000 25'],
    ['the', ''],
    // Punctuation goes before the articles, so an article joined by it is a word of its own no longer.
    ['Rock-and-roll', 'rockandroll'],
    ['A1 an_the the_a', 'a1 anthe thea'],
  ])('%j → %j', (input, output) => {
    expect(normalizeAnswer(input)).toBe(output);
  });

  it('treats word boundaries and whitespace as Python does', () => {
    // A letter outside ASCII is a word character: no boundary inside "éthe".
    expect(normalizeAnswer('éthe')).toBe('éthe');
    // A typographic apostrophe is not ASCII punctuation: it stays, and bounds the article.
    expect(normalizeAnswer('the’s')).toBe('’s');
    // A no-break space and a file separator split; a byte-order mark does not.
    expect(normalizeAnswer('a\u00a0b')).toBe('b');
    expect(normalizeAnswer('x\x1cy')).toBe('x y');
    expect(normalizeAnswer('x\ufeffy')).toBe('x\ufeffy');
    expect(normalizeAnswer('Σ ΟΔΟΣ')).toBe('σ οδος');
  });
});

describe('checkRecall', () => {
  it('counts a raw substring, case and all, whatever its length', () => {
    expect(checkRecall(['[D1:30] Hi'], ['D1:3'])).toBe(1);
    expect(checkRecall(['[D1:30] Hi'], ['d1:3'])).toBe(0);
    expect(checkRecall(['x'], [''])).toBe(1);
  });

  it('joins the texts with a space before looking', () => {
    expect(checkRecall(['ends here.', 'Start again'], ['here. Start', 'nothing like it'])).toBe(0.5);
  });

  it('never soft-matches evidence of fewer than 4 distinct tokens', () => {
    expect(checkRecall(['the deadline is noon on Friday'], ['Friday noon deadline'])).toBe(0);
    expect(checkRecall(['fee'], ['fee fee fee fee'])).toBe(0);
    expect(checkRecall(['x'], ['the a an and'])).toBe(0);
  });

  it('soft-matches longer evidence when at least 80% of its tokens occur', () => {
    // 6 tokens (homework due every friday at noon), 5 present: 0.83.
    expect(checkRecall(['homework is due each friday at noon'], ['Homework due every Friday at noon.'])).toBe(
      1,
    );
    // 4 of 6: 0.67.
    expect(checkRecall(['homework is due each friday'], ['Homework due every Friday at noon.'])).toBe(0);
    // 4 of 5: exactly 0.8 is enough.
    expect(checkRecall(['quiz due friday noon'], ['quiz due every friday noon'])).toBe(1);
  });

  it('scores no evidence as 0', () => {
    expect(checkRecall(['anything'], [])).toBe(0);
  });
});

describe('prepared texts', () => {
  const word = fc.constantFrom('a', 'an', 'the', 'and', 'Cash', 'flow,', '2018.', 'é', 'x-y', '', ' ', '\n');
  const text = fc.array(word, { maxLength: 12 }).map((words) => words.join(' '));

  it('score joined and cut texts as check_recall scores the joined string', () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 5 }),
        fc.array(text, { minLength: 1, maxLength: 3 }),
        fc.nat(80),
        (texts, evidence, budget) => {
          const parts = texts.map((t) => retrieved([t]));
          expect(recallIn(joined(parts), evidence, 0.8, 1)).toBe(checkRecall(texts, evidence, 0.8, 1));
          const cut = texts.join(' ').slice(0, budget);
          expect(recallIn(cutAt(parts, budget), evidence, 0.8, 1)).toBe(checkRecall([cut], evidence, 0.8, 1));
          expect([...cutAt(parts, budget).tokens].sort()).toEqual([...retrieved([cut]).tokens].sort());
        },
      ),
    );
  });
});
