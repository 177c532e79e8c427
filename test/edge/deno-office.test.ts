// The Office converters in Deno: mammoth's promise wrapper needs `__proto__`, which Deno ignores
// (src/ingest/convert/docx.ts), and the others read their zips and XML with no Node module.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { convertDocx } from '../../src/ingest/convert/docx.js';
import { convertPptx } from '../../src/ingest/convert/pptx.js';
import { convertXlsx } from '../../src/ingest/convert/xlsx.js';
import { makeDocx, makePptx, makeXlsx } from '../fixtures/documents/make-office.js';

const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');
const root = fileURLToPath(new URL('../..', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'longship-deno-office-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('Deno', () => {
  it('reads Word, PowerPoint and Excel files into the same Markdown as Node', async () => {
    const files = { 'report.docx': await makeDocx(), 'deck.pptx': makePptx(), 'book.xlsx': makeXlsx() };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(folder, name), bytes);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        denoLauncher,
        'run',
        '--sloppy-imports',
        `--allow-read=${folder}`,
        '--no-prompt',
        'test/edge/deno-office-main.ts',
        folder,
      ],
      { cwd: root, timeout: 50_000 },
    );
    const options = (name: string) => ({ name, maxPages: 100 });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      'report.docx': (await convertDocx(files['report.docx'], options('report.docx'))).markdown,
      'deck.pptx': (await convertPptx(files['deck.pptx'], options('deck.pptx'))).markdown,
      'book.xlsx': (await convertXlsx(files['book.xlsx'], options('book.xlsx'))).markdown,
    });
  });
});
