import { describe, expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { parseMarkdown } from '../../src/ingest/parse/parse-markdown.js';
import { parseText } from '../../src/ingest/parse/parse-text.js';
import { splitDocument, splitText } from '../../src/ingest/parse/split.js';
import { statementTerms } from '../../src/ingest/parse/statement-terms.js';
import { findTables } from '../../src/ingest/parse/tables.js';
import { prose } from './fixtures.js';
import { hashEmbedder } from './ingest-support.js';

/** A cash flow statement as a PDF converter flattens it: a row per line, a page break inside. */
const statement = [
  'Harbour Freight Company',
  'Consolidated Statement of Cash Flows',
  'Years ended December 31',
  '(Millions) 2021 2020 2019',
  'Cash Flows from Operating Activities',
  'Net income $ 1,204 $ 987 $ 1,050',
  'Depreciation and amortization 410 398 377',
  'Net cash provided by operating activities 1,614 1,385 1,427',
  'Cash Flows from Investing Activities',
  'Purchases of property, plant and equipment (PP&E) (612) (540) (575)',
  'Proceeds from sale of PP&E and other assets 12 9 30',
  '',
  '<!-- Page 8 -->',
  'Acquisitions, net of cash acquired (45) — (120)',
  'Net cash used in investing activities (645) (531) (665)',
  'Dividends paid to shareholders (300) (280) (260)',
].join('\n');

const filing = [
  prose('harbour', 30),
  '',
  statement,
  'The accompanying notes are an integral part of this statement.',
  '',
  prose('voyage', 60),
  '',
  'Our 2021 cash flow statement review: the cash flow of 2021 and the statement of 2021 plans.',
  '',
].join('\n');

describe('findTables', () => {
  it('reads a flattened statement as one table with its caption, column headers and row labels', () => {
    const [table, ...more] = findTables(filing);
    expect(more).toEqual([]);
    expect(table!.caption).toBe('Consolidated Statement of Cash Flows');
    expect(table!.columns).toEqual(['(Millions) 2021 2020 2019']);
    expect(table!.rows).toContain('Purchases of property, plant and equipment (PP&E)');
    expect(table!.rows).toContain('Cash Flows from Investing Activities');
    expect(filing.slice(table!.start, table!.end)).toBe(`${statement}\n`);
  });

  it('reads a pipe table with the caption on the line above it', () => {
    const text = `Some words first.\n\nTable 2: Staff by site\n| Site | Staff |\n| --- | --- |\n| Oslo | 41 |\n| Bergen | 12 |\n\nAfter.\n`;
    const [table] = findTables(text);
    expect(table).toMatchObject({
      caption: 'Table 2: Staff by site',
      columns: ['Site', 'Staff'],
      rows: ['Oslo', 'Bergen'],
    });
    expect(text.slice(table!.start, table!.end)).toBe(
      'Table 2: Staff by site\n| Site | Staff |\n| --- | --- |\n| Oslo | 41 |\n| Bergen | 12 |\n',
    );
  });

  it("never takes the last row of the table above for a pipe table's caption", () => {
    const text =
      'Balance Sheets\n(In millions) 2018 2017\nCash 5 4\nInventories 7 6\nAccounts receivable 12 10\n' +
      '| Site | Staff |\n| --- | --- |\n| Oslo | 41 |\n';
    const [statement, pipe] = findTables(text);
    expect(statement!.caption).toBe('Balance Sheets');
    expect(pipe!.caption).toBeUndefined();
    expect(pipe!.start).toBe(statement!.end);
  });

  it('finds none in prose that mentions years and figures, nor in code', () => {
    const text = [
      'In 2021 revenue rose 5% to $1,200 million, and in 2020 it had fallen 3% to $1,143 million.',
      'Margins held at 12 percent in 2019 and 2020 despite the cost of timber and rope.',
      '',
      '```',
      '(Millions) 2021 2020',
      'Net income 1 2',
      'Taxes 3 4',
      'Total 4 6',
      '```',
      '',
    ].join('\n');
    expect(findTables(text)).toEqual([]);
  });

  it('does not take a running header repeated across pages for a caption', () => {
    const page = (n: number) =>
      `<!-- Page ${n} -->\nHarbour Freight Company\nSegment Results\n(In millions) 2021 2020\nNorth 12 10\nSouth 8 7\nWest 5 4\n\n`;
    const text = page(1) + page(2) + page(3);
    const tables = findTables(text, new Set(['Harbour Freight Company']));
    expect(tables.map((t) => t.caption)).toEqual(['Segment Results', 'Segment Results', 'Segment Results']);
  });
});

describe('splitting a document with tables', () => {
  const nodes = splitDocument(parseText(filing), { maxTokens: 600, mergeBelow: 100 });
  const leaves = nodes.filter((n) => n.kind === 'file');

  it('keeps a statement whole in one part, across its page break, titled by its caption', () => {
    const holding = leaves.filter((n) => n.content!.includes('Purchases of property'));
    expect(holding).toHaveLength(1);
    expect(holding[0]!.content).toContain(statement);
    expect(holding[0]!.title).toBe('Consolidated Statement of Cash Flows');
    expect(leaves.map((n) => n.content).join('')).toBe(filing);
  });

  it("indexes the part under the statement's caption, column headers and an analyst's names", () => {
    const part = leaves.find((n) => n.content!.includes('Purchases of property'))!;
    expect(part.headings).toEqual(
      expect.arrayContaining([
        'Consolidated Statement of Cash Flows',
        '(Millions) 2021 2020 2019',
        'cash flow statement',
        'capital expenditure capex',
      ]),
    );
  });

  it('titles a later part that holds a table by its caption, not by the first line that reads like one', () => {
    const long = [prose('harbour', 60), '', statement, '', prose('voyage', 60), ''].join('\n');
    const parts = splitDocument(parseText(long), { maxTokens: 600, mergeBelow: 100 }).filter(
      (n) => n.kind === 'file' && n.content!.includes('Purchases of property'),
    );
    expect(parts.map((n) => n.title)).toEqual(['Consolidated Statement of Cash Flows']);
  });

  it('keeps a pipe table whole and indexes its part under its caption and column headers', () => {
    const table = ['Table 2: Staff by site', '| Site | Staff | Budget |', '| --- | --- | --- |'];
    for (let i = 0; i < 40; i++) table.push(`| Site ${i} | ${i + 10} | ${i * 1000} |`);
    const markdown = `# Report\n\n${prose('tide', 40)}\n\n${table.join('\n')}\n\n${prose('anchor', 40)}\n`;
    const parts = splitDocument(parseMarkdown(markdown), { maxTokens: 600, mergeBelow: 100 }).filter(
      (n) => n.kind === 'file' && n.content!.includes('| Site 0 |'),
    );
    expect(parts).toHaveLength(1);
    expect(parts[0]!.content).toContain(table.join('\n'));
    expect(parts[0]!.title).toBe('Table 2: Staff by site');
    expect(parts[0]!.headings).toEqual(
      expect.arrayContaining(['Table 2: Staff by site', 'Site', 'Staff', 'Budget']),
    );
  });

  it('cuts prose without tables as before', () => {
    const text = `${prose('tide', 80)}\n\n${prose('anchor', 80)}\n\n${prose('beacon', 80)}\n`;
    expect(splitText(text, 600, findTables(text))).toEqual(splitText(text, 600));
    const plain = splitDocument(parseMarkdown(`# Log\n\n${text}`), { maxTokens: 600, mergeBelow: 100 });
    expect(
      plain.filter((n) => n.kind === 'file').every((n) => !n.headings.includes('cash flow statement')),
    ).toBe(true);
  });
});

describe('statementTerms', () => {
  it("names a statement's kind and its standard rows as an analyst asks for them", () => {
    expect(statementTerms(['CONSOLIDATED STATEMENTS OF OPERATIONS', 'Cost of revenues'])).toEqual([
      'income statement',
      'COGS cost of goods sold',
    ]);
    expect(statementTerms(['Weekly reading list'])).toEqual([]);
  });
});

describe('finding a table', () => {
  it('finds the statement by a row label and a year, through its caption and headers', async () => {
    const longship = await openLongship({ store: 'memory', embedder: hashEmbedder().embedder });
    try {
      await longship.addResource(filing, { name: 'filing.txt', maxTokens: 600, mergeBelow: 100 });
      const found = await longship.find('capital expenditure in 2021', {
        hybrid: { vector: false },
        limit: 1,
      });
      const [hit] = found.resources;
      expect(await longship.read(hit!.uri)).toContain(
        'Purchases of property, plant and equipment (PP&E) (612)',
      );
    } finally {
      await longship.close();
    }
  });
});
