/**
 * The readable sentences of stored text, for extractive summaries: Markdown-like text loses its
 * code, tables, markup and headings; source code keeps only its comments.
 */
import type { Format } from '../../context/summarize.js';
import { inlineText } from '../parse/markdown-inline.js';

/** A run of prose under one heading; `heading` is `''` before the first heading. */
export interface ProseSection {
  heading: string;
  paragraphs: string[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SKIPPED_LINE = /^ {0,3}(?:=+|-{2,}|\*{3,}|_{3,}|\||<[!/A-Za-z?])[\s\S]*$|^[ \t]*$/;
const LIST_OR_QUOTE = /^ {0,3}(?:>[ \t]?)*(?:[-+*][ \t]+|\d{1,9}[.)][ \t]+)?/;

/** Prose of Markdown-like text (Markdown, the HTML parser's output, plain text), by section. */
function markdownProse(text: string): ProseSection[] {
  const sections: ProseSection[] = [{ heading: '', paragraphs: [] }];
  let lines = text.split(/\r?\n/);
  if (lines[0]?.trimEnd() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === '---' || l.trimEnd() === '...'));
    if (end > 0) lines = lines.slice(end + 1);
  }
  let paragraph: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    const text = inlineText(paragraph.join(' '));
    if (text !== '') sections[sections.length - 1]!.paragraphs.push(text);
    paragraph = [];
  };
  for (const line of lines) {
    const open = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (open && open[0] === fence[0] && open.length >= fence.length) fence = undefined;
      continue;
    }
    if (open) {
      flush();
      fence = open;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      flush();
      sections.push({ heading: inlineText(atx[2] ?? ''), paragraphs: [] });
    } else if (SKIPPED_LINE.test(line) || (paragraph.length === 0 && /^(?: {4}|\t)/.test(line))) {
      flush();
    } else {
      const marker = LIST_OR_QUOTE.exec(line)?.[0] ?? '';
      // Each list item stands alone: items rarely continue each other's sentences.
      if (/[-+*\d]/.test(marker)) flush();
      paragraph.push(line.slice(marker.length).trim());
    }
  }
  flush();
  return sections.filter((s) => s.heading !== '' || s.paragraphs.length > 0);
}

const COMMENT = /^\s*(?:\/\/+!?|#(?![![])|--|;;|\/\*+!?|\*(?!\/))\s?(.*?)\s*(?:\*+\/)?\s*$/;

/** Comments and docstrings of source code: what its authors wrote for people to read. */
function codeProse(text: string): ProseSection[] {
  const paragraphs: string[] = [];
  let block: string[] = [];
  let docstring = false;
  const flush = () => {
    const joined = block.join(' ').replace(/\s+/g, ' ').trim();
    if (joined !== '') paragraphs.push(joined);
    block = [];
  };
  for (const line of text.split(/\r?\n/)) {
    const quotes = (line.match(/"""|'''/g) ?? []).length;
    if (docstring || quotes > 0) {
      block.push(line.replace(/"""|'''/g, '').trim());
      if (quotes % 2 === 1) docstring = !docstring;
      if (!docstring) flush();
      continue;
    }
    const comment = COMMENT.exec(line)?.[1];
    // JSDoc tags (@param …) and license banners' rulers are not prose.
    if (comment === undefined || comment.startsWith('@') || /^[-=*#/]{3,}$/.test(comment)) flush();
    else if (comment === '') flush();
    else block.push(comment);
  }
  flush();
  return [{ heading: '', paragraphs }];
}

/**
 * The prose of stored text by section. JSON has none (its keys are the headings).
 *
 * @example
 * proseOf('# A\nSome *text*.\n```\ncode\n```\n', 'markdown'); // [{ heading: 'A', paragraphs: ['Some text.'] }]
 */
export function proseOf(text: string, format: Format = 'markdown'): ProseSection[] {
  if (format === 'json') return [];
  return format === 'code' ? codeProse(text) : markdownProse(text);
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Sentences of a paragraph: cut after `.`, `!` or `?` and a space when the next word does not
 * start in lower case (so "e.g. this" stays whole), and after `。！？`.
 *
 * @example
 * sentencesOf('It works. See e.g. the docs! Done'); // ['It works.', 'See e.g. the docs!', 'Done']
 */
export function sentencesOf(paragraph: string): string[] {
  return paragraph
    .split(/(?<=[.!?]["'”’)\]]?)\s+(?!\p{Ll})|(?<=[。！？])/u)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Whether a sentence says something: five words or more (eight characters of CJK), letters in
 * it, and not a lead-in to a list or code (ending in `:`).
 *
 * @example
 * isInformative('Install it with:'); // false
 */
export function isInformative(sentence: string): boolean {
  if (sentence.endsWith(':') || !/\p{L}/u.test(sentence)) return false;
  if (CJK.test(sentence)) return sentence.length >= 8;
  return sentence.split(/\s+/).length >= 5;
}

/**
 * The first informative sentence of some paragraphs, else their first sentence, else `''`.
 *
 * @example
 * firstSentence(['Usage:', 'Longship keeps context for agents. More.']); // 'Longship keeps context for agents.'
 */
export function firstSentence(paragraphs: readonly string[]): string {
  const sentences = paragraphs.flatMap(sentencesOf);
  return sentences.find(isInformative) ?? sentences[0] ?? '';
}
