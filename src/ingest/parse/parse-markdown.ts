/**
 * Markdown to sections, by its block structure only: ATX (`## x`) and setext (`x\n---`) headings
 * start sections; code fences, indented code, raw HTML blocks and front matter never do. A full
 * CommonMark parser would be larger than all of ingestion and would still need source positions to
 * keep the original text, which is what a section stores.
 */
import { type DocumentTree, type FlatSection, nestSections } from './document.js';
import { inlineText } from './markdown-inline.js';

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const ATX_CLOSE = /(?:^|[ \t]+)#+$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
/** CommonMark HTML blocks of kinds 1 and 2: they run to their closing tag, blank lines included. */
const RAW_HTML = /^ {0,3}<(pre|script|style|textarea)(?=[\s>]|$)/i;
const COMMENT = /^ {0,3}<!--/;
const CONTAINER = /^ {0,3}(?:[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|>)/;
const INDENTED = /^(?: {4}|\t)/;

interface Heading {
  line: number;
  heading: string;
  level: number;
}

/** Splits keeping each line's ending, so slices join back to the exact source. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * A YAML scalar `key: value` of front matter, unquoted: one line, or a block (`key: >` or `key: |`)
 * of the indented lines below, joined by spaces. Undefined when absent or empty.
 */
function scalar(yaml: string, key: string): string | undefined {
  const match = new RegExp(`^${key}:[ \\t]*(.*?)[ \\t]*$`, 'm').exec(yaml);
  if (!match) return undefined;
  let raw = match[1]!;
  if (/^[>|][-+]?$/.test(raw)) {
    const below = yaml
      .slice(match.index + match[0].length)
      .split('\n')
      .slice(1);
    const end = below.findIndex((line) => line.trim() !== '' && !/^[ \t]/.test(line));
    raw = (end === -1 ? below : below.slice(0, end)).map((line) => line.trim()).join(' ');
  }
  return raw.replace(/^(["'])(.*)\1$/, '$2').trim() || undefined;
}

/** The line index after YAML front matter (`---` … `---` or `...`), and its `title:` and `description:`. */
function frontMatter(lines: readonly string[]): { end: number; title?: string; description?: string } {
  if (lines[0]?.trimEnd() !== '---') return { end: 0 };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (line !== '---' && line !== '...') continue;
    const yaml = lines.slice(1, i).join('');
    const title = scalar(yaml, 'title');
    const description = scalar(yaml, 'description');
    return { end: i + 1, ...(title ? { title } : {}), ...(description ? { description } : {}) };
  }
  return { end: 0 };
}

/** Finds every heading, walking the lines once with just enough state to know what is code. */
function findHeadings(lines: readonly string[], start: number): Heading[] {
  const headings: Heading[] = [];
  let fence: { char: string; length: number } | undefined;
  let htmlEnd: RegExp | undefined;
  let paragraph: number[] = [];
  let inContainer = false;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r?\n$/, '');
    if (fence) {
      const close = FENCE.exec(line);
      if (
        close &&
        close[2]![0] === fence.char &&
        close[2]!.length >= fence.length &&
        close[3]!.trim() === ''
      ) {
        fence = undefined;
      }
      continue;
    }
    if (htmlEnd) {
      if (htmlEnd.test(line)) htmlEnd = undefined;
      continue;
    }
    if (line.trim() === '') {
      paragraph = [];
      inContainer = false;
      continue;
    }
    const open = FENCE.exec(line);
    // A backtick fence's info string cannot hold a backtick: "```a```" is inline code, not a fence.
    if (open && !(open[2]![0] === '`' && open[3]!.includes('`'))) {
      fence = { char: open[2]![0]!, length: open[2]!.length };
      paragraph = [];
      continue;
    }
    const raw = RAW_HTML.exec(line);
    if (raw || COMMENT.test(line)) {
      htmlEnd = raw ? new RegExp(`</${raw[1]}>`, 'i') : /-->/;
      if (htmlEnd.test(line.slice(raw ? raw[0].length : 4))) htmlEnd = undefined;
      paragraph = [];
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      const text = (atx[2] ?? '').replace(ATX_CLOSE, '');
      headings.push({ line: i, heading: inlineText(text), level: atx[1]!.length });
      paragraph = [];
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext && paragraph.length > 0 && !inContainer) {
      const text = paragraph.map((k) => lines[k]!.trim()).join(' ');
      headings.push({ line: paragraph[0]!, heading: inlineText(text), level: setext[1]![0] === '=' ? 1 : 2 });
      paragraph = [];
      continue;
    }
    if (THEMATIC.test(line)) {
      paragraph = [];
      continue;
    }
    if (CONTAINER.test(line)) {
      // List items and quotes hold their own paragraphs; an underline below them is a rule, not a heading.
      inContainer = true;
      paragraph = [];
      continue;
    }
    // Indented code cannot interrupt a paragraph, so an indented line only continues one.
    if (inContainer || (paragraph.length === 0 && INDENTED.test(line))) continue;
    paragraph.push(i);
  }
  return headings;
}

/**
 * Parses Markdown into sections by its headings. The title is the front matter's `title:`, else a
 * first heading of level 1, else `''` (the caller picks one from the file name); the description is
 * the front matter's `description:`, if any.
 *
 * @example
 * parseMarkdown('# Guide\nHi.\n## Install\nnpm i\n').sections[0]!.children[0]!.heading; // 'Install'
 */
export function parseMarkdown(content: string): DocumentTree {
  const lines = linesOf(content);
  const front = frontMatter(lines);
  const headings = findHeadings(lines, front.end);
  const slice = (from: number, to: number) => lines.slice(from, to).join('');
  const flat: FlatSection[] = headings.map((h, k) => ({
    heading: h.heading,
    level: h.level,
    text: slice(h.line, headings[k + 1]?.line ?? lines.length),
  }));
  const first = headings[0];
  const title = front.title ?? (first?.level === 1 ? first.heading : '');
  return {
    title,
    ...(front.description ? { description: front.description } : {}),
    format: 'markdown',
    lead: slice(0, first?.line ?? lines.length),
    sections: nestSections(flat),
  };
}
