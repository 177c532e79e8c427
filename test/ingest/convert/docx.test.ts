import { Document, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/ingest/convert/docx.js';
import {
  DOCX_HEADINGS,
  DOCX_LIST,
  DOCX_TABLES,
  extraDocxSection,
  makeDocx,
} from '../../fixtures/documents/make-office.js';
import { rejectsWith } from '../fixtures.js';
import { editParts } from './edit-parts.js';
import { headingsOf, officeErrorSuite, tableAfter } from './office-support.js';

const options = { name: 'report.docx', maxPages: 100 };

/** A document of captioned tables, as `docx` writes it, with Word's Caption style. */
async function captionedTables(children: (Paragraph | Table)[]): Promise<Uint8Array> {
  const document = new Document({
    styles: { paragraphStyles: [{ id: 'Caption', name: 'caption', basedOn: 'Normal' }] },
    sections: [{ children }],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

const table = (rows: string[][]) =>
  new Table({
    rows: rows.map(
      (row) =>
        new TableRow({ children: row.map((text) => new TableCell({ children: [new Paragraph(text)] })) }),
    ),
  });
const caption = (text: string) => new Paragraph({ text, style: 'Caption' });

describe('convertDocx', () => {
  let markdown: string;
  beforeAll(async () => {
    const converted = await convertDocx(await makeDocx(), options);
    markdown = converted.markdown;
    expect(converted.pageCount).toBeUndefined();
    expect(converted.scannedPages).toEqual([]);
  });

  it('writes the title and Heading 1/2 paragraphs as # lines, in order', () => {
    expect(headingsOf(markdown)).toEqual(DOCX_HEADINGS);
  });

  it('writes the paragraphs and the nested list', () => {
    expect(markdown).toContain('\n\nSpending stayed close to plan. Two projects were funded:\n\n');
    expect(markdown).toContain(`\n\n${DOCX_LIST.join('\n')}\n\n`);
  });

  it('writes each table as a pipe table, its caption on the line above, its numbers in their cells', () => {
    for (const fact of DOCX_TABLES) {
      expect(tableAfter(markdown, fact.caption!)).toEqual([fact.header, ...fact.rows]);
      // In its section: the last heading above the caption is the section's.
      const before = markdown.slice(0, markdown.indexOf(fact.caption!));
      expect(headingsOf(before).at(-1)?.text).toBe(fact.section);
    }
  });

  it('moves a caption Word put below its table to above it, once', () => {
    const staff = DOCX_TABLES[1]!;
    expect(markdown.split(staff.caption!)).toHaveLength(2);
    expect(markdown).toContain(`${staff.caption}\n| ${staff.header.join(' | ')} |`);
  });

  it('escapes a paragraph that would read as Markdown syntax', () => {
    expect(markdown).toMatch(/\n\n\\# of vessels served: 4,210$/);
  });

  it('keeps a Caption-styled paragraph with its table whatever its words, on the side the document uses', async () => {
    const bytes = await captionedTables([
      table([
        ['Currency', 'Rate'],
        ['NOK', '11.62'],
      ]),
      caption('Exchange rates used (per EUR)'),
      table([
        ['Port', 'Calls'],
        ['Bergen', '318'],
      ]),
      caption('Port calls in the year'),
      new Paragraph('Traffic grew.'),
    ]);
    const { markdown: text } = await convertDocx(bytes, options);
    expect(tableAfter(text, 'Exchange rates used (per EUR)')).toEqual([
      ['Currency', 'Rate'],
      ['NOK', '11.62'],
    ]);
    expect(tableAfter(text, 'Port calls in the year')).toEqual([
      ['Port', 'Calls'],
      ['Bergen', '318'],
    ]);
    expect(text.endsWith('\n\nTraffic grew.')).toBe(true);
  });

  it('takes an unstyled "Table N" paragraph next to a table as its caption, and no other paragraph', async () => {
    const bytes = await captionedTables([
      new Paragraph('Table 7: Tonnage by month (tonnes)'),
      table([
        ['Month', 'Tonnes'],
        ['May', '48,120'],
      ]),
      new Paragraph('Figures are provisional.'),
      table([['Alone'], ['1']]),
    ]);
    const { markdown: text } = await convertDocx(bytes, options);
    expect(tableAfter(text, 'Table 7: Tonnage by month (tonnes)')).toEqual([
      ['Month', 'Tonnes'],
      ['May', '48,120'],
    ]);
    expect(text).toContain('Figures are provisional.\n\n| Alone |');
  });

  it('reads a 50-section document with every table under its own caption and section', async () => {
    const { markdown: text } = await convertDocx(await makeDocx({ sections: 50 }), options);
    for (const n of [1, 25, 50]) {
      const fact = extraDocxSection(n);
      expect(tableAfter(text, fact.caption!)).toEqual([fact.header, ...fact.rows]);
      expect(headingsOf(text.slice(0, text.indexOf(fact.caption!))).at(-1)?.text).toBe(fact.section);
    }
  });

  it('reads a document part with 100,000 stray elements and comments after its root as the document', async () => {
    // xmldom scanned the top level again for each: minutes, then CORRUPT_INPUT for the elements.
    const stray = editParts(await makeDocx(), {
      'word/document.xml': (xml) => xml! + '<w:p/><!-- stray -->'.repeat(50_000),
    });
    expect((await convertDocx(stray, options)).markdown).toBe(markdown);
  });

  it('a document part cut short, 100,000 elements before its end, is CORRUPT_INPUT at once', async () => {
    // mammoth's reader failed too, but only after xmldom, taking the root without its end tag for an
    // empty one, had added them all to the top level: minutes.
    const damaged = editParts(await makeDocx(), {
      'word/document.xml': (xml) => xml!.replace('</w:document>', '<w:p/>'.repeat(100_000)),
    });
    const error = await rejectsWith(() => convertDocx(damaged, options), 'CORRUPT_INPUT');
    expect(error.message).toMatch(/^report\.docx: not a readable Word file: /);
  });

  it('a document without text is UNSUPPORTED_INPUT', async () => {
    const error = await rejectsWith(
      async () => convertDocx(await captionedTables([new Paragraph('')]), options),
      'UNSUPPORTED_INPUT',
    );
    expect(error.message).toContain('report.docx');
  });
});

officeErrorSuite(convertDocx, 'docx', () => makeDocx(), 'word/document.xml');
