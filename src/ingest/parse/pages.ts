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

/**
 * The planned nodes of one paged document (parents first, in document order) with `pages` set:
 * a file's first and last page, a directory's the span of the files below it; the form feeds are
 * removed from the content. A file that begins with a page mark starts on the page after it; one
 * that ends with a mark ends before it.
 *
 * @example
 * withPages(splitDocument(parseMarkdown('Intro\n\n\f\n\n# Results\n…')))[0]!.pages; // [1, 2]
 */
export function withPages(nodes: readonly PlannedNode[]): PlannedNode[] {
  let page = 1;
  const out = nodes.map((node): PlannedNode => {
    if (node.kind !== 'file') return { ...node };
    const text = node.content ?? '';
    const marks = text.split('\f').length - 1;
    const first = page + (/^\s*\f/.test(text) ? 1 : 0);
    page += marks;
    const last = Math.max(first, page - (/\f\s*$/.test(text) ? 1 : 0));
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
