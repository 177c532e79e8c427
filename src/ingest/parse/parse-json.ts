/** JSON to sections: one per top-level key (or array element), each stored as a pretty-printed JSON object. */
import { LongshipError } from '../../errors.js';
import type { DocumentTree, FlatSection } from './document.js';
import { parseText } from './parse-text.js';

/**
 * The deepest nesting of arrays and objects ingestion reads. Sections are pretty-printed with
 * JSON.stringify, which recurses: a few thousand levels exhaust the stack (workerd's and Safari's are
 * smaller than Node's), and no document worth searching nests anywhere near this.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * How deep `content`'s arrays and objects nest, found in one pass without recursion: brackets inside
 * strings do not count. Stops counting once past `limit`.
 */
function nestingDepth(content: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Why ingestion cannot read this JSON, or undefined when it can: `UNSUPPORTED_INPUT` for nesting
 * past {@link MAX_JSON_DEPTH}. Linear in the text; a folder skips such a file and names it.
 *
 * @example
 * jsonProblem('['.repeat(5000) + ']'.repeat(5000))?.code; // 'UNSUPPORTED_INPUT'
 */
export function jsonProblem(content: string): LongshipError | undefined {
  const depth = nestingDepth(content, MAX_JSON_DEPTH);
  if (depth <= MAX_JSON_DEPTH) return undefined;
  return new LongshipError(
    'UNSUPPORTED_INPUT',
    `the JSON nests deeper than ${MAX_JSON_DEPTH} levels, more than ingestion reads`,
  );
}

/** A readable label for an array element: its own name, title or id when it has one. */
function labelOf(value: unknown, index: number): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const key of ['name', 'title', 'id', 'key']) {
      const label = (value as Record<string, unknown>)[key];
      if (typeof label === 'string' || typeof label === 'number') return `[${index}] ${label}`;
    }
  }
  return `[${index}]`;
}

/** A document's own name for itself, as package.json, manifests and many records carry one. */
function titleOf(value: Record<string, unknown>): string {
  for (const key of ['title', 'name']) {
    const title = value[key];
    if (typeof title === 'string' && title.trim() !== '' && title.length <= 200) return title.trim();
  }
  return '';
}

/**
 * Parses JSON into one section per top-level key, each holding `{"key": value}` pretty-printed so
 * every stored piece is valid JSON itself. Arrays give one section per element; scalars, and text
 * that is not JSON at all, fall back to {@link parseText}. Nesting past {@link MAX_JSON_DEPTH}
 * throws `UNSUPPORTED_INPUT`.
 *
 * @example
 * parseJson('{"name":"x","scripts":{"test":"vitest"}}').sections.map((s) => s.heading); // ['name', 'scripts']
 */
export function parseJson(content: string): DocumentTree {
  const problem = jsonProblem(content);
  if (problem) throw problem;
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    // A `.json` file that does not parse (comments, a truncated download) is still worth keeping as text.
    return parseText(content);
  }
  if (value === null || typeof value !== 'object') return parseText(content);
  const flat: FlatSection[] = Array.isArray(value)
    ? value.map((item, i) => ({
        heading: labelOf(item, i),
        level: 1,
        text: `${JSON.stringify(item, null, 2)}\n`,
      }))
    : Object.entries(value).map(([key, item]) => ({
        heading: key,
        level: 1,
        text: `${JSON.stringify({ [key]: item }, null, 2)}\n`,
      }));
  const title = Array.isArray(value) ? '' : titleOf(value as Record<string, unknown>);
  return { title, format: 'json', lead: '', sections: flat.map((s) => ({ ...s, children: [] })) };
}
