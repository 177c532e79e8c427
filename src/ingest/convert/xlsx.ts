/**
 * Excel (.xlsx) to Markdown (docs/guide/documents.md): one `## sheet name` section per sheet, in the
 * workbook's order, its cells as a pipe table whose first row is the header. Values are what the
 * cell holds, not how it is formatted (0.153, not 15.3%), save dates, written as ISO dates; a
 * formula gives its last computed value. Empty rows and columns are dropped. A large sheet becomes
 * several tables, each repeating the header, so that each stays whole in one part of a split document.
 */
import { Parser } from 'htmlparser2';
import type { ConvertedDocument, Converter, ConvertOptions } from './converted.js';
import { markdownTable } from './markdown-table.js';
import {
  checkPageCount,
  childElement,
  childElements,
  createCheckpoint,
  decodePart,
  descendants,
  isXmlPart,
  type OfficeParts,
  officeConverter,
  officeError,
  openOfficeZip,
  relationshipId,
  relationships,
  xmlPart,
} from './ooxml.js';

/** A table holds at most this many cells, and about this many characters (a split part's default). */
const maxTableCells = 10_000;
const maxTableChars = 6_000;

/** Excel's built-in number formats that show a date or a time. */
const dateFormatIds = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47,
]);

/** Whether a custom number format shows a date or time: d, m, y, h or s outside quotes and brackets. */
function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** What the workbook says about reading its cells: shared strings, which styles are dates, its epoch. */
interface Workbook {
  strings: string[];
  dateStyles: Set<number>;
  date1904: boolean;
}

function readWorkbook(parts: OfficeParts, path: string, root: Element, options: ConvertOptions): Workbook {
  const rels = [...relationships(parts, path, options).values()];
  const part = (type: string) => rels.find((rel) => rel.type === type && parts.has(rel.target))?.target;
  const stringsPath = part('sharedStrings');
  const strings = stringsPath ? sharedStrings(parts.get(stringsPath)!) : [];
  const dateStyles = new Set<number>();
  const stylesPath = part('styles');
  if (stylesPath) {
    const styles = xmlPart(parts, stylesPath, options);
    const custom = new Map(
      descendants(styles, 'numFmt').map((format) => [
        Number(format.getAttribute('numFmtId')),
        format.getAttribute('formatCode') ?? '',
      ]),
    );
    const formats = childElement(styles, 'cellXfs');
    (formats ? childElements(formats, 'xf') : []).forEach((xf, index) => {
      const id = Number(xf.getAttribute('numFmtId'));
      const code = custom.get(id);
      if (code !== undefined ? isDateFormat(code) : dateFormatIds.has(id)) dateStyles.add(index);
    });
  }
  const properties = childElement(root, 'workbookPr');
  const date1904 = ['1', 'true'].includes(properties?.getAttribute('date1904') ?? '');
  return { strings, dateStyles, date1904 };
}

/**
 * A date serial as ISO text. Day 0 of the 1900 system is 1899-12-31, and Excel counts a 29 February
 * 1900 that never was (serial 60), so serials past it are one day ahead of a plain count.
 */
function serialDate(serial: number, date1904: boolean): string {
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, serial < 60 ? 31 : 30);
  const iso = new Date(epoch + Math.round(serial * 86_400) * 1000).toISOString();
  const date = iso.slice(0, 10);
  const time = iso.slice(11, 19).replace(/:00$/, '');
  if (serial < 1) return time;
  return Number.isInteger(serial) ? date : `${date} ${time}`;
}

/** A cell as the sheet holds it: its type (`t`), style (`s`), value (`v`) and inline string. */
interface RawCell {
  type: string;
  style: number;
  raw: string;
  inline: string;
}

/** A cell's value as text. */
function cellValue(cell: RawCell, book: Workbook): string {
  const { type, raw } = cell;
  if (type === 'inlineStr') return cell.inline;
  if (raw === '') return '';
  if (type === 's') return book.strings[Number(raw)] ?? '';
  if (type === 'b') return raw === '1' ? 'TRUE' : 'FALSE';
  if (type !== 'n') return raw;
  const number = Number(raw);
  if (!Number.isFinite(number)) return raw;
  if (book.dateStyles.has(cell.style) && number >= 0 && number < 2_958_466) {
    return serialDate(number, book.date1904);
  }
  // Excel shows at most 15 significant digits; the file holds 17 (0.1 + 0.2 as 0.30000000000000004).
  return String(Number(number.toPrecision(15)));
}

/** "BC12" as its 1-based column (0 when the reference has none). */
function columnOf(reference: string): number {
  let column = 0;
  for (const letter of /^[A-Z]*/i.exec(reference)![0].toUpperCase())
    column = column * 26 + letter.charCodeAt(0) - 64;
  return column;
}

interface Cell {
  row: number;
  column: number;
  text: string;
}

/**
 * Reads a part that grows with the data (a sheet's cells, the shared strings) with htmlparser2's
 * streaming parser: xmldom builds a DOM at about 4 MB/s, this reads ten times as fast and holds
 * no tree. Element names come without their prefix.
 */
function scanXml(
  part: Uint8Array,
  on: {
    open(name: string, attributes: Record<string, string>): void;
    text(text: string): void;
    close(name: string): void;
  },
): void {
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  const parser = new Parser(
    {
      onopentag: (name, attributes) => on.open(local(name), attributes),
      ontext: (text) => on.text(text),
      onclosetag: (name) => on.close(local(name)),
    },
    { xmlMode: true },
  );
  parser.end(decodePart(part));
}

/** The shared strings: each item's runs, without the phonetic guides (`rPh`). */
function sharedStrings(part: Uint8Array): string[] {
  const strings: string[] = [];
  let item: string | undefined;
  let inText = false;
  let phonetic = 0;
  scanXml(part, {
    open(name) {
      if (name === 'si') item = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && item !== undefined && phonetic === 0) inText = true;
    },
    text(text) {
      if (inText) item += text;
    },
    close(name) {
      if (name === 'si') strings.push(item ?? '');
      else if (name === 'rPh') phonetic--;
      else if (name === 't') inText = false;
    },
  });
  return strings;
}

/** A sheet's cells that hold something (a chart sheet has none). */
function sheetCells(part: Uint8Array, book: Workbook): Cell[] {
  const cells: Cell[] = [];
  let inData = false;
  let row = 0;
  let column = 0;
  let cell: RawCell | undefined;
  let capture: 'raw' | 'inline' | undefined;
  let phonetic = 0;
  scanXml(part, {
    open(name, attributes) {
      if (name === 'sheetData') inData = true;
      if (!inData) return;
      if (name === 'row') {
        row = Number(attributes.r) || row + 1;
        column = 0;
      } else if (name === 'c') {
        column = columnOf(attributes.r ?? '') || column + 1;
        cell = { type: attributes.t || 'n', style: Number(attributes.s) || 0, raw: '', inline: '' };
      } else if (name === 'v' && cell) capture = 'raw';
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && cell && phonetic === 0) capture = 'inline';
    },
    text(text) {
      if (capture && cell) cell[capture] += text;
    },
    close(name) {
      if (name === 'sheetData') inData = false;
      else if (name === 'v' || name === 't') capture = undefined;
      else if (name === 'rPh') phonetic--;
      else if (name === 'c' && cell) {
        const text = cellValue(cell, book);
        if (text.trim() !== '') cells.push({ row, column, text });
        cell = undefined;
      }
    },
  });
  return cells;
}

/**
 * A sheet's cells as tables: the rows and columns that hold something, the first row the header
 * of every table. A grid far larger than its cells (a value in A1 and one in XFD1048576) is
 * written as `B7: value` lines instead of a table of empty cells.
 */
function sheetTables(name: string, cells: Cell[]): string[] {
  if (cells.length === 0) return [];
  const rows = [...new Set(cells.map((cell) => cell.row))].sort((a, b) => a - b);
  const columns = [...new Set(cells.map((cell) => cell.column))].sort((a, b) => a - b);
  if (rows.length * columns.length > Math.max(1_000_000, 20 * cells.length)) {
    return [cells.map((cell) => `${columnName(cell.column)}${cell.row}: ${cell.text}`).join('\n')];
  }
  const rowIndex = new Map(rows.map((row, i) => [row, i]));
  const columnIndex = new Map(columns.map((column, i) => [column, i]));
  const grid = rows.map(() => Array.from({ length: columns.length }, () => ''));
  for (const cell of cells) grid[rowIndex.get(cell.row)!]![columnIndex.get(cell.column)!] = cell.text;
  const [header, ...body] = grid;
  const length = (row: string[]) => row.reduce((sum, text) => sum + text.length + 3, 0);
  const tables: string[] = [];
  let start = 0;
  do {
    let end = start + 1;
    let chars = length(header!) + length(body[start] ?? []);
    while (
      end < body.length &&
      (end - start + 2) * columns.length <= maxTableCells &&
      chars + length(body[end]!) <= maxTableChars
    ) {
      chars += length(body[end]!);
      end++;
    }
    const caption = start === 0 ? undefined : `${name}, rows ${rows[start + 1]} to ${rows[end]}`;
    tables.push(markdownTable([header!, ...body.slice(start, end)], caption));
    start = end;
  } while (start < body.length);
  return tables;
}

function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** The workbook's main part, as the package's root relationships name it. */
function workbookPath(parts: OfficeParts, options: ConvertOptions): string {
  const root = [...relationships(parts, '', options).values()].find((rel) => rel.type === 'officeDocument');
  return root?.target ?? 'xl/workbook.xml';
}

/**
 * Reads an Excel file (.xlsx) as Markdown; more sheets than `maxPages` is `INPUT_TOO_LARGE`.
 * See {@link Converter} for the errors.
 *
 * @example
 * const { markdown } = await convertXlsx(bytes, { name: 'budget.xlsx', maxPages: 2000 });
 */
export const convertXlsx: Converter = officeConverter(
  'xlsx',
  async (bytes, options): Promise<ConvertedDocument> => {
    const parts = openOfficeZip(bytes, options, 'xlsx', isXmlPart);
    const path = workbookPath(parts, options);
    const root = xmlPart(parts, path, options);
    const rels = relationships(parts, path, options);
    const sheets = descendants(root, 'sheet');
    checkPageCount(sheets.length, options, 'sheets');
    const book = readWorkbook(parts, path, root, options);
    let cellCount = 0;
    let textLength = 0;
    const read = new Set<string>();
    const step = createCheckpoint(options);
    const sections: string[] = [];
    for (const sheet of sheets) {
      await step();
      const name = (sheet.getAttribute('name') ?? '').replace(/\s+/g, ' ').trim();
      const target = rels.get(relationshipId(sheet) ?? '')?.target;
      if (!target || !parts.has(target)) {
        throw officeError('CORRUPT_INPUT', options, `the sheet ${JSON.stringify(name)} is missing`);
      }
      // A sheet listed twice is read once: a listing per sheet part keeps the work within the
      // parts' inflated size, where 2,000 listings of one part would cost minutes.
      if (read.has(target)) continue;
      read.add(target);
      const cells = sheetCells(parts.get(target)!, book);
      cellCount += cells.length;
      // Cells that repeat one long shared string are text far past the file's size: refused here,
      // before the tables are written (docs/guide/documents.md, "Limits and failures").
      textLength += cells.reduce((sum, cell) => sum + cell.text.length, 0);
      if (textLength > (options.maxBytes ?? Number.POSITIVE_INFINITY)) {
        throw officeError(
          'INPUT_TOO_LARGE',
          options,
          `its cells hold more than ${options.maxBytes} bytes of text, the limit (raise maxBytes to accept it)`,
        );
      }
      sections.push([`## ${name}`, ...sheetTables(name, cells)].join('\n\n'));
    }
    if (cellCount === 0) throw officeError('UNSUPPORTED_INPUT', options, 'the Excel workbook has no values');
    return { markdown: sections.join('\n\n'), pageCount: undefined, scannedPages: [] };
  },
);
