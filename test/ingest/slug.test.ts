import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { join, parseUri, segments, uriLimits } from '../../src/context/uri.js';
import { safeName, slugify, uniqueName } from '../../src/ingest/slug.js';

const base = parseUri('viking://resources/x');
const bytes = (text: string) => new TextEncoder().encode(text).byteLength;

/** Text with everything that troubles URIs: separators, escapes, controls, lone surrogates, dots. */
const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc.string({
    unit: fc.constantFrom(
      '/',
      '\\',
      '%',
      '?',
      '#',
      '.',
      ' ',
      '\u0000',
      '\u0085',
      '\uD800',
      'é',
      'e\u0301',
      'ﬁ',
    ),
    maxLength: 40,
  }),
  fc.constantFrom('.', '..', '', '%2F', '%00', '..%2f..'),
);

/** The name is one segment that parseUri keeps exactly as it is. */
function assertSegment(name: string): void {
  const uri = join(base, name);
  expect(segments(uri)).toEqual(['resources', 'x', name]);
  expect(parseUri(uri)).toBe(uri);
  expect(bytes(name)).toBeLessThanOrEqual(uriLimits.segmentBytes);
}

describe('slugify', () => {
  it('makes readable lower-case slugs in any script', () => {
    expect(slugify('2.1 Getting Started — Überblick!')).toBe('2-1-getting-started-überblick');
    expect(slugify('快速开始')).toBe('快速开始');
    expect(slugify('  --  ')).toBe('section');
    expect(slugify('%2F/..', 'fallback')).toBe('2f');
    expect(bytes(slugify('語'.repeat(200)))).toBeLessThanOrEqual(80);
  });

  it('gives a segment parseUri accepts unchanged, for any heading text', () => {
    fc.assert(
      fc.property(nasty, (heading) => {
        const slug = slugify(heading);
        assertSegment(slug);
        assertSegment(`01-${slug}`);
        expect(slug).toMatch(/^[\p{L}\p{N}\p{M}-]+$/u);
      }),
      { numRuns: 500 },
    );
  });
});

describe('safeName', () => {
  it('keeps a file name recognisable and replaces only what a segment cannot hold', () => {
    expect(safeName('Q3 report #2.md')).toBe('Q3 report -2.md');
    expect(safeName('..')).toBe('untitled');
    const long = `${'ä'.repeat(300)}.md`;
    expect(safeName(long).endsWith('.md')).toBe(true);
    expect(bytes(safeName(long))).toBeLessThanOrEqual(255);
  });

  it('gives a segment parseUri accepts unchanged, for any name', () => {
    fc.assert(
      fc.property(nasty, (name) => assertSegment(safeName(name))),
      { numRuns: 500 },
    );
  });
});

describe('uniqueName', () => {
  it('numbers repeats, before the extension when asked', () => {
    const taken = new Set<string>();
    expect(['a.md', 'a.md', 'a.md'].map((n) => uniqueName(n, taken, true))).toEqual([
      'a.md',
      'a-2.md',
      'a-3.md',
    ]);
    expect(uniqueName('a', taken)).toBe('a');
    expect(uniqueName('a', taken)).toBe('a-2');
  });

  it('keeps names unique and URI-safe among any siblings', () => {
    fc.assert(
      fc.property(fc.array(nasty, { maxLength: 30 }), (headings) => {
        const taken = new Set<string>();
        const names = headings.map((h) => uniqueName(safeName(h.repeat(3)), taken, true));
        expect(new Set(names).size).toBe(names.length);
        for (const name of names) assertSegment(name);
      }),
      { numRuns: 200 },
    );
  });
});
