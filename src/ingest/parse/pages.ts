/**
 * The pages of each part of a paged document (docs/guide/documents.md, "Pages"). A converter marks
 * where each page after the first begins with a form feed on a line of its own; splitting keeps
 * the text in order, so counting form feeds across the parts, in order, tells each part its pages.
 * The marks are then taken out of the stored text.
 */

import type { PlannedNode } from './split.js';

const BREAK = /\n*\f\n*/g;

/** `text` without its page marks: each becomes a paragraph break, none is left at either end. */
function withoutMarks(text: string): string {
  const leading = /^\s*\f/.test(text);
  const trailing = /\f\s*$/.test(text);
  let out = text.replace(BREAK, '\n\n');
  if (leading) out = out.replace(/^\n+/, '');
  if (trailing) out = out.replace(/\n+$/, '\n');
  return out;
}

/** How many form feeds `text` holds before index `end`. */
function breaksBefore(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\f'); at !== -1 && at < end; at = text.indexOf('\f', at + 1)) count++;
  return count;
}

/**
 * The planned nodes of one paged document (parents first, in document order) with `pages` set:
 * a file's pages are those of its first and last character of text, so a part that begins or
 * ends with a page break, or an empty (scanned) page, does not claim that page; a directory's are
 * the span of the files below it. The form feeds are taken out of the content.
 *
 * @example
 * withPages(splitDocument(parseMarkdown('Intro\n\n\f\n\n# Results\n…')))[0]!.pages; // [1, 2]
 */
export function withPages(nodes: readonly PlannedNode[]): PlannedNode[] {
  let page = 1;
  const out = nodes.map((node): PlannedNode => {
    if (node.kind !== 'file') return { ...node };
    const text = node.content ?? '';
    const start = text.search(/\S/);
    const end = start === -1 ? -1 : text.length - 1 - (text.match(/\s*$/)?.[0].length ?? 0);
    const first = page + (start === -1 ? 0 : breaksBefore(text, start));
    const last = page + (end === -1 ? 0 : breaksBefore(text, end));
    page += breaksBefore(text, text.length);
    return { ...node, content: withoutMarks(text), pages: [first, last] };
  });
  for (const dir of out) {
    if (dir.kind !== 'dir') continue;
    const within = out.filter(
      (n) => n.kind === 'file' && n.pages && dir.relativePath.every((s, i) => n.relativePath[i] === s),
    );
    if (within.length === 0) continue;
    dir.pages = [Math.min(...within.map((n) => n.pages![0])), Math.max(...within.map((n) => n.pages![1]))];
  }
  return out;
}
