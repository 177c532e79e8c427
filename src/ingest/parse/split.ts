/**
 * From a parsed document to the files and directories that will hold it (docs/guide/retrieval.md, "Layers and
 * what is embedded"): a document under `maxTokens` stays one file; a larger one becomes a
 * directory of its sections, recursively for large sections; sections under `mergeBelow` merge
 * with their neighbours; text too long for any heading is cut at paragraphs.
 */
import { LongshipError } from '../../errors.js';
import { slugify, uniqueName } from '../slug.js';
import { type DocumentTree, headingsOf, renderSection, type Section } from './document.js';
import { captionOf, isCaption, repeatedLines } from './part-title.js';
import { statementTerms } from './statement-terms.js';
import { findTables, type TextTable } from './tables.js';

/** A file or directory of a split document; paths are relative to the document's own node. */
export interface PlannedNode {
  /** URI segments below the document's node; `[]` is the document itself. */
  relativePath: string[];
  kind: 'dir' | 'file';
  title: string;
  /** Headings within the node, in document order (for summaries and keyword search). */
  headings: string[];
  /** The stored text (L2); files only. */
  content?: string;
  /** For a paged document (a PDF), the first and last page of the node's text (parse/pages.ts). */
  pages?: readonly [number, number];
}

export interface SplitOptions {
  /** A document (or section) with at least this many estimated tokens is split; default 2048. */
  maxTokens?: number;
  /** Files under this many estimated tokens merge with their neighbours; default 512. */
  mergeBelow?: number;
}

interface Limits {
  maxTokens: number;
  mergeBelow: number;
  /** The document's running headers and footers, which never title a part. */
  repeated: ReadonlySet<string>;
}

type Unit =
  | { kind: 'file'; titles: string[]; headings: string[]; content: string; tokens: number }
  | { kind: 'dir'; title: string; headings: string[]; lead: string; sections: Section[] };

/**
 * A table smaller than this many estimated tokens stays in the prose around it: a few rows are read
 * best with the sentences that introduce them.
 */
const MIN_TABLE_TOKENS = 64;

const HEADING_LINE = /^ {0,3}(?:#{1,6}(?:[ \t].*)?|=+|-+)[ \t]*$/;

/** Whether text says anything beyond its heading lines (a section that is only `## Setup` does not). */
function hasBody(text: string): boolean {
  return text.split('\n').some((line) => line.trim() !== '' && !HEADING_LINE.test(line));
}

/** A block that introduces what follows: only headings, or one caption-like line. */
function isLead(block: string): boolean {
  const lines = block.split('\n').filter((line) => line.trim() !== '');
  return !hasBody(block) || (lines.length === 1 && isCaption(lines[0]!.trim()));
}

/**
 * Cuts a long line into pieces under `maxTokens`, after a space when one is near the limit.
 * Linear in the line's length: a 10 MB minified file is one line.
 */
function cutLine(line: string, maxTokens: number): string[] {
  const pieces: string[] = [];
  // Characters per token of this line, so a piece's length can be guessed and then checked.
  const ratio = line.length / Math.max(1, estimateTokens(line));
  let start = 0;
  while (start < line.length) {
    let end = Math.min(line.length, start + Math.max(1, Math.floor((maxTokens - 1) * ratio)));
    while (end - start > 1 && estimateTokens(line.slice(start, end)) >= maxTokens) {
      end = start + Math.max(1, Math.floor((end - start) * 0.9));
    }
    if (end < line.length) {
      const space = line.lastIndexOf(' ', end - 1);
      if (space >= start + (end - start) / 2) end = space + 1;
      // Never between the halves of a surrogate pair.
      else if (/[\uD800-\uDBFF]/.test(line[end - 1] ?? '') && end - start > 1) end--;
    }
    pieces.push(line.slice(start, end));
    start = end;
  }
  return pieces;
}

/**
 * Cuts text into pieces under about `maxTokens`, at blank lines outside code fences where it can,
 * else at line ends, else between words. A piece that is only headings is never left alone: it
 * stays with the next one, even if that goes a line over. A span of `whole` (a table, by character
 * offsets, in order) starts a block and is cut only if it is itself over `maxTokens`. The pieces
 * join back to `text`.
 *
 * @example
 * splitText(longText, 2048).join('') === longText; // true
 */
export function splitText(
  text: string,
  maxTokens: number,
  whole: readonly { start: number; end: number }[] = [],
): string[] {
  const blocks: string[] = [];
  let block = '';
  let fenced = false;
  let at = 0;
  let span = 0;
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    while (span < whole.length && whole[span]!.end <= at) span++;
    const inside = span < whole.length && whole[span]!.start <= at;
    // A span kept whole (a table) starts a block of its own and is never cut at a blank line.
    if (span < whole.length && whole[span]!.start === at && block !== '') {
      blocks.push(block);
      block = '';
    }
    if (/^ {0,3}(?:```|~~~)/.test(line)) fenced = !fenced;
    block += line;
    at += line.length;
    if (!fenced && !inside && line.trim() === '') {
      blocks.push(block);
      block = '';
    }
  }
  if (block !== '') blocks.push(block);
  const pieces: string[] = [];
  // Counted as parts are added (a sum of rounded-up estimates, so never an underestimate): re-counting
  // the growing piece each time would make long documents quadratic.
  let piece = { text: '', tokens: 0, body: false };
  // The last part added, when it is a caption or a heading: it goes with what follows it (a table
  // and its title stay together), so a cut before that moves it along.
  let lead: { text: string; tokens: number } | undefined;
  const add = (part: string, tokens: number) => {
    if (piece.body && piece.tokens + tokens >= maxTokens) {
      const carried = lead && lead.text.length < piece.text.length ? lead : undefined;
      pieces.push(carried ? piece.text.slice(0, -carried.text.length) : piece.text);
      piece = carried
        ? { text: carried.text, tokens: carried.tokens, body: false }
        : { text: '', tokens: 0, body: false };
    }
    piece = { text: piece.text + part, tokens: piece.tokens + tokens, body: piece.body || hasBody(part) };
    lead = isLead(part) ? { text: part, tokens } : undefined;
  };
  for (const b of blocks) {
    const tokens = estimateTokens(b);
    if (tokens < maxTokens) add(b, tokens);
    else {
      for (const line of b.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
        for (const p of cutLine(line, maxTokens)) add(p, estimateTokens(p));
      }
    }
  }
  if (piece.text !== '') pieces.push(piece.text);
  return pieces;
}

/** A cut of a long text, and the tables that begin or lie in it. */
interface Piece {
  content: string;
  /** Where `content` starts in the text. */
  start: number;
  tables: TextTable[];
}

/**
 * Cuts a long text into pieces under `maxTokens` at paragraphs, as {@link splitText} does, but never
 * inside a table of at least {@link MIN_TABLE_TOKENS} (tables.ts): a table that does not fit in the
 * piece before it starts the next one.
 */
function piecesOf(text: string, limits: Limits): Piece[] {
  const tables = findTables(text, limits.repeated).filter(
    (t) => estimateTokens(text.slice(t.start, t.end)) >= MIN_TABLE_TOKENS,
  );
  let at = 0;
  return splitText(text, limits.maxTokens, tables).map((content) => {
    const start = at;
    at += content.length;
    return { content, start, tables: tables.filter((t) => t.start < at && t.end > start) };
  });
}

/**
 * What a table's part is indexed under beside its text: its caption and column headers, and the
 * analyst's names for what its caption and rows hold. The row labels themselves are in the text; as
 * headings as well, a statement's forty would drown its caption in a long field.
 */
function tableHeadings(table: TextTable): string[] {
  const named = [...(table.caption ? [table.caption] : []), ...table.columns];
  return [...new Set([...named, ...statementTerms([...named, ...table.rows])])];
}

function fileUnits(title: string, headings: string[], text: string, limits: Limits): Unit[] {
  const tokens = estimateTokens(text);
  if (tokens < limits.maxTokens) return [{ kind: 'file', titles: [title], headings, content: text, tokens }];
  const parts = piecesOf(text, limits);
  return parts.map(({ content, start, tables }, k): Unit => {
    // A part that opens with a table is named by its caption; a later part holding one, by the
    // first table's caption, before any other line that reads like one.
    const opening = tables.find((t) => t.caption && !hasBody(content.slice(0, Math.max(0, t.start - start))));
    const held = k > 0 ? tables.find((t) => t.caption) : undefined;
    const named =
      opening?.caption ?? held?.caption ?? (k > 0 ? captionOf(content, limits.repeated) : undefined);
    return {
      kind: 'file',
      titles: [named ?? `${title} (part ${k + 1} of ${parts.length})`],
      headings: [...(k === 0 ? headings : []), ...tables.flatMap(tableHeadings)],
      content,
      tokens: estimateTokens(content),
    };
  });
}

/** How many page breaks (form feeds, docs/guide/documents.md) `text` holds. */
function pageBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\f'); at !== -1; at = text.indexOf('\f', at + 1)) count++;
  return count;
}

/**
 * Merges runs of small files, in order; a directory between two files keeps them apart. In a
 * paged document (a PDF), a merge never makes a part span more than two pages, so that the pages
 * a result cites stay close to its text.
 */
function merge(units: Unit[], limits: Limits): Unit[] {
  const merged: Unit[] = [];
  for (const unit of units) {
    const previous = merged[merged.length - 1];
    if (
      unit.kind === 'file' &&
      previous?.kind === 'file' &&
      (previous.tokens < limits.mergeBelow || unit.tokens < limits.mergeBelow) &&
      previous.tokens + unit.tokens < limits.maxTokens &&
      pageBreaks(previous.content) + pageBreaks(unit.content) <= 1
    ) {
      const joint = previous.content.endsWith('\n') ? '' : '\n';
      previous.content += joint + unit.content;
      previous.titles.push(...unit.titles);
      previous.headings.push(...unit.headings);
      previous.tokens = estimateTokens(previous.content);
    } else {
      merged.push(unit);
    }
  }
  return merged;
}

/**
 * The units of one directory level: its own lead text, then each section as a file or directory.
 * A lead that is only a heading (`## Usage` above its subsections) is not worth a file of its own;
 * it goes in front of the first section, so the files still join back to the whole document.
 */
function unitsOf(title: string, lead: string, sections: readonly Section[], limits: Limits): Unit[] {
  const units: Unit[] = hasBody(lead) ? fileUnits(title, [], lead, limits) : [];
  let carry = hasBody(lead) ? '' : lead;
  for (const section of sections) {
    const text = carry + renderSection(section);
    const heading = section.heading || title;
    if (section.children.length > 0 && estimateTokens(text) >= limits.maxTokens) {
      units.push({
        kind: 'dir',
        title: heading,
        headings: headingsOf(section),
        lead: carry + section.text,
        sections: section.children,
      });
    } else {
      units.push(...fileUnits(heading, headingsOf(section), text, limits));
    }
    carry = '';
  }
  return merge(units, limits);
}

/** A merged file is named after its first part; its title lists the parts, up to three. */
function titleOf(titles: readonly string[]): string {
  if (titles.length <= 3) return titles.join('; ');
  return `${titles.slice(0, 3).join('; ')} and ${titles.length - 3} more`;
}

function plan(
  path: string[],
  title: string,
  lead: string,
  sections: readonly Section[],
  limits: Limits,
): PlannedNode[] {
  const units = unitsOf(title, lead, sections, limits);
  // Numbered so that a listing shows the document's order; two digits at least, more when needed.
  const width = Math.max(2, String(units.length).length);
  const taken = new Set<string>();
  return units.flatMap((unit, k) => {
    const first = unit.kind === 'file' ? unit.titles[0]! : unit.title;
    const name = uniqueName(`${String(k + 1).padStart(width, '0')}-${slugify(first)}`, taken);
    const childPath = [...path, name];
    if (unit.kind === 'file') {
      return [
        {
          relativePath: childPath,
          kind: 'file',
          title: titleOf(unit.titles),
          headings: unit.headings,
          content: unit.content,
        },
      ];
    }
    const dir: PlannedNode = {
      relativePath: childPath,
      kind: 'dir',
      title: unit.title,
      headings: unit.headings,
    };
    return [dir, ...plan(childPath, unit.title, unit.lead, unit.sections, limits)];
  });
}

/**
 * Plans the nodes of one document, parents before children, in document order. The first node is
 * the document itself (`relativePath: []`): a file when the whole text is under `maxTokens`,
 * else a directory. Names are `NN-slug` (e.g. `02-installation`), unique among siblings.
 *
 * @example
 * splitDocument(parseMarkdown(bigGuide)).map((n) => n.relativePath.join('/'));
 * // ['', '01-guide', '02-installation', '03-usage', '03-usage/01-usage', …]
 */
export function splitDocument(tree: DocumentTree, options: SplitOptions = {}): PlannedNode[] {
  const maxTokens = options.maxTokens ?? 2048;
  const mergeBelow = options.mergeBelow ?? 512;
  if (!(maxTokens >= 1) || !(mergeBelow >= 0)) {
    const got = `got ${maxTokens} and ${mergeBelow}`;
    throw new LongshipError('INVALID_ARGUMENT', `maxTokens must be ≥ 1 and mergeBelow ≥ 0, ${got}`);
  }
  const whole = tree.lead + tree.sections.map(renderSection).join('');
  const limits: Limits = { maxTokens, mergeBelow, repeated: repeatedLines(whole) };
  const headings = tree.sections.flatMap(headingsOf);
  if (estimateTokens(whole) < limits.maxTokens) {
    return [{ relativePath: [], kind: 'file', title: tree.title, headings, content: whole }];
  }
  let { lead, sections } = tree;
  const only = sections[0];
  // `# Title` over everything is the document's own heading, not a section: split below it.
  if (sections.length === 1 && only && only.children.length > 0) {
    lead += only.text;
    sections = only.children;
  }
  const root: PlannedNode = { relativePath: [], kind: 'dir', title: tree.title, headings };
  return [root, ...plan([], tree.title, lead, sections, limits)];
}

/**
 * A token count without a tokenizer. BPE tokenizers (GPT, BERT families) average about 4
 * characters per token on English and code, and about one token per character on Chinese,
 * Japanese and Korean; mixing both rules is within ~20% on real text, which is all the split
 * thresholds need. It never loads a model, so it is free to call on every section.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * The estimated number of tokens in `text`: CJK characters count one each, everything else a
 * quarter per UTF-16 unit, rounded up.
 *
 * @example
 * estimateTokens('Hello, world!'); // 4
 */
export function estimateTokens(text: string): number {
  let cjk = 0;
  for (const _ of text.matchAll(CJK)) cjk++;
  return Math.ceil(cjk + (text.length - cjk) / 4);
}
