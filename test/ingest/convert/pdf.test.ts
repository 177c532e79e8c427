import { beforeAll, describe, expect, it } from 'vitest';
import { PAGE_BREAK } from '../../../src/ingest/convert/converted.js';
import { convertPdf } from '../../../src/ingest/convert/pdf.js';
import { applyOutline } from '../../../src/ingest/convert/pdf-headings.js';
import type { PageElement, PdfLine } from '../../../src/ingest/convert/pdf-layout.js';
import {
  makeEncryptedPdf,
  makeImageOnlyPdf,
  makePlacedPdf,
  makeReportPdf,
  makeTextPdf,
  makeTwoColumnPdf,
  pdfHeaderOnNoise,
  REPORT_HEADINGS,
  REPORT_SCANNED_PAGE,
  REPORT_SENTENCES,
  REPORT_TABLES,
  TWO_COLUMN_TEXT,
  truncatedCopy,
} from '../../fixtures/documents/make-pdf.js';
import { rejectsWith } from '../fixtures.js';

const options = { name: 'reports/annual.pdf', maxPages: 100 };

/** The pipe table that starts on the line after `caption`, as rows of trimmed cells (no separator row). */
function tableAfter(markdown: string, caption: string): string[][] {
  const lines = markdown.split('\n');
  const at = lines.indexOf(caption);
  expect(at, `caption "${caption}" on a line of its own`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  expect(rows[1]?.every((cell) => /^-+$/.test(cell))).toBe(true);
  return [rows[0]!, ...rows.slice(2)];
}

/** The text of each page: the text after the (n - 1)th form feed line, for page n. */
const pagesOf = (markdown: string) => markdown.split(PAGE_BREAK);

describe('convertPdf on a report with an outline', () => {
  let report: Uint8Array;
  let markdown: string;
  let pageCount: number | undefined;
  let scannedPages: number[];

  beforeAll(async () => {
    report = await makeReportPdf();
    ({ markdown, pageCount, scannedPages } = await convertPdf(report, options));
  });

  it('writes the outline entries as headings at their levels, on their pages', () => {
    const headings = markdown.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual(REPORT_HEADINGS.map((h) => `${'#'.repeat(h.level)} ${h.title}`));
    for (const h of REPORT_HEADINGS) {
      expect(pagesOf(markdown)[h.page - 1]).toContain(`${'#'.repeat(h.level)} ${h.title}\n`);
    }
  });

  it('writes each table as a pipe table under its caption, each figure in its cell', () => {
    for (const fact of REPORT_TABLES) {
      const rows = tableAfter(markdown, fact.caption);
      expect(rows).toEqual([fact.header, ...fact.rows]);
      const row = rows.find((cells) => cells[0] === fact.cell.row)!;
      expect(row[fact.header.indexOf(fact.cell.column)]).toBe(fact.cell.value);
      expect(pagesOf(markdown)[fact.page - 1]).toContain(`${fact.caption}\n| ${fact.header.join(' | ')} |`);
    }
  });

  it('parts pages with one form feed line each, every sentence after as many as its page says', () => {
    expect(pageCount).toBe(4);
    expect(markdown.split('\f')).toHaveLength(pageCount!);
    expect(pagesOf(markdown)).toHaveLength(pageCount!);
    for (const { page, text } of REPORT_SENTENCES) {
      const before = markdown.slice(0, markdown.indexOf(text));
      expect(before.split('\f')).toHaveLength(page);
    }
  });

  it('lists the page that is only an image as scanned, and leaves it empty', () => {
    expect(scannedPages).toEqual([REPORT_SCANNED_PAGE]);
    expect(pagesOf(markdown)[REPORT_SCANNED_PAGE - 1]).toBe('');
  });

  it('joins the lines of a paragraph into one', () => {
    expect(markdown).toContain(`${REPORT_SENTENCES[0]!.text} The ferry harbour was inspected on day 1`);
  });

  it("leaves the caller's bytes as they were, so the same bytes convert again alike", async () => {
    const again = await convertPdf(report, options);
    expect(again.markdown).toBe(markdown);
  });

  it('leaves no DOMMatrix behind where there was none (pdf.js only needs one while it loads)', () => {
    expect('DOMMatrix' in globalThis).toBe(false);
  });

  it('makes the same bytes on every run', async () => {
    expect(await makeReportPdf()).toEqual(report);
  });
});

describe('convertPdf on pages without an outline', () => {
  it('reads a two-column page column by column, the left column first', async () => {
    const { markdown } = await convertPdf(await makeTwoColumnPdf(), options);
    const at = (text: string) => {
      const index = markdown.indexOf(text);
      expect(index, text).toBeGreaterThanOrEqual(0);
      return index;
    };
    const lastLeft = Math.max(...TWO_COLUMN_TEXT.left.map(at));
    const firstRight = Math.min(...TWO_COLUMN_TEXT.right.map(at));
    expect(lastLeft).toBeLessThan(firstRight);
    expect(at(TWO_COLUMN_TEXT.secondPage)).toBeGreaterThan(markdown.indexOf('\f'));
  });

  it('takes headings from font sizes, the largest as level 1', async () => {
    const { markdown } = await convertPdf(await makeTwoColumnPdf(), options);
    const headings = markdown.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual([
      `# ${TWO_COLUMN_TEXT.title}`,
      `## ${TWO_COLUMN_TEXT.left[0]}`,
      `## ${TWO_COLUMN_TEXT.right[0]}`,
    ]);
  });

  it('reads a running header with its page number, and a line with a wide space, as lines', async () => {
    const list = ['SEQUENCE;', 'SET;', 'CHOICE;', 'ANY;', 'BOOLEAN;', 'INTEGER;'];
    const pdf = await makePlacedPdf([
      [
        { text: 'Chapter 2: Structure handling', x: 72, y: 60 },
        { text: '3', x: 515, y: 60 },
        ...list.map((text, i) => ({ text: `- ${text}`, x: 90, y: 100 + 14 * i })),
        // Justified text can leave a space wider than a column gutter between two sentences.
        { text: 'This version does not handle the REAL type.', x: 72, y: 190 },
        { text: 'Nor does it support AUTOMATIC TAGS.', x: 318, y: 190 },
      ],
    ]);
    const { markdown } = await convertPdf(pdf, options);
    expect(markdown).not.toContain('|');
    expect(markdown).toContain('Chapter 2: Structure handling 3');
    expect(markdown).toContain(
      'This version does not handle the REAL type. Nor does it support AUTOMATIC TAGS.',
    );
  });

  it('escapes text that Markdown would read as a heading or a table', async () => {
    const pdf = await makeTextPdf([['# not a heading', '| not a table |', 'Plain text closes the page.']]);
    const { markdown } = await convertPdf(pdf, options);
    expect(markdown.split('\n\n')).toEqual([
      '\\# not a heading',
      '\\| not a table |',
      'Plain text closes the page.',
    ]);
  });
});

describe('applyOutline', () => {
  const line = (text: string, y: number): PdfLine => ({ kind: 'line', text, x: 72, right: 300, y, size: 11 });

  it('joins a title wrapped over two lines into one heading', () => {
    const page: PageElement[] = [
      line('Costs of running the', 700),
      line('northern harbour', 687),
      line('Body.', 660),
    ];
    applyOutline(
      [page],
      [{ title: 'Costs of running the northern harbour', level: 1, pageIndex: 0, top: 715 }],
    );
    expect(page).toEqual([
      { ...line('Costs of running the northern harbour', 700), heading: 1 },
      line('Body.', 660),
    ]);
  });

  it('inserts a title no line says where it points, and picks the line nearest it among equals', () => {
    const page: PageElement[] = [
      line('Summary', 700),
      line('Intro text.', 680),
      line('Summary', 400),
      line('End.', 380),
    ];
    applyOutline(
      [page],
      [
        { title: 'Summary', level: 2, pageIndex: 0, top: 415 },
        { title: 'Figures', level: 2, pageIndex: 0, top: 500 },
      ],
    );
    expect(page.map((e) => (e as PdfLine).heading ?? (e as PdfLine).text)).toEqual([
      'Summary',
      'Intro text.',
      2,
      2,
      'End.',
    ]);
    expect((page[2] as PdfLine).text).toBe('Figures');
    expect((page[3] as PdfLine).text).toBe('Summary');
  });
});

describe('convertPdf refuses', () => {
  it('a PDF whose every page is a scan, as needing OCR', async () => {
    const error = await rejectsWith(
      async () => convertPdf(await makeImageOnlyPdf(2), options),
      'UNSUPPORTED_INPUT',
    );
    expect(error.message).toContain('reports/annual.pdf');
    expect(error.message).toMatch(/no text layer.*OCR/);
  });

  it('a password-protected PDF', async () => {
    const error = await rejectsWith(
      async () => convertPdf(await makeEncryptedPdf(), options),
      'ENCRYPTED_INPUT',
    );
    expect(error.message).toContain('reports/annual.pdf');
  });

  it('a truncated PDF, with what pdf.js said as the cause', async () => {
    const truncated = truncatedCopy(await makeReportPdf(), 0.5);
    const error = await rejectsWith(() => convertPdf(truncated, options), 'CORRUPT_INPUT');
    expect(error.message).toContain('reports/annual.pdf');
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('noise after a PDF header, and bytes that are no PDF at all', async () => {
    await rejectsWith(() => convertPdf(pdfHeaderOnNoise(), options), 'CORRUPT_INPUT');
    await rejectsWith(() => convertPdf(new TextEncoder().encode('just some text'), options), 'CORRUPT_INPUT');
    await rejectsWith(() => convertPdf(new Uint8Array(), options), 'CORRUPT_INPUT');
  });

  it('a PDF with more pages than maxPages, naming both counts', async () => {
    const error = await rejectsWith(
      async () => convertPdf(await makeReportPdf(), { ...options, maxPages: 3 }),
      'INPUT_TOO_LARGE',
    );
    expect(error.message).toMatch(/reports\/annual\.pdf has 4 pages.*3/);
  });
});

describe('convertPdf aborted', () => {
  it('before it starts, with the reason as the cause', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user left'));
    const error = await rejectsWith(
      async () => convertPdf(await makeReportPdf(), { ...options, signal: controller.signal }),
      'ABORTED',
    );
    expect((error.cause as Error).message).toBe('user left');
  });

  it('while pdf.js loads', async () => {
    const report = await makeReportPdf();
    const controller = new AbortController();
    const converting = convertPdf(report, { ...options, signal: controller.signal });
    controller.abort();
    await rejectsWith(() => converting, 'ABORTED');
  });

  it('between pages', async () => {
    const report = await makeReportPdf();
    // A signal that fires once the converter has looked at it three times: past loading, between pages.
    let looks = 0;
    const signal = {
      get aborted() {
        looks++;
        return looks > 3;
      },
      reason: new Error('stopped between pages'),
      addEventListener() {},
      removeEventListener() {},
    } as unknown as AbortSignal;
    const error = await rejectsWith(() => convertPdf(report, { ...options, signal }), 'ABORTED');
    expect(looks).toBeGreaterThan(3);
    expect((error.cause as Error).message).toBe('stopped between pages');
  });
});
