import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxGlobLength, splitGlob } from '../../src/context/glob.js';
import { LongshipError } from '../../src/errors.js';

/** The regular expression glob used to be: the reference for what a pattern means. */
function reference(parts: readonly string[]): RegExp {
  let source = '';
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    if (part === '**') {
      source += last ? '.+' : '(?:[^/]+/)*';
      return;
    }
    for (const char of part) {
      source += char === '*' ? '[^/]*' : char === '?' ? '[^/]' : char.replace(/[\\^$.+()[\]{}|]/g, '\\$&');
    }
    if (!last) source += '/';
  });
  return new RegExp(`^${source}$`, 'u');
}

describe('splitGlob', () => {
  it('matches what the old regular expression matched, on random patterns and paths', () => {
    const segment = (chars: string[]) =>
      fc.array(fc.constantFrom(...chars), { minLength: 1, maxLength: 5 }).map((c) => c.join(''));
    const pattern = fc
      .array(fc.oneof(segment(['a', 'b', '*', '?', '.']), fc.constant('**')), { minLength: 1, maxLength: 4 })
      .filter((parts) => parts.some((p) => /[*?]/.test(p)));
    const path = fc
      .array(segment(['a', 'b', '.', 'é']), { minLength: 1, maxLength: 4 })
      .map((p) => p.join('/'));
    fc.assert(
      fc.property(pattern, path, (parts, p) => {
        const { base, rest } = splitGlob(parts.join('/'));
        const wild = parts.slice(base.length);
        expect(rest!.test(p)).toBe(reference(wild).test(p));
      }),
      { numRuns: 20_000, seed: 24 },
    );
  });

  it('refuses a pattern longer than maxGlobLength, typed, and matches long ones quickly', () => {
    expect(() => splitGlob('*'.repeat(100_000))).toThrow(LongshipError);
    expect(() => splitGlob('*'.repeat(100_000))).toThrow(/at most 1024 characters/);
    const started = performance.now();
    const { rest } = splitGlob(`${'*a'.repeat(maxGlobLength / 2 - 1)}*b`);
    expect(rest!.test('a'.repeat(2000))).toBe(false);
    const { rest: deep } = splitGlob(`${'**/'.repeat(300)}*`);
    expect(deep!.test(Array.from({ length: 300 }, () => 'x').join('/'))).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
