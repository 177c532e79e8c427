// Glob patterns over viking:// paths, the way shells read them: `*` and `?` stay within one
// segment, `**` spans whole segments. Matching is on the stored (decoded) names, case-sensitive.
import { LongshipError } from '../errors.js';

/** A pattern cut into the leading segments without wildcards (where to look) and the rest. */
export interface GlobParts {
  /** Leading segments without `*` or `?`: the directory to search under. */
  base: string[];
  /** The rest, matched against paths relative to `base`; `undefined` when the pattern has no wildcard. */
  rest: GlobMatcher | undefined;
}

export interface GlobMatcher {
  test(path: string): boolean;
}

/** Longer patterns are refused: no path needs one, and each character costs matching time. */
export const maxGlobLength = 1024;

const WILDCARD = /[*?]/;

/**
 * Splits a relative glob (`docs/**` + `/*.md`) into its literal base and a matcher for the rest.
 * Matching takes time proportional to the pattern's length times the path's, never more: no
 * regular expression, so no backtracking (docs/guide/reliability.md).
 *
 * @example
 * const { base, rest } = splitGlob('docs/**' + '/*.md'); // base ['docs']
 * rest!.test('guide/intro.md'); // true
 */
export function splitGlob(pattern: string): GlobParts {
  if (typeof pattern !== 'string' || pattern.length > maxGlobLength) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      typeof pattern === 'string'
        ? `a glob pattern has at most ${maxGlobLength} characters, not ${pattern.length}`
        : 'glob takes a pattern string',
    );
  }
  const parts = pattern.split('/').filter((part) => part !== '');
  const first = parts.findIndex((part) => WILDCARD.test(part));
  if (first === -1) return { base: parts, rest: undefined };
  const rest = parts.slice(first).map((part) => (part === '**' ? part : [...part.replace(/\*+/g, '*')]));
  return { base: parts.slice(0, first), rest: { test: (path) => matchSegments(rest, path.split('/')) } };
}

/**
 * Whether path segments match pattern segments. `**` matches any number of whole segments (one or
 * more when it ends the pattern). One table row per pattern segment: quadratic at worst.
 */
function matchSegments(pattern: readonly ('**' | string[])[], path: readonly string[]): boolean {
  // can[j]: the pattern so far matches the first j path segments.
  let can = path.map((_, j) => j === 0);
  can.push(path.length === 0);
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i]!;
    const next = new Array<boolean>(path.length + 1).fill(false);
    for (let j = 0; j <= path.length; j++) {
      if (part === '**') {
        const last = i === pattern.length - 1;
        // Zero segments (not at the end), or one more than the row before reached.
        next[j] = (!last && can[j]!) || (j > 0 && (can[j - 1]! || next[j - 1]!));
      } else if (j > 0 && can[j - 1]) {
        next[j] = matchName(part, [...path[j - 1]!]);
      }
    }
    can = next;
  }
  return can[path.length]!;
}

/** `*` and `?` within one name, by the greedy two-pointer method: no backtracking beyond the last `*`. */
function matchName(pattern: readonly string[], name: readonly string[]): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[n])) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
