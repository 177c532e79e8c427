// `longship add` with a PDF and a Word file, as a user runs it: the scanned page is warned of, a
// broken file stops the add before anything is written, and find cites the page of a PDF's part.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeDocx } from '../fixtures/documents/make-office.js';
import { makeEncryptedPdf, makeReportPdf, REPORT_TABLES } from '../fixtures/documents/make-pdf.js';
import { longship } from './run-cli.js';

let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'longship-cli-documents-'));
  await writeFile(join(cwd, 'report.pdf'), await makeReportPdf({ pages: 12 }));
  await writeFile(join(cwd, 'budget.docx'), await makeDocx());
  await writeFile(join(cwd, 'locked.pdf'), await makeEncryptedPdf());
});

afterAll(() => rm(cwd, { recursive: true, force: true }));

it('adds a PDF and a Word file, warns of the scanned page, and cites the page a table is on', async () => {
  const added = await longship(['add', 'report.pdf', 'budget.docx'], cwd);
  expect(added.code).toBe(0);
  expect(added.stdout).toMatch(/^report\.pdf → viking:\/\/resources\/report\.pdf {2}\d+ added/m);
  expect(added.stdout).toMatch(/^budget\.docx → viking:\/\/resources\/budget\.docx {2}1 added/m);
  expect(added.stderr).toContain('report.pdf: page 3 has no text (scanned images; run OCR to index them)');
  const table = REPORT_TABLES[1]!;
  const found = await longship(['find', 'How much revenue did cloud services bring in during 2024?'], cwd);
  expect(found.code).toBe(0);
  const first = found.stdout.split('\n').find((line) => line.includes('viking://'))!;
  expect(first).toContain('viking://resources/report.pdf/');
  expect(first).toContain(`(p. ${table.page})`);
});

it('stops at a password-protected PDF with ENCRYPTED_INPUT, writing nothing', async () => {
  const run = await longship(['add', 'locked.pdf', '--to', 'viking://resources/locked'], cwd);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('ENCRYPTED_INPUT');
  const listed = await longship(['ls', 'viking://resources'], cwd);
  expect(listed.stdout).not.toContain('locked');
});
