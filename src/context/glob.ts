// Glob patterns over viking:// paths, the way shells read them: `*` and `?` stay within one
// segment, `**` spans whole segments. Matching is on the stored (decoded) names, case-sensitive.

/** A pattern cut into the leading segments without wildcards (where to look) and the rest. */
export interface GlobParts {
  /** Leading segments without `*` or `?`: the directory to search under. */
  base: string[];
  /** The rest, matched against paths relative to `base`; `undefined` when the pattern has no wildcard. */
  rest: RegExp | undefined;
}

const WILDCARD = /[*?]/;

/**
 * Splits a relative glob (`docs/**` + `/*.md`) into its literal base and a matcher for the rest.
 *
 * @example
 * const { base, rest } = splitGlob('docs/**' + '/*.md'); // base ['docs']
 * rest!.test('guide/intro.md'); // true
 */
export function splitGlob(pattern: string): GlobParts {
  const parts = pattern.split('/').filter((part) => part !== '');
  const first = parts.findIndex((part) => WILDCARD.test(part));
  if (first === -1) return { base: parts, rest: undefined };
  return { base: parts.slice(0, first), rest: globRegExp(parts.slice(first)) };
}

/** `**` matches any number of whole segments (one or more when it ends the pattern), `*` and `?` one segment's characters. */
function globRegExp(parts: readonly string[]): RegExp {
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
