/**
 * Tables in a document's text (docs/guide/documents.md, "Tables"): Markdown pipe tables, and the
 * statements that text converted from a PDF holds flattened to lines ("Consolidated Statements of
 * Cash Flows", a units line, a line of years, then rows of a label and its figures). Splitting makes
 * each its own part, titled by its caption, with its column headers and row labels beside it, so
 * that a question in words ("capital expenditure in 2018, cash flow statement") meets a table whose
 * cells hold only labels and figures.
 */

/** A table found in a text: where it lies, and the words that say what its figures are. */
export interface TextTable {
  /** Character offsets into the text: the table is `text.slice(start, end)`, whole lines. */
  start: number;
  end: number;
  /** The line that names the table, if one does ("Consolidated Balance Sheets"). */
  caption?: string;
  /** Its header lines or cells: periods, units ("(In millions) 2018 2017 2016"). */
  columns: string[];
  /** The label of each row, and of each line that heads a group of rows, in order. */
  rows: string[];
}

/** A flattened table needs at least this many lines that end in figures. */
const MIN_ROWS = 3;
/** The lines above a table's first header line that may hold its caption and running headers. */
const MAX_HEAD_LINES = 6;
/** A run of this many lines without figures ends a flattened table. */
const MAX_LABEL_RUN = 6;
/** A row's label is short; a line with more words is a wrapped sentence that ends in a number. */
const MAX_LABEL_WORDS = 18;

/** One token of a row's figures: an amount, a percentage, a currency sign, a dash for none. */
const FIGURE = /^(?:[$€£¥]|[-–—]+|%|\(?[$€£¥]?[-–—+]?\d[\d,.]*%?\)?%?\*?)$/u;
const NUMBER = /\d/;
const YEAR = /^\(?(?:19|20)\d\d\)?[,.]?$/;
const MONTH = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?$/i;
const LEADER = /(?:\s*\.){3,}\s*/g;
const UNITS =
  /^\(?(?:(?:dollars|amounts|figures|\$|usd|eur|€|£)\s+)?in\s+(?:millions|thousands|billions)|^\((?:millions|thousands|billions)\b/i;
/** Words a caption of a financial statement or schedule uses. */
const STATEMENT =
  /\b(?:statements?|balance\s+sheets?|selected\s+financial\s+data|results\s+of\s+operations|cash\s+flows?|financial\s+position|(?:stockholders|shareholders)['’]?\s+equity)\b/i;
const MARKER = /^\s*<!--.*-->\s*$/;
const PIPE_ROW = /^ {0,3}\|.*\|\s*$/;
const PIPE_DELIMITER = /^ {0,3}\|(?:\s*:?-{3,}:?\s*\|)+\s*$/;

type Kind = 'blank' | 'row' | 'figures' | 'period' | 'label' | 'prose';

interface Line {
  text: string;
  start: number;
  end: number;
  kind: Kind;
  /** A row's label (its text before the figures); a label line's text. */
  label: string;
  years: number;
}

/** Splits into lines with offsets; `end` includes the line break. */
function linesOf(text: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  for (const match of text.matchAll(/[^\n]*\n|[^\n]+$/g)) {
    out.push({
      text: match[0].replace(/\r?\n$/, ''),
      start: match.index,
      end: match.index + match[0].length,
    });
  }
  return out;
}

/** What one line of flattened text is, read on its own. */
function classify(raw: string): { kind: Kind; label: string; years: number } {
  const line = raw.replace(LEADER, ' ').trim();
  if (line === '' || MARKER.test(line)) return { kind: 'blank', label: '', years: 0 };
  const tokens = line.split(/\s+/);
  let cut = tokens.length;
  while (cut > 0 && FIGURE.test(tokens[cut - 1]!)) cut--;
  const figures = tokens.slice(cut);
  const numbers = figures.filter((t) => NUMBER.test(t));
  const years = tokens.filter((t) => YEAR.test(t)).length;
  const label = tokens.slice(0, cut).join(' ');
  // "Years ended December 31" is a header's words, not a row whose figure is 31.
  if (
    years === 0 &&
    numbers.length === 1 &&
    MONTH.test(tokens[cut - 1] ?? '') &&
    /^\d{1,2},?$/.test(figures[0]!)
  ) {
    return { kind: 'label', label: line, years };
  }
  const words = label.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
  if (cut === 0) return { kind: numbers.length > 0 ? 'figures' : 'blank', label: '', years };
  // A header line: years under a few words ("(Millions) 2018 2017 2016", "December 31, 2018").
  if (years > 0 && words <= 8 && numbers.every((t) => YEAR.test(t) || /^\d{1,2},?$/.test(t))) {
    const rest = tokens.filter((t) => !YEAR.test(t) && !/^\d{1,2},?$/.test(t)).join(' ');
    if (!/[.;!?]$/.test(rest)) return { kind: 'period', label: line, years };
  }
  if (numbers.length > 0 && words <= MAX_LABEL_WORDS && /\p{L}/u.test(label)) {
    // "… compared with 2017" ends a sentence, not a row: one figure that is a year after many words.
    if (!(numbers.length === 1 && YEAR.test(numbers[0]!) && words > 6)) return { kind: 'row', label, years };
  }
  const sentence = /[.!?]["”’)]?$/.test(line) && words >= 5;
  if (sentence || words > 20 || line.length > 160) return { kind: 'prose', label: '', years };
  return { kind: 'label', label: line.replace(/:$/, ''), years };
}

/** Whether a line can name a table: short, a capital first, words rather than figures. */
function isCaptionText(line: string): boolean {
  const text = line.replace(/^#{1,6}\s+/, '').trim();
  if (text.length < 4 || text.length > 100 || !/^\p{Lu}/u.test(text)) return false;
  const letters = text.replace(/[^\p{L}]/gu, '').length;
  return letters / text.length >= 0.6 && !/[.;]$/.test(text);
}

/**
 * The caption among a table's head lines: one that names a statement, else the first caption-like
 * line that is neither a running header nor a header's dates or units; undefined when none reads
 * as one.
 */
function captionIn(head: readonly Line[], repeated: ReadonlySet<string>): string | undefined {
  const candidates = head.filter(
    (line) =>
      line.kind === 'label' &&
      isCaptionText(line.text) &&
      !repeated.has(line.text.trim()) &&
      !isHeadLabel(line) &&
      !line.text.split(/\s+/).some((word) => MONTH.test(word)),
  );
  const named = candidates.find((line) => STATEMENT.test(line.text)) ?? candidates[0];
  return named?.text
    .replace(/^#{1,6}\s+/, '')
    .replace(/:$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether `lines[i]` opens a table's header: a units line, or a line of years with two or more. */
function opensHeader(lines: readonly Line[], i: number): boolean {
  const line = lines[i]!;
  if (line.kind === 'label' && UNITS.test(line.text.trim())) return true;
  if (line.kind !== 'period') return false;
  // Years may stand one to a line: count those of the header lines in a row.
  let years = 0;
  for (let k = i; k < lines.length && k < i + 4 && lines[k]!.kind === 'period'; k++) years += lines[k]!.years;
  return years >= 2;
}

/** The flattened table whose header opens at line `at`, or undefined; `next` is where to look on. */
function tableAt(
  lines: readonly Line[],
  at: number,
  floor: number,
  repeated: ReadonlySet<string>,
): { table?: TextTable; next: number } {
  // Up to the caption: head lines above the header, stopping at a break, a row, a sentence or the
  // table before.
  let first = at;
  while (
    first > floor &&
    at - (first - 1) <= MAX_HEAD_LINES &&
    (lines[first - 1]!.kind === 'label' || lines[first - 1]!.kind === 'period')
  ) {
    first--;
  }
  let bodyStart = at;
  while (
    bodyStart < lines.length &&
    (lines[bodyStart]!.kind === 'period' || isHeadLabel(lines[bodyStart]!))
  ) {
    bodyStart++;
  }
  let last = -1;
  let rows = 0;
  let run = 0;
  for (let k = bodyStart; k < lines.length; k++) {
    const line = lines[k]!;
    if (line.kind === 'prose') break;
    if (line.kind === 'row' || line.kind === 'figures') {
      rows++;
      run = 0;
      last = k;
      continue;
    }
    // A new table's header, after a break or a caption: this table ends above it.
    if (k > bodyStart && opensHeader(lines, k) && startsAnother(lines, last, k)) break;
    if (line.kind !== 'blank' && ++run > MAX_LABEL_RUN) break;
  }
  if (rows < MIN_ROWS || last < 0) return { next: at + 1 };
  const body = lines.slice(bodyStart, last + 1);
  const head = lines.slice(first, bodyStart);
  const caption = captionIn(head, repeated);
  const below = head.slice(head.findIndex((line) => line.start >= lines[at]!.start));
  return {
    table: {
      start: lines[first]!.start,
      end: lines[last]!.end,
      ...(caption ? { caption } : {}),
      columns: unique(below.map((line) => line.text.trim())),
      rows: unique(
        body
          .filter((line) => (line.kind === 'row' || line.kind === 'label') && !repeated.has(line.text.trim()))
          .map((line) => line.label),
      ),
    },
    next: last + 1,
  };
}

/** A header's own words beside its years: "Years ended December 31", "(In thousands)". */
function isHeadLabel(line: Line): boolean {
  if (line.kind !== 'label') return false;
  return (
    UNITS.test(line.text.trim()) ||
    (/\b(?:years?|months?|weeks?|ended|as of)\b/i.test(line.text) && line.text.length <= 60)
  );
}

/** Whether a header at `k` opens another table: a page break or a caption since the last row. */
function startsAnother(lines: readonly Line[], lastRow: number, k: number): boolean {
  for (let j = Math.max(lastRow + 1, 0); j < k; j++) {
    const line = lines[j]!;
    // A page's mark: a converter's comment, or the form feed of a paged document.
    if (line.kind === 'blank' && (line.text.trim() !== '' || line.text.includes('\f'))) return true;
    if (line.kind === 'label' && isCaptionText(line.text) && STATEMENT.test(line.text)) return true;
  }
  return lastRow < 0;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values.filter((v) => v !== ''))];
}

/** The cells of a pipe-table line, unescaped and trimmed. */
function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.replace(/\\\|/g, '|').replace(/<br>/g, ' ').trim());
}

/**
 * The pipe table whose header row is line `at` (its delimiter row below it), or undefined; lines
 * before `floor` belong to the table before.
 */
function pipeTableAt(lines: readonly Line[], at: number, floor: number): { table?: TextTable; next: number } {
  if (!PIPE_ROW.test(lines[at]!.text) || !PIPE_DELIMITER.test(lines[at + 1]?.text ?? ''))
    return { next: at + 1 };
  let last = at + 1;
  while (last + 1 < lines.length && PIPE_ROW.test(lines[last + 1]!.text)) last++;
  // The line above is its caption, unless it belongs to the table before.
  const above = at > floor ? lines[at - 1] : undefined;
  const caption = above && above.kind !== 'blank' && isCaptionText(above.text) ? above : undefined;
  const columns = unique(cellsOf(lines[at]!.text));
  const rows = unique(lines.slice(at + 2, last + 1).map((line) => cellsOf(line.text)[0] ?? ''));
  return {
    table: {
      start: (caption ?? lines[at]!).start,
      end: lines[last]!.end,
      ...(caption
        ? {
            caption: caption.text
              .replace(/^#{1,6}\s+/, '')
              .replace(/:$/, '')
              .trim(),
          }
        : {}),
      columns,
      rows,
    },
    next: last + 1,
  };
}

/**
 * The tables in `text`, in order and apart: pipe tables (a header row, then a delimiter row), and
 * flattened statements (a header of years or units, rows of a label and figures below, the caption
 * above). `repeated` holds a document's running headers, which never caption a table. Code fences
 * are skipped.
 *
 * @example
 * findTables('Balance Sheets\n(In millions) 2018 2017\nCash 5 4\nInventories 7 6\nTotal 12 10\n')[0]!.caption;
 * // 'Balance Sheets'
 */
export function findTables(text: string, repeated: ReadonlySet<string> = new Set()): TextTable[] {
  const lines: Line[] = [];
  let fenced = false;
  for (const line of linesOf(text)) {
    const fence = /^ {0,3}(?:```|~~~)/.test(line.text);
    if (fence) fenced = !fenced;
    // Code reads as prose here: nothing in a fence is a table.
    const kind = fence || fenced ? { kind: 'prose' as const, label: '', years: 0 } : classify(line.text);
    lines.push({ ...line, ...kind });
  }
  const tables: TextTable[] = [];
  let floor = 0;
  for (let i = 0; i < lines.length; ) {
    const pipe = pipeTableAt(lines, i, floor);
    if (pipe.table) {
      tables.push(pipe.table);
      i = floor = pipe.next;
      continue;
    }
    if (opensHeader(lines, i)) {
      const found = tableAt(lines, i, floor, repeated);
      if (found.table) {
        tables.push(found.table);
        i = floor = found.next;
        continue;
      }
    }
    i++;
  }
  return tables;
}
