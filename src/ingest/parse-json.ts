/** JSON to sections: one per top-level key (or array element), each stored as a pretty-printed JSON object. */
import type { DocumentTree, FlatSection } from './document.js';
import { parseText } from './parse-text.js';

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
 * that is not JSON at all, fall back to {@link parseText}.
 *
 * @example
 * parseJson('{"name":"x","scripts":{"test":"vitest"}}').sections.map((s) => s.heading); // ['name', 'scripts']
 */
export function parseJson(content: string): DocumentTree {
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
