import { beforeAll, describe, expect, it } from 'vitest';
import { convertXlsx } from '../../../src/ingest/convert/xlsx.js';
import { makeXlsx, XLSX_SHEETS, XLSX_TABLES } from '../../fixtures/documents/make-office.js';
import { rejectsWith } from '../fixtures.js';
import { editParts } from './edit-parts.js';
import { headingsOf, officeErrorSuite, tableAfter } from './office-support.js';

const options = { name: 'budget.xlsx', maxPages: 100 };

describe('convertXlsx', () => {
  let markdown: string;
  beforeAll(async () => {
    const converted = await convertXlsx(makeXlsx(), options);
    markdown = converted.markdown;
    expect(converted.pageCount).toBeUndefined();
    expect(converted.scannedPages).toEqual([]);
  });

  it('writes one "## name" section per sheet, in the workbook’s order, not the parts’', () => {
    expect(headingsOf(markdown)).toEqual(XLSX_SHEETS.map((text) => ({ level: 2, text })));
  });

  it('writes each sheet’s used cells as a table: strings, numbers, booleans, formulas’ values, dates', () => {
    for (const fact of XLSX_TABLES) {
      const header = `| ${fact.header.join(' | ')} |`;
      expect(tableAfter(markdown, header)).toEqual([fact.header, ...fact.rows]);
      expect(markdown).toContain(`## ${fact.section}\n\n${header}\n`);
    }
  });

  it('drops empty rows and columns, styled or not, before, inside and after the cells', () => {
    // The tables' cells are exactly the facts' (above); here, no other lines: header, rule, rows.
    expect(markdown.split('\n').filter((line) => line.startsWith('| '))).toHaveLength(2 + 4 + 2 + 2);
  });

  it('splits a large sheet into tables that each repeat the header and say which rows they hold', async () => {
    const rows = 3000;
    const { markdown: text } = await convertXlsx(makeXlsx({ rows }), options);
    const revenue = text.slice(0, text.indexOf('## Headcount'));
    const header = `| ${XLSX_TABLES[0]!.header.join(' | ')} |`;
    const tables = revenue.split('\n\n').filter((block) => block.includes(header));
    expect(tables.length).toBeGreaterThan(3);
    expect(tables[0]!.startsWith(header)).toBe(true);
    for (const [i, table] of tables.entries()) {
      const lines = table.split('\n');
      if (i > 0) expect(lines[0]).toMatch(/^Revenue, rows \d+ to \d+$/);
      expect(lines[i > 0 ? 1 : 0]).toBe(header);
      expect((lines.length - 1) * 4).toBeLessThanOrEqual(10_000);
    }
    const depots = [...revenue.matchAll(/^\| Depot (\d+) \| (\d+) \| (\d+) \|/gm)];
    expect(depots.map((match) => Number(match[1]))).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
    const [, first, last] = /^Revenue, rows (\d+) to (\d+)$/m.exec(tables[1]!)!;
    const inSecond = [...tables[1]!.matchAll(/^\| Depot (\d+) /gm)].map((match) => Number(match[1]) + 6);
    expect([inSecond[0], inSecond.at(-1)]).toEqual([Number(first), Number(last)]);
  });

  it('writes a sheet whose cells share no rows or columns as reference: value lines, not a vast table', async () => {
    const { markdown: text } = await convertXlsx(makeXlsx({ diagonal: 1200 }), options);
    const sparse = text.slice(text.indexOf('## Sparse\n\n') + '## Sparse\n\n'.length);
    expect(sparse.split('\n').slice(0, 2)).toEqual(['A1: 1', 'B2: 2']);
    expect(sparse.split('\n')).toHaveLength(1200);
    // 1200 = 1 × 26² + 20 × 26 + 4: columns A, T, D.
    expect(sparse.endsWith('\nATD1200: 1200')).toBe(true);
  });

  it('reads a sheet the workbook lists twice once', async () => {
    const twice = editParts(makeXlsx(), {
      'xl/workbook.xml': (xml) =>
        xml!.replace('</sheets>', '<sheet name="Again" sheetId="9" r:id="rId1"/></sheets>'),
    });
    expect((await convertXlsx(twice, options)).markdown).toBe(markdown);
  });

  it('cells repeating a long shared string past maxBytes are INPUT_TOO_LARGE, before any table is written', async () => {
    // 200 cells of one 10,000-character string: 2 MB of text from a file of a few KB.
    const long = 'harbour '.repeat(1250);
    const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const cells = Array.from(
      { length: 200 },
      (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>0</v></c></row>`,
    );
    const repeated = editParts(makeXlsx(), {
      'xl/sharedStrings.xml': () => `<sst ${ns}><si><t>${long}</t></si></sst>`,
      'xl/worksheets/sheet2.xml': () =>
        `<worksheet ${ns}><sheetData>${cells.join('')}</sheetData></worksheet>`,
    });
    const error = await rejectsWith(
      () => convertXlsx(repeated, { ...options, maxBytes: 1_000_000 }),
      'INPUT_TOO_LARGE',
    );
    expect(error.message).toBe(
      'budget.xlsx: its cells hold more than 1000000 bytes of text, the limit (raise maxBytes to accept it)',
    );
    const { markdown: text } = await convertXlsx(repeated, { ...options, maxBytes: 3_000_000 });
    // Within the limit it is read: each of the 200 cells (and the header each table repeats).
    expect(text.split(long.trim()).length).toBeGreaterThan(200);
  });

  it('more sheets than maxPages is INPUT_TOO_LARGE', async () => {
    const error = await rejectsWith(
      () => convertXlsx(makeXlsx(), { ...options, maxPages: 1 }),
      'INPUT_TOO_LARGE',
    );
    expect(error.message).toBe('budget.xlsx: 2 sheets, over the limit of 1');
  });
});

officeErrorSuite(convertXlsx, 'xlsx', () => makeXlsx(), 'xl/workbook.xml');
