/**
 * The parsed shape of one document, whatever its format: a title and a tree of sections. Parsers
 * (`parse-*.ts`) produce it; `split.ts` turns it into files and directories.
 */

import type { Format } from '../../context/summarize.js';

/**
 * One section of a document. `text` is the section's own content as it will be stored, from its
 * heading line (where the format has one) up to its first subsection, so concatenating a tree's
 * texts in document order gives back the whole document (for Markdown, byte for byte).
 */
export interface Section {
  /** The heading as plain text (inline markup removed); may be `''` for an empty heading. */
  heading: string;
  /** 1 to 6 for Markdown and HTML headings; code and JSON use 1 for top-level declarations or keys. */
  level: number;
  text: string;
  children: Section[];
}

export interface DocumentTree {
  title: string;
  /** What the document says it is about, where its format says so (Markdown front matter's `description:`). */
  description?: string;
  format: Format;
  /** What comes before the first section (front matter, a preamble, imports); often `''`. */
  lead: string;
  sections: Section[];
}

/** A section before nesting: parsers emit these in document order. */
export interface FlatSection {
  heading: string;
  level: number;
  text: string;
}

/**
 * Nests flat sections by level: each section becomes a child of the nearest preceding section of
 * a lower level. A jump (an h4 under an h2) nests directly; no empty intermediate levels are made.
 *
 * @example
 * nestSections([{ heading: 'A', level: 1, text: '# A\n' }, { heading: 'B', level: 2, text: '## B\n' }]);
 * // [{ heading: 'A', level: 1, text: '# A\n', children: [{ heading: 'B', level: 2, … }] }]
 */
export function nestSections(flat: readonly FlatSection[]): Section[] {
  const top: Section[] = [];
  const stack: Section[] = [];
  for (const { heading, level, text } of flat) {
    const section: Section = { heading, level, text, children: [] };
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.children : top).push(section);
    stack.push(section);
  }
  return top;
}

/**
 * The whole text of a section and its subsections, in document order.
 *
 * @example
 * renderSection(tree.sections[0]!); // '# A\n…## B\n…'
 */
export function renderSection(section: Section): string {
  return section.text + section.children.map(renderSection).join('');
}

/**
 * Every heading in a section's subtree, the section's own first, in document order.
 *
 * @example
 * headingsOf(section); // ['Install', 'From npm', 'From source']
 */
export function headingsOf(section: Section): string[] {
  return [section.heading, ...section.children.flatMap(headingsOf)].filter((h) => h !== '');
}
