/**
 * A PDF page's text in reading order (docs/guide/documents.md): pdf.js's positioned runs of text
 * grouped into rows by their baseline, each row cut into segments at wide gaps, runs of rows into
 * blocks (one column, several columns read left column first, or a table), and lines into
 * paragraphs. PDF space has y growing upwards, so a larger y is higher on the page. One file
 * past 400 lines: rows, blocks and paragraphs are steps of one reading of a page's geometry, and
 * apart they would have to share its types and thresholds.
 */
import { columnOf, type Gap, isCaptionLine, type PdfTable, tableMarkdown, tableOf } from './pdf-tables.js';

export type { PdfTable } from './pdf-tables.js';

/** One run of text as pdf.js reports it (a TextItem), narrowed to what layout reads. */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

/** A line in reading order; `heading` is its level (1–6) once headings are found. */
export interface PdfLine {
  kind: 'line';
  text: string;
  /** Left and right ends and baseline, in PDF units. */
  x: number;
  right: number;
  y: number;
  /** The font size of most of its characters. */
  size: number;
  heading?: number;
  /** A heading the outline names that no line on its page matched, inserted where it points. */
  inserted?: boolean;
}

export type PageElement = PdfLine | PdfTable;

/** Text on one row and without a wide gap inside: a line of a column, or a table cell. */
export interface Segment {
  text: string;
  x: number;
  right: number;
  y: number;
  size: number;
}

export interface Row {
  y: number;
  size: number;
  /** Left to right. */
  segments: Segment[];
}

interface Run {
  text: string;
  x: number;
  right: number;
  y: number;
  size: number;
}

/** Runs on one row farther apart than this many font sizes are separate segments (columns, cells). */
const SEGMENT_GAP = 0.8;
/** Runs whose baselines differ by less than this many font sizes share a row (superscripts included). */
const ROW_TOLERANCE = 0.45;
/** A gap between columns is at least this many body font sizes wide. */
const MIN_GUTTER = 0.6;

/** Control characters (a form feed would end the page early) read as spaces; soft hyphens go. */
function clean(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code === 0xad) continue;
    out += code < 0x20 || (code >= 0x7f && code < 0xa0) ? ' ' : ch;
  }
  return out;
}

/**
 * The page's runs in the frame of its main writing direction (a page set sideways reads as if it
 * were upright), and the runs in any other direction, which are read after the rest in pdf.js's order.
 */
function runsOf(items: readonly PdfTextItem[]): { runs: Run[]; others: string[] } {
  const angles = new Map<number, number>();
  const angleOf = (item: PdfTextItem) =>
    Math.round((Math.atan2(item.transform[1]!, item.transform[0]!) * 180) / Math.PI);
  const visible = items.filter((item) => item.str.trim() !== '' && item.transform.length >= 6);
  for (const item of visible) angles.set(angleOf(item), (angles.get(angleOf(item)) ?? 0) + item.str.length);
  const main = [...angles].sort((p, q) => q[1] - p[1])[0]?.[0] ?? 0;
  const cos = Math.cos((main * Math.PI) / 180);
  const sin = Math.sin((main * Math.PI) / 180);
  const runs: Run[] = [];
  const others: string[] = [];
  for (const item of visible) {
    const text = clean(item.str);
    if (angleOf(item) !== main) {
      others.push(text.trim());
      continue;
    }
    const [, , c, d, e, f] = item.transform as [number, number, number, number, number, number];
    const size = Math.hypot(c, d) || item.height || 1;
    const x = e * cos + f * sin;
    runs.push({ text, x, right: x + Math.abs(item.width), y: f * cos - e * sin, size });
  }
  return { runs, others };
}

/** The value with the most weight (characters) behind it. */
function dominant<T>(pairs: Iterable<[T, number]>): T | undefined {
  const weights = new Map<T, number>();
  for (const [value, weight] of pairs) weights.set(value, (weights.get(value) ?? 0) + weight);
  return [...weights].sort((p, q) => q[1] - p[1])[0]?.[0];
}

/** Joins runs left to right, with a space where the gap between them is wider than a kerning. */
function segmentOf(runs: readonly Run[], y: number): Segment {
  let text = '';
  let right = Number.NEGATIVE_INFINITY;
  for (const run of runs) {
    const spaced =
      text !== '' && run.x - right > 0.12 * run.size && !/\s$/.test(text) && !/^\s/.test(run.text);
    text += (spaced ? ' ' : '') + run.text;
    right = Math.max(right, run.right);
  }
  const size = dominant(runs.map((run) => [Math.round(run.size * 2) / 2, run.text.length]))!;
  return { text: text.replace(/\s+/g, ' ').trim(), x: runs[0]!.x, right, y, size };
}

function rowOf(runs: Run[]): Row {
  runs.sort((p, q) => p.x - q.x);
  const y = dominant(runs.map((run) => [run.y, run.text.length]))!;
  const segments: Segment[] = [];
  let current: Run[] = [];
  let right = Number.NEGATIVE_INFINITY;
  for (const run of runs) {
    const last = current[current.length - 1];
    // Text drawn twice a hair apart (fake bold, a shadow) is read once.
    if (last && last.text === run.text && Math.abs(last.x - run.x) < 0.5 * run.size) continue;
    if (last && run.x - right > SEGMENT_GAP * Math.max(run.size, last.size)) {
      segments.push(segmentOf(current, y));
      current = [];
    }
    current.push(run);
    right = current.length === 1 ? run.right : Math.max(right, run.right);
  }
  if (current.length > 0) segments.push(segmentOf(current, y));
  const size = dominant(segments.map((s) => [s.size, s.text.length]))!;
  return { y, size, segments: segments.filter((s) => s.text !== '') };
}

/** Runs grouped into rows by baseline, top to bottom. */
function rowsOf(runs: Run[]): Row[] {
  runs.sort((p, q) => q.y - p.y || p.x - q.x);
  const rows: Row[] = [];
  let current: Run[] = [];
  let y = 0;
  let size = 0;
  for (const run of runs) {
    if (current.length > 0 && Math.abs(run.y - y) <= ROW_TOLERANCE * Math.max(size, run.size)) {
      current.push(run);
      size = Math.max(size, run.size);
      continue;
    }
    if (current.length > 0) rows.push(rowOf(current));
    current = [run];
    y = run.y;
    size = run.size;
  }
  if (current.length > 0) rows.push(rowOf(current));
  return rows.filter((row) => row.segments.length > 0);
}

function gapsOf(row: Row, left: number, right: number): Gap[] {
  const gaps: Gap[] = [];
  let at = left;
  for (const segment of row.segments) {
    if (segment.x > at) gaps.push({ from: at, to: segment.x });
    at = Math.max(at, segment.right);
  }
  if (right > at) gaps.push({ from: at, to: right });
  return gaps;
}

function intersect(a: readonly Gap[], b: readonly Gap[]): Gap[] {
  const out: Gap[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const from = Math.max(a[i]!.from, b[j]!.from);
    const to = Math.min(a[i]!.to, b[j]!.to);
    if (to > from) out.push({ from, to });
    if (a[i]!.to < b[j]!.to) i++;
    else j++;
  }
  return out;
}

/**
 * The gaps of `gaps` (empty on every row of `rows`) wide enough to part columns, with text on both
 * sides (so not at the edges of the page's text, `left` and `right`).
 */
function boundaries(gaps: readonly Gap[], rows: readonly Row[], bounds: Bounds): Gap[] {
  return gaps.filter((gap) => {
    if (gap.to - gap.from < bounds.minWidth || gap.from <= bounds.left || gap.to >= bounds.right)
      return false;
    let before = false;
    let after = false;
    for (const row of rows) {
      for (const s of row.segments) {
        if (s.right <= gap.from + 0.01) before = true;
        else after = true;
      }
      if (before && after) return true;
    }
    return false;
  });
}

/**
 * Whether a gutter parts columns for sure: text on each side of it on at least two rows and a
 * third of all rows, which a running header's page number and a stray wide space cannot make.
 */
function isStrong(gap: Gap, rows: readonly Row[]): boolean {
  let before = 0;
  let after = 0;
  for (const row of rows) {
    if (row.segments.some((s) => s.right <= gap.from + 0.01)) before++;
    if (row.segments.some((s) => s.x >= gap.to - 0.01)) after++;
  }
  const least = Math.max(2, rows.length / 3);
  return before >= least && after >= least;
}

/** Whether any gap could still part columns: one wide enough, inside the page's text. */
function hasInnerGap(gaps: readonly Gap[], bounds: Bounds): boolean {
  return gaps.some(
    (gap) => gap.to - gap.from >= bounds.minWidth && gap.from > bounds.left && gap.to < bounds.right,
  );
}

/** The page's text spans `left` to `right`; gutters are at least `minWidth` wide. */
interface Bounds {
  left: number;
  right: number;
  minWidth: number;
}

/** Rows read together: `gutters` empty means one column; otherwise columns or a table. */
interface Block {
  rows: Row[];
  gutters: Gap[];
}

/**
 * Cuts the page's rows into blocks, top to bottom. A block of columns (or a table) is a run of
 * rows that share empty vertical strips (gutters) with text on both sides; it ends at the first row
 * that crosses a gutter. In a block of one column, the longest run of its last rows that shares a
 * gutter becomes such a block, so columns whose baselines never align are still found.
 */
function blocksOf(rows: readonly Row[], minWidth: number): Block[] {
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (const s of rows.flatMap((row) => row.segments)) {
    left = Math.min(left, s.x);
    right = Math.max(right, s.right);
  }
  const bounds: Bounds = { left, right, minWidth };
  const blocks: Block[] = [];
  let block: { rows: Row[]; gaps: Gap[]; gutters: Gap[] } | undefined;
  const close = () => {
    if (block) blocks.push({ rows: block.rows, gutters: block.gutters });
  };
  for (const row of rows) {
    const gaps = gapsOf(row, left, right);
    if (!block) {
      block = { rows: [row], gaps, gutters: [] };
      continue;
    }
    if (block.gutters.length > 0) {
      const shared = intersect(block.gaps, gaps);
      const found = boundaries(shared, [...block.rows, row], bounds);
      if (found.length >= block.gutters.length) {
        block.rows.push(row);
        block.gaps = shared;
        block.gutters = found;
      } else {
        close();
        block = { rows: [row], gaps, gutters: [] };
      }
      continue;
    }
    block.rows.push(row);
    // The longest run of last rows with a strong gutter, if any, that keeps every gutter of the
    // new row (a caption over a table crosses some of its columns, and stays out).
    let shared = gaps;
    let start = -1;
    let gutters: Gap[] = [];
    const own = boundaries(gaps, [row], bounds).length;
    for (let k = block.rows.length - 2; k >= 0; k--) {
      shared = intersect(shared, gapsOf(block.rows[k]!, left, right));
      if (!hasInnerGap(shared, bounds)) break;
      const run = block.rows.slice(k);
      const found = boundaries(shared, run, bounds);
      if (found.length < own) break;
      if (found.some((gap) => isStrong(gap, run))) {
        start = k;
        gutters = found;
      }
    }
    if (start < 0) {
      block.gaps = gaps;
      continue;
    }
    const run = block.rows.slice(start);
    if (start > 0) blocks.push({ rows: block.rows.slice(0, start), gutters: [] });
    block = {
      rows: run,
      gaps: run.reduce((g, r) => intersect(g, gapsOf(r, left, right)), [{ from: left, to: right }]),
      gutters,
    };
  }
  close();
  return blocks;
}

function lineOf(segments: readonly Segment[]): PdfLine {
  const size = dominant(segments.map((s) => [s.size, s.text.length]))!;
  return {
    kind: 'line',
    text: segments.map((s) => s.text).join(' '),
    x: segments[0]!.x,
    right: segments.reduce((most, s) => Math.max(most, s.right), Number.NEGATIVE_INFINITY),
    y: segments[0]!.y,
    size,
  };
}

/** A block of columns as lines: each column from top to bottom, the left column first. */
function columnLines(block: Block): PdfLine[] {
  const lines: PdfLine[] = [];
  for (let column = 0; column <= block.gutters.length; column++) {
    for (const row of block.rows) {
      const inColumn = row.segments.filter((s) => columnOf(s, block.gutters) === column);
      if (inColumn.length > 0) lines.push(lineOf(inColumn));
    }
  }
  return lines;
}

/** The font size most of the page's characters are set in. */
function bodySize(rows: readonly Row[]): number {
  return (
    dominant(rows.flatMap((row) => row.segments.map((s): [number, number] => [s.size, s.text.length]))) ?? 10
  );
}

/**
 * One page's text as lines and tables in reading order.
 *
 * @example
 * const elements = readPage((await page.getTextContent()).items.filter((item) => 'str' in item));
 */
export function readPage(items: readonly PdfTextItem[]): PageElement[] {
  const { runs, others } = runsOf(items);
  const rows = rowsOf(runs);
  const elements: PageElement[] = [];
  if (rows.length > 0) {
    for (const block of blocksOf(rows, MIN_GUTTER * bodySize(rows))) {
      if (block.gutters.length === 0) {
        elements.push(...block.rows.map((row) => lineOf(row.segments)));
        continue;
      }
      const table = tableOf(block.rows, block.gutters);
      if (table) {
        elements.push(...table.before.map((row) => lineOf(row.segments)), table.table);
        elements.push(...table.after.map((row) => lineOf(row.segments)));
      } else {
        elements.push(...columnLines(block));
      }
    }
  }
  for (const text of others) {
    if (text !== '')
      elements.push({ kind: 'line', text, x: 0, right: 0, y: Number.NEGATIVE_INFINITY, size: 0 });
  }
  return elements;
}

/**
 * How far apart the baselines of a paragraph's lines are, by font size: the median distance between
 * consecutive lines of one size in the document, at most 1.5 sizes (a document of one-line
 * paragraphs has no other distance to measure, and its paragraphs stay apart).
 */
export function lineSteps(pages: readonly (readonly PageElement[])[]): (size: number) => number {
  const steps = new Map<number, number[]>();
  for (const elements of pages) {
    for (let i = 1; i < elements.length; i++) {
      const [p, l] = [elements[i - 1]!, elements[i]!];
      if (p.kind !== 'line' || l.kind !== 'line' || Math.abs(p.size - l.size) > 0.5) continue;
      const step = p.y - l.y;
      if (step <= 0.8 * l.size || step >= 2.5 * l.size) continue;
      const found = steps.get(l.size);
      if (found) found.push(step);
      else steps.set(l.size, [step]);
    }
  }
  const medians = new Map(
    [...steps].map(([size, found]) => [size, found.sort((a, b) => a - b)[found.length >> 1]!]),
  );
  return (size) => Math.min(medians.get(size) ?? 1.2 * size, 1.5 * size);
}

const SENTENCE_END = /[.!?:]["'’”)\]]?$/;
const BULLET = /^(?:[•◦▪●■–-]\s|\d{1,3}[.)]\s)/;

/** Whether `line` goes on in the paragraph whose last line is `previous`. */
function continues(previous: PdfLine, line: PdfLine, step: number): boolean {
  if (previous.heading !== undefined || line.heading !== undefined) return false;
  if (Math.abs(previous.size - line.size) > 0.5 || isCaptionLine(line.text) || BULLET.test(line.text))
    return false;
  // A paragraph break is at least half a line of extra space.
  const drop = previous.y - line.y;
  if (drop <= 0 || drop > step + 0.5 * line.size) return false;
  // The same column: the two lines overlap across the page.
  if (line.x >= previous.right || previous.x >= line.right) return false;
  // A short line that ends a sentence ends its paragraph.
  const short = previous.right - previous.x < 0.7 * (line.right - line.x);
  return !(short && SENTENCE_END.test(previous.text));
}

/** Lines joined into one paragraph; a word hyphenated at a line's end is joined back. */
function joinLines(lines: readonly PdfLine[]): string {
  let text = '';
  for (const line of lines) {
    if (text === '') text = line.text;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line.text)) text = text.slice(0, -1) + line.text;
    else text += ` ${line.text}`;
  }
  return text;
}

/** A paragraph's text with what Markdown would read as structure at its start escaped. */
function escapeStart(text: string): string {
  const bulleted = text.replace(/^[•◦▪●■]\s*/, '- ');
  return /^(?:[#>|]|```|~~~|[=*_+-]+\s*$)/.test(bulleted) ? `\\${bulleted}` : bulleted;
}

/**
 * A page's elements as Markdown: headings as `#` lines, lines joined into paragraphs, tables as
 * pipe tables with their caption on the line before: a line naming the table ("Table 3: …"), or a
 * one-line paragraph just above it (a title with its units). `step` is
 * {@link lineSteps} of the whole document.
 */
export function pageMarkdown(elements: readonly PageElement[], step: (size: number) => number): string {
  const parts: { text: string; named: boolean; line?: PdfLine }[] = [];
  let paragraph: PdfLine[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    const text = escapeStart(joinLines(paragraph));
    parts.push({ text, named: isCaptionLine(text), line: paragraph.length === 1 ? paragraph[0] : undefined });
    paragraph = [];
  };
  let out = '';
  const emit = (text: string, glue: string) => {
    out += (out === '' ? '' : glue) + text;
  };
  for (const element of elements) {
    if (element.kind === 'table') {
      flush();
      for (const part of parts) emit(part.text, '\n\n');
      const last = parts[parts.length - 1];
      const near = last?.line && last.text.length <= 150 && last.line.y - element.y <= 3 * last.line.size;
      const caption = last?.named === true || near === true;
      parts.length = 0;
      emit(tableMarkdown(element.rows), caption ? '\n' : '\n\n');
      continue;
    }
    const previous = paragraph[paragraph.length - 1];
    if (element.heading !== undefined) {
      flush();
      for (const part of parts) emit(part.text, '\n\n');
      parts.length = 0;
      emit(`${'#'.repeat(element.heading)} ${element.text}`, '\n\n');
    } else if (previous && continues(previous, element, step(element.size))) {
      paragraph.push(element);
    } else {
      flush();
      paragraph = [element];
    }
  }
  flush();
  for (const part of parts) emit(part.text, '\n\n');
  return out;
}
