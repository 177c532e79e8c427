import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText, estimateTokens } from '../../src/embed/chunk.js';

/** Runs `body` as if this runtime had no Intl.Segmenter (Firefox before 125), then restores it. */
function withoutSegmenter<T>(body: () => T): T {
  const original = Intl.Segmenter;
  Object.defineProperty(Intl, 'Segmenter', { value: undefined, configurable: true, writable: true });
  try {
    return body();
  } finally {
    Object.defineProperty(Intl, 'Segmenter', { value: original, configurable: true, writable: true });
  }
}

const word = fc.oneof(
  fc.stringMatching(/^[a-zA-Z]{1,25}$/),
  fc.constantFrom('naïve', 'Straße', '東京', '晴れ', '3.14', 'Dr.', 'e.g.', 'x'),
);
const mark = fc.constantFrom('.', '!', '?', ',', ';', '"', '(', ')', '…', '。', '?!');
const space = fc.constantFrom(' ', ' ', ' ', '  ', '\n', '\n\n', '\t', ' . ', '. ');
const text = fc
  .array(fc.oneof({ arbitrary: word, weight: 4 }, mark, { arbitrary: space, weight: 4 }), { maxLength: 120 })
  .map((parts) => parts.join(''));

const counters: [string, ((s: string) => number) | undefined][] = [
  ['the default estimate', undefined],
  ['a character count', (s) => s.length],
  ['a whitespace word count', (s) => s.split(/\s+/).filter(Boolean).length],
];

describe.each([
  ['with Intl.Segmenter', <T>(body: () => T) => body()],
  ['with the regex fallback', withoutSegmenter],
])('chunkText %s', (_, mode) => {
  function isOneWord(chunk: string): boolean {
    if (typeof Intl.Segmenter !== 'function') return !/\s/.test(chunk);
    return [...new Intl.Segmenter(undefined, { granularity: 'word' }).segment(chunk)].length === 1;
  }

  describe.each(counters)('counting with %s', (_, countTokens) => {
    const count = countTokens ?? estimateTokens;

    it('keeps every chunk within budget, unless it is a single word over it', () => {
      fc.assert(
        fc.property(text, fc.integer({ min: 1, max: 40 }), (input, maxTokens) =>
          mode(() => {
            for (const chunk of chunkText(input, { maxTokens, countTokens })) {
              if (count(chunk) > maxTokens) expect(isOneWord(chunk), JSON.stringify(chunk)).toBe(true);
            }
          }),
        ),
      );
    });

    it('returns trimmed, non-empty pieces of the text, in order', () => {
      fc.assert(
        fc.property(text, fc.integer({ min: 1, max: 40 }), (input, maxTokens) =>
          mode(() => {
            let position = 0;
            for (const chunk of chunkText(input, { maxTokens, countTokens })) {
              expect(chunk).toBe(chunk.trim());
              expect(chunk).not.toBe('');
              const found = input.indexOf(chunk, position);
              expect(found).toBeGreaterThanOrEqual(position);
              position = found + chunk.length;
            }
          }),
        ),
      );
    });

    it('loses no non-whitespace character', () => {
      fc.assert(
        fc.property(text, fc.integer({ min: 1, max: 40 }), (input, maxTokens) =>
          mode(() => {
            const chunks = chunkText(input, { maxTokens, countTokens });
            expect(chunks.join('').replace(/\s+/g, '')).toBe(input.replace(/\s+/g, ''));
          }),
        ),
      );
    });
  });

  it('keeps all three properties on texts longer than the segmenter’s window', () => {
    const long = fc
      .array(fc.oneof({ arbitrary: word, weight: 4 }, mark, { arbitrary: space, weight: 4 }), {
        minLength: 500,
        maxLength: 3000,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(long, fc.integer({ min: 1, max: 300 }), (input, maxTokens) =>
        mode(() => {
          const chunks = chunkText(input, { maxTokens });
          let position = 0;
          for (const chunk of chunks) {
            if (estimateTokens(chunk) > maxTokens) expect(isOneWord(chunk)).toBe(true);
            position = input.indexOf(chunk, position) + chunk.length;
            expect(position).toBeGreaterThanOrEqual(chunk.length);
          }
          expect(chunks.join('').replace(/\s+/g, '')).toBe(input.replace(/\s+/g, ''));
        }),
      ),
      { numRuns: 25 },
    );
  });

  it('packs whole sentences while they fit', () => {
    mode(() => {
      expect(chunkText('One. Two three. Four five six.', { maxTokens: 5 })).toEqual([
        'One. Two three.',
        'Four five six.',
      ]);
      expect(chunkText('One. Two three. Four five six.', { maxTokens: 100 })).toEqual([
        'One. Two three. Four five six.',
      ]);
    });
  });

  it('splits a sentence that is too long between words', () => {
    mode(() => {
      const chunks = chunkText('Short one. A b c d e f g h i j. Last.', { maxTokens: 4 });
      expect(chunks[0]).toBe('Short one.');
      expect(chunks.at(-1)).toBe('Last.');
      expect(chunks.slice(1, -1).join(' ').replace(/\s+/g, ' ')).toBe('A b c d e f g h i j.');
      for (const chunk of chunks) expect(estimateTokens(chunk)).toBeLessThanOrEqual(4);
    });
  });

  it('leaves a word longer than the budget whole, in a chunk of its own', () => {
    mode(() => {
      const long = 'pneumonoultramicroscopicsilicovolcanoconiosis';
      expect(chunkText(`A ${long} B`, { maxTokens: 2, countTokens: (s) => s.length })).toEqual([
        'A',
        long,
        'B',
      ]);
    });
  });

  it('ends sentences at line breaks and CJK full stops', () => {
    mode(() => {
      expect(chunkText('title without stop\nbody text here', { maxTokens: 4 })).toEqual([
        'title without stop',
        'body text here',
      ]);
      expect(chunkText('今日は晴れです。明日は雨です。', { maxTokens: 8 })).toEqual([
        '今日は晴れです。',
        '明日は雨です。',
      ]);
    });
  });

  it('does not end a sentence inside a number', () => {
    mode(() => {
      expect(chunkText('Pi is 3.14 exactly. Next one.', { maxTokens: 8 })).toEqual([
        'Pi is 3.14 exactly.',
        'Next one.',
      ]);
    });
  });

  it('takes time in proportion to the text, even past the segmenter’s window', () => {
    mode(() => {
      // Once quadratic in V8's Intl.Segmenter (seconds); once an endless loop for a sentence longer
      // than a window followed by more sentences.
      const text = `${'word '.repeat(3000)}. ${'Short sentence here. '.repeat(6000)}`;
      const started = performance.now();
      const chunks = chunkText(text, { maxTokens: 256 });
      expect(performance.now() - started).toBeLessThan(3000);
      expect(chunks.join('').replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
    });
  });

  it('gives no chunks for a blank text', () => {
    mode(() => {
      expect(chunkText('', { maxTokens: 10 })).toEqual([]);
      expect(chunkText(' \n\t ', { maxTokens: 10 })).toEqual([]);
    });
  });
});

describe('chunkText options', () => {
  it('counts with the given countTokens', () => {
    const seen: string[] = [];
    const chunks = chunkText('aaaa. bbbb. cccc.', {
      maxTokens: 11,
      countTokens: (s) => {
        seen.push(s);
        return s.length;
      },
    });
    expect(chunks).toEqual(['aaaa. bbbb.', 'cccc.']);
    expect(seen.length).toBeGreaterThan(0);
  });

  it.each([0, -3, 2.5, Number.NaN])('refuses maxTokens %d', (maxTokens) => {
    expect(() => chunkText('x', { maxTokens })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});

describe('estimateTokens', () => {
  it.each([
    ['', 0],
    ['   ', 0],
    ['Hello, world!', 4],
    ['internationalization', 4],
    ['東京', 2],
    ['abc東京', 3],
    ['naïve café', 2],
  ])('counts %j as %d', (input, tokens) => {
    expect(estimateTokens(input)).toBe(tokens);
  });
});
