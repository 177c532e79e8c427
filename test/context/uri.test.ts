import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roots } from '../../src/context/namespace.js';
import {
  basename,
  contextTypeOf,
  isVikingUri,
  isWithin,
  join,
  parentOf,
  parseUri,
  relativeTo,
  segments,
  type VikingUri,
} from '../../src/context/uri.js';
import { LongshipError } from '../../src/errors.js';

const TOP = parseUri('viking://');

/** The INVALID_URI error `run` throws; fails the test if it throws anything else or nothing. */
function invalid(run: () => unknown): LongshipError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('INVALID_URI');
    return error as LongshipError;
  }
  throw new Error('expected an INVALID_URI error');
}

/** Runs `run`, returning undefined when it refuses with INVALID_URI; any other error fails the property. */
function attempt<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch (error) {
    if (error instanceof LongshipError && error.code === 'INVALID_URI') return undefined;
    throw error;
  }
}

// Pieces chosen to hit every rule: escapes (good, bad, smuggling), dots, separators, controls,
// unpaired surrogates, NFD/NFC pairs and case.
const nastyPiece = fc.constantFrom(
  'a',
  'B',
  'ab',
  '.',
  '..',
  '...',
  '%',
  '%2',
  '%G1',
  '%2e',
  '%2E',
  '%2e%2e',
  '%2F',
  '%2f',
  '%25',
  '%20',
  '%C3%A9',
  '%C3',
  '%ED%A0%80',
  '%3F',
  '%23',
  '%5C',
  '%00',
  '/',
  '//',
  '\\',
  '?',
  '#',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u009f',
  'e\u0301',
  'é',
  '\uD800',
  '\uDC00',
  '😀',
  ' ',
  'VIKING:',
  'http:',
  ':',
  '\u0958',
);
const nastyPath = fc.oneof(
  fc.array(nastyPiece, { maxLength: 8 }).map((pieces) => pieces.join('')),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const nastyInput = fc
  .tuple(
    fc.constantFrom(
      'viking://',
      'VIKING://',
      'Viking://',
      'viking:///',
      'viking:/',
      'viking:',
      'http://',
      '',
    ),
    nastyPath,
  )
  .map(([scheme, path]) => scheme + path);

/** One segment join accepts; mostly from a few letters, so that generated URIs often share prefixes. */
const cleanSegment = fc
  .oneof(
    fc.constantFrom('a', 'b', 'ab', 'A', 'é', 'e\u0301', '...', 'my notes', '😀', 'x%20y'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  )
  .filter((s) => !s.includes('/') && attempt(() => join(TOP, s)) !== undefined);
const validUri = fc.array(cleanSegment, { maxLength: 6 }).map((names) => join(TOP, ...names));

describe('parseUri normalises', () => {
  it.each([
    ['viking://', 'viking://'],
    ['viking:////', 'viking://'],
    ['viking://a//b/', 'viking://a/b'],
    ['viking:///a', 'viking://a'],
    ['VIKING://Resources/Docs', 'viking://Resources/Docs'],
    ['Viking://resources/my%20notes', 'viking://resources/my notes'],
    ['viking://resources/caf%C3%A9', 'viking://resources/café'],
    ['viking://resources/cafe%CC%81', 'viking://resources/café'],
    ['viking://resources/cafe\u0301', 'viking://resources/café'],
    ['viking://resources/.../..a/a..', 'viking://resources/.../..a/a..'],
    ['viking://resources/😀 x:y', 'viking://resources/😀 x:y'],
  ])('%j → %j', (input, expected) => {
    expect(parseUri(input)).toBe(expected);
  });

  it('keeps segment case (only the scheme is case-insensitive)', () => {
    expect(parseUri('viking://a/B')).not.toBe(parseUri('viking://a/b'));
  });

  it('accepts exactly the limits: 255-byte segments, 64 segments', () => {
    expect(segments(parseUri(`viking://${'é'.repeat(127)}a`))[0]).toHaveLength(128);
    expect(segments(parseUri(`viking://${Array(64).fill('s').join('/')}`))).toHaveLength(64);
  });
});

describe('parseUri refuses, saying what and where', () => {
  it.each([
    ['', 'it is empty'],
    ['resources/a', 'no scheme'],
    ['/resources/a', 'no scheme'],
    ['http://example.com/a', 'scheme is "http"'],
    ['file:///etc/passwd', 'scheme is "file"'],
    ['C:\\Users', 'scheme is "C"'],
    ['viking:resources', 'expected "//" after "viking:"'],
    ['viking://a/../b', 'segment 2 ".." is a dot-segment'],
    ['viking://a/.', 'segment 2 "." is a dot-segment'],
    ['viking://a/%2e%2e', 'segment 2 "%2e%2e" (decoded: "..") is a dot-segment'],
    ['viking://a/.%2E', 'is a dot-segment'],
    ['viking://a/%2E', 'is a dot-segment'],
    ['viking://a/b\u0000c', 'segment 2 contains control character U+0000 at index 12'],
    ['viking://a\u001f', 'control character U+001F at index 10'],
    ['viking://a\u007f', 'control character U+007F'],
    ['viking://a\u0085', 'control character U+0085'],
    ['viking://a\u009f', 'control character U+009F'],
    ['viking://a/%00', 'decodes to control character U+0000'],
    ['viking://a\\..\\b', 'a backslash'],
    ['viking://a/%5C', 'decodes to a backslash'],
    ['viking://a?x=1', '"?" (viking:// URIs have no query string or fragment) at index 10'],
    ['viking://a#top', '"#"'],
    ['viking://a/%3F', 'decodes to "?"'],
    ['viking://a/%23', 'decodes to "#"'],
    ['viking://a/b%2Fc', 'decodes to "/" inside a segment'],
    ['viking://a/b%2fc', 'decodes to "/" inside a segment'],
    ['viking://a/100%25', 'decodes to "%"'],
    ['viking://a/100%', 'malformed percent-escape "%" at index 14'],
    ['viking://a/%2', 'malformed percent-escape "%2"'],
    ['viking://a/%G1x', 'malformed percent-escape "%G1" at index 11'],
    ['viking://a/%C3', 'not UTF-8'],
    ['viking://a/%ED%A0%80', 'not UTF-8'],
    ['viking://a/%C0%AF', 'not UTF-8'],
    ['viking://a/\uD800', 'unpaired UTF-16 surrogate (not encodable as UTF-8) at index 11'],
    ['viking://a/\uDC00x', 'unpaired UTF-16 surrogate'],
    [`viking://${'é'.repeat(128)}`, 'segment 1 is 256 UTF-8 bytes long; the limit is 255'],
    [`viking://${Array(65).fill('s').join('/')}`, 'it has 65 segments; the limit is 64'],
    [`viking://${'a/'.repeat(2044)}`, 'it is 4097 characters long; the limit is 4096'],
    // 42 × U+0958 is 126 bytes but NFC turns each into two code points: the result outgrows the input.
    [`viking://${Array(64).fill('\u0958'.repeat(42)).join('/')}`, 'the normalised URI is 5448 characters'],
  ])('%j: %s', (input, problem) => {
    expect(invalid(() => parseUri(input)).message).toContain(problem);
  });

  it('refuses a non-string from untyped callers', () => {
    expect(invalid(() => parseUri(42 as unknown as string)).message).toContain('expected a string');
  });

  it('quotes the input visibly: control characters escaped, long input cut', () => {
    const controls = invalid(() => parseUri('viking://a\u0085\u0000')).message;
    expect(controls).toContain('"viking://a\\u0085\\u0000"');
    expect(controls).not.toContain('\u0000');
    expect(controls).not.toContain('\u0085');
    expect(invalid(() => parseUri(`http://${'x'.repeat(1000)}`)).message.length).toBeLessThan(200);
  });
});

describe('inspecting URIs', () => {
  const doc = parseUri('viking://resources/docs/readme.md');

  it('isVikingUri accepts only canonical strings', () => {
    expect(isVikingUri(doc)).toBe(true);
    expect(isVikingUri('viking://')).toBe(true);
    for (const value of ['VIKING://a', 'viking://a/', 'viking://a//b', 'viking://a/%20', 'x', 1, null]) {
      expect(isVikingUri(value)).toBe(false);
    }
  });

  it('segments, parentOf and basename', () => {
    expect(segments(doc)).toEqual(['resources', 'docs', 'readme.md']);
    expect(segments(TOP)).toEqual([]);
    expect(parentOf(doc)).toBe('viking://resources/docs');
    expect(parentOf(parseUri('viking://resources'))).toBe('viking://');
    expect(parentOf(TOP)).toBeUndefined();
    expect(basename(doc)).toBe('readme.md');
    expect(basename(TOP)).toBe('');
  });

  it('isWithin compares whole segments', () => {
    const a = parseUri('viking://resources/a');
    expect(isWithin(parseUri('viking://resources/ab'), a)).toBe(false);
    expect(isWithin(parseUri('viking://resources/a/b'), a)).toBe(true);
    expect(isWithin(a, a)).toBe(true);
    expect(isWithin(a, TOP)).toBe(true);
    expect(isWithin(TOP, a)).toBe(false);
  });

  it('relativeTo', () => {
    expect(relativeTo(doc, parseUri('viking://resources'))).toBe('docs/readme.md');
    expect(relativeTo(doc, TOP)).toBe('resources/docs/readme.md');
    expect(relativeTo(doc, doc)).toBe('');
    expect(relativeTo(doc, parseUri('viking://resources/doc'))).toBeUndefined();
  });

  it.each([
    ['viking://resources', 'resource'],
    ['viking://resources/docs/a.md', 'resource'],
    ['viking://user/default/memories/preferences/style', 'memory'],
    ['viking://agent/default/memories', 'memory'],
    ['viking://agent/skills/write-rfc', 'skill'],
    ['viking://', undefined],
    ['viking://user', undefined],
    ['viking://agent/skillsets', undefined],
    ['viking://Resources/a', undefined],
  ])('contextTypeOf(%j) is %j', (uri, type) => {
    expect(contextTypeOf(parseUri(uri))).toBe(type);
  });

  it('roots are canonical and each names its own type', () => {
    for (const [type, list] of Object.entries(roots)) {
      for (const root of list) {
        expect(isVikingUri(root)).toBe(true);
        expect(contextTypeOf(root)).toBe(type);
      }
    }
  });
});

describe('join', () => {
  const base = parseUri('viking://resources/docs');

  it('appends, splitting on "/" and normalising like parseUri', () => {
    expect(join(base, 'guide', 'intro.md')).toBe('viking://resources/docs/guide/intro.md');
    expect(join(base, 'guide//intro.md/')).toBe('viking://resources/docs/guide/intro.md');
    expect(join(base, 'my%20notes', 'cafe\u0301')).toBe('viking://resources/docs/my notes/café');
    expect(join(TOP, 'resources')).toBe('viking://resources');
    expect(join(base)).toBe(base);
  });

  it.each([
    ['..', 'segment 1 ".." is a dot-segment'],
    ['a/../..', 'segment 2 ".." is a dot-segment'],
    ['./a', 'segment 1 "." is a dot-segment'],
    ['%2e%2e/x', 'dot-segment'],
    ['a%2Fb', '"/" inside a segment'],
    ['a\\b', 'a backslash'],
    ['', 'it is empty'],
    ['//', 'starts with "/"'],
    ['/etc/passwd', 'starts with "/"'],
    ['viking://agent/skills', 'absolute URI'],
    ['HTTP://x', 'absolute URI'],
    ['a?b', '"?"'],
  ])('refuses %j: %s', (path, problem) => {
    const message = invalid(() => join(base, 'ok', path)).message;
    expect(message).toContain('relative path #2');
    expect(message).toContain(problem);
  });

  it('enforces the segment limit on the result', () => {
    expect(invalid(() => join(base, Array(63).fill('s').join('/'))).message).toContain('65 segments');
  });
});

describe('properties', () => {
  it('parseUri either returns a canonical URI or throws INVALID_URI, and is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(nastyInput, fc.string({ unit: 'binary' })), (input) => {
        const uri = attempt(() => parseUri(input));
        if (uri === undefined) return;
        expect(parseUri(uri)).toBe(uri);
        expect(isVikingUri(uri)).toBe(true);
        for (const name of segments(uri)) {
          expect(name).not.toMatch(/^\.\.?$|[/\\?#%]/);
          expect(name.normalize('NFC')).toBe(name);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('no join escapes its base: the result is within it, or join throws', () => {
    fc.assert(
      fc.property(validUri, fc.array(nastyPath, { minLength: 1, maxLength: 3 }), (base, paths) => {
        const uri = attempt(() => join(base, ...paths));
        if (uri === undefined) return;
        expect(isWithin(uri, base)).toBe(true);
        expect(segments(uri).slice(0, segments(base).length)).toEqual(segments(base));
        // join is parseUri of the concatenation, so both routes agree on every rule.
        expect(parseUri(`${base}/${paths.join('/')}`)).toBe(uri);
      }),
      { numRuns: 2000 },
    );
  });

  it('parent and child agree: parentOf(join(u, s)) is u', () => {
    fc.assert(
      fc.property(validUri, cleanSegment, (uri, name) => {
        const child = join(uri, name);
        expect(parentOf(child)).toBe(uri);
        expect(basename(child)).toBe(decodeURIComponent(name).normalize('NFC'));
        expect(segments(child)).toEqual([...segments(uri), basename(child)]);
      }),
    );
  });

  it('parentOf climbs to the top in as many steps as there are segments', () => {
    fc.assert(
      fc.property(validUri, (uri) => {
        let steps = 0;
        for (let up = parentOf(uri); up !== undefined; up = parentOf(up)) {
          expect(isWithin(uri, up)).toBe(true);
          steps++;
        }
        expect(steps).toBe(segments(uri).length);
      }),
    );
  });

  it('isWithin is a partial order and means "segments of the ancestor are a prefix"', () => {
    const isPrefix = (a: VikingUri, b: VikingUri) => {
      const [sa, sb] = [segments(a), segments(b)];
      return sb.length <= sa.length && sb.every((name, i) => name === sa[i]);
    };
    fc.assert(
      fc.property(validUri, validUri, validUri, (a, b, c) => {
        expect(isWithin(a, a)).toBe(true);
        expect(isWithin(a, b)).toBe(isPrefix(a, b));
        if (isWithin(a, b) && isWithin(b, a)) expect(a).toBe(b);
        if (isWithin(a, b) && isWithin(b, c)) expect(isWithin(a, c)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('relativeTo inverts join', () => {
    fc.assert(
      fc.property(validUri, validUri, (uri, ancestor) => {
        const rest = relativeTo(uri, ancestor);
        expect(rest === undefined).toBe(!isWithin(uri, ancestor));
        if (rest) expect(join(ancestor, rest)).toBe(uri);
        if (rest === '') expect(uri).toBe(ancestor);
        const below = join(ancestor, ...segments(uri));
        expect(relativeTo(below, ancestor)).toBe(segments(uri).join('/'));
      }),
      { numRuns: 1000 },
    );
  });
});
