/** Picks the parser for a document's format and settles its title. */

import type { LongshipError } from '../../errors.js';
import type { InputDocument } from '../input.js';
import type { DocumentTree } from './document.js';
import { parseCode } from './parse-code.js';
import { parseHtml } from './parse-html.js';
import { jsonProblem, parseJson } from './parse-json.js';
import { parseMarkdown } from './parse-markdown.js';
import { parseText } from './parse-text.js';

/** The file name without directories or its last extension: `docs/Guide.md` → `Guide`. */
function stemOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** The first non-blank line, as a last resort for a title; cut at a word near 80 characters. */
function firstLine(content: string): string {
  const line = /\S[^\n]*/.exec(content)?.[0].trim() ?? '';
  if (line.length <= 80) return line;
  const cut = line.slice(0, 80);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 40 ? cut.lastIndexOf(' ') : 80)}…`;
}

/**
 * Parses a checked document into a {@link DocumentTree}. The title is the document's own (front
 * matter, `<title>`, a first `# heading`, a JSON `title`), else the file name (for code, always the
 * file name), else the first line, else `'Untitled'`.
 *
 * @example
 * parseDocument({ path: 'guide.md', content: '## Install\nnpm i x\n', format: 'markdown' }).title; // 'guide'
 */
export function parseDocument(document: InputDocument): DocumentTree {
  const { content, path } = document;
  const tree =
    document.format === 'markdown'
      ? parseMarkdown(content)
      : document.format === 'html'
        ? parseHtml(content)
        : document.format === 'json'
          ? parseJson(content)
          : document.format === 'code'
            ? parseCode(content, path)
            : parseText(content);
  const fileName = path.slice(path.lastIndexOf('/') + 1);
  const title =
    (tree.format === 'code' ? fileName : tree.title) || stemOf(path) || firstLine(content) || 'Untitled';
  return { ...tree, title };
}

/**
 * Why {@link parseDocument} would refuse `document` (a typed error), or undefined; cheap, so that a
 * folder can skip such a file before planning instead of failing the whole job.
 *
 * @example
 * const problem = parseProblem(document);
 * if (problem) skipped.push({ path: document.path, error: problem });
 */
export function parseProblem(document: InputDocument): LongshipError | undefined {
  return document.format === 'json' ? jsonProblem(document.content) : undefined;
}
