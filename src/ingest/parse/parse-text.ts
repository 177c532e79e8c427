/** Plain text: no structure to split by, so one lead and no sections; `split.ts` cuts long text at paragraphs. */
import type { DocumentTree } from './document.js';

/**
 * Parses plain text. The title is the first line when it looks like one (short, followed by a
 * blank line, no sentence-ending period), else `''`.
 *
 * @example
 * parseText('Release notes\n\nFixed the thing.').title; // 'Release notes'
 */
export function parseText(content: string): DocumentTree {
  const match = /^\s*([^\n]{1,100})\r?\n[ \t]*\r?\n/.exec(content);
  const first = match?.[1]?.trim() ?? '';
  const title = first !== '' && !/[.:;,]$/.test(first) ? first : '';
  return { title, format: 'text', lead: content, sections: [] };
}
