/**
 * Tables in a PDF page (docs/guide/documents.md): a run of rows whose text keeps to the same two or
 * more columns, mostly short cells or figures, read as a Markdown pipe table with its first row as
 * the header. A PDF has no tables, only text placed in columns, so this is a reading of the layout.
 */

/** An empty vertical strip between columns, in PDF units. */
export interface Gap {
  from: number;
  to: number;
}

/** A piece of a row's text between wide gaps: one cell. */
export interface TableCell {
  text: string;
  x: number;
  right: number;
}

export interface TableRow {
  /** Baseline, in PDF units (larger is higher on the page). */
  y: number;
  /** Left to right. */
  segments: readonly TableCell[];
}

export interface PdfTable {
  kind: 'table';
  /** The first row is the header; all rows are as wide. */
  rows: string[][];
  /** The first row's baseline. */
  y: number;
}

/** A cell that is a figure: an amount, a percentage, a year, a dash for none. */
const FIGURE = /^(?:[(+\-−–]?[$€£¥]?\s?\d[\d.,'\s]*%?\)?|[-–—])$/;
/** Prose runs longer than this many words a cell (on the median); a table's cells rarely do. */
const MAX_MEDIAN_WORDS = 4;

/** The column (0-based, left to right) a cell lies in, between `gutters`. */
export function columnOf(cell: TableCell, gutters: readonly Gap[]): number {
  return gutters.filter((gap) => gap.to <= cell.x + 0.01).length;
}

/**
 * Whether a line names a table or figure ("Table 3: Revenue by segment (USD millions)"); it starts
 * a paragraph of its own and stays on the line above its table.
 */
export function isCaptionLine(text: string): boolean {
  return (
    /^(?:table|tab\.|exhibit|schedule|figure|fig\.)\s*[\p{L}\d][\p{L}\d.-]*\s*[:.–—-]\s*\S/iu.test(text) ||
    /^(?:Table|TABLE|Tab\.|Exhibit|EXHIBIT)\s+[A-Z]?\d[\d.]*\s+\p{Lu}/u.test(text)
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
}

function cellsOf(row: TableRow, gutters: readonly Gap[]): string[] {
  const cells = Array.from({ length: gutters.length + 1 }, () => '');
  for (const segment of row.segments) {
    const column = columnOf(segment, gutters);
    cells[column] = cells[column] === '' ? segment.text : `${cells[column]} ${segment.text}`;
  }
  return cells;
}

/**
 * Rows set closer together than the table's rows are a cell's text wrapped onto a second line;
 * they join the row above.
 */
function joinWrapped(cells: string[][], ys: readonly number[]): string[][] {
  const step = median(ys.slice(1).map((y, i) => ys[i]! - y));
  const full = cells.reduce((most, row) => Math.max(most, row.filter((c) => c !== '').length), 0);
  const joined: string[][] = [];
  cells.forEach((row, i) => {
    const above = joined[joined.length - 1];
    const filled = row.filter((c) => c !== '').length;
    if (above && ys[i - 1]! - ys[i]! < 0.75 * step && filled < full) {
      row.forEach((cell, c) => {
        if (cell !== '') above[c] = above[c] === '' ? cell : `${above[c]} ${cell}`;
      });
    } else {
      joined.push([...row]);
    }
  });
  return joined;
}

/**
 * The table in a block of rows split by `gutters`, with the rows above and below it that hold a
 * single cell (a caption, a note); undefined when the block reads as columns of prose instead.
 *
 * @example
 * const found = tableOf(block.rows, block.gutters); // { before, table: { rows: [['Region', 'Q1'], …] }, after }
 */
export function tableOf<R extends TableRow>(
  rows: readonly R[],
  gutters: readonly Gap[],
): { before: R[]; table: PdfTable; after: R[] } | undefined {
  const cells = rows.map((row) => cellsOf(row, gutters));
  const filled = cells.map((row) => row.filter((c) => c !== '').length);
  const first = filled.findIndex((n) => n >= 2);
  let last = filled.length - 1;
  while (last > first && filled[last]! < 2) last--;
  if (first < 0 || first === last) return undefined;
  const body = cells.slice(first, last + 1);
  // Most rows of a table fill two cells or more; a few (a section's name) may fill one.
  if (filled.slice(first, last + 1).filter((n) => n >= 2).length < body.length / 2) return undefined;
  const words = median(body.flat().flatMap((c) => (c === '' ? [] : [c.split(' ').length])));
  const values = body.flatMap((row) => row.slice(1)).filter((c) => c !== '');
  const figures = values.filter((c) => FIGURE.test(c)).length;
  if (words > MAX_MEDIAN_WORDS && figures < values.length / 2) return undefined;
  const joined = joinWrapped(
    body,
    rows.slice(first, last + 1).map((row) => row.y),
  );
  const used = joined[0]!.map((_, c) => joined.some((row) => row[c] !== ''));
  return {
    before: rows.slice(0, first),
    table: { kind: 'table', rows: joined.map((row) => row.filter((_, c) => used[c])), y: rows[first]!.y },
    after: rows.slice(last + 1),
  };
}

/** A cell's text with its pipes escaped, so they do not end the cell. */
function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/**
 * Rows as a Markdown pipe table, the first row as its header.
 *
 * @example
 * tableMarkdown([['Region', 'Q1'], ['East', '612.9']]);
 * // '| Region | Q1 |\n| --- | --- |\n| East | 612.9 |'
 */
export function tableMarkdown(rows: readonly (readonly string[])[]): string {
  const width = rows.reduce((most, row) => Math.max(most, row.length), 0);
  const line = (row: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, c) => escapeCell(row[c] ?? '')).join(' | ')} |`;
  return [line(rows[0] ?? []), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}
