/**
 * What the Word, PowerPoint and Excel converters' tests share: reading a pipe table back out of
 * the Markdown, and the suite of files each must refuse with the right code, naming the file.
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Converter } from '../../../src/ingest/convert/converted.js';
import {
  makeEncryptedOffice,
  makeLegacyOffice,
  makeZipBomb,
  truncatedCopy,
  understatedSizes,
} from '../../fixtures/documents/make-office.js';
import { rejectsWith } from '../fixtures.js';

/** The cells of one pipe-table line, unescaped. */
function cells(line: string): string[] {
  return line
    .slice(2, -2)
    .split(/(?<!\\) \| /)
    .map((cell) => cell.trim());
}

/**
 * The table that starts on the line right after `caption` (or on `caption` itself when that is a
 * table's header line), as rows of cells, the header first and the `---` row left out.
 */
export function tableAfter(markdown: string, caption: string): string[][] {
  const lines = markdown.split('\n');
  const at = lines.indexOf(caption);
  expect(at, `no line ${JSON.stringify(caption)}`).toBeGreaterThanOrEqual(0);
  const start = caption.startsWith('| ') ? at : at + 1;
  expect(lines[start + 1], 'a table right below').toMatch(/^\|( --- \|)+$/);
  const table: string[][] = [];
  for (let i = start; i < lines.length && lines[i]!.startsWith('| '); i++) {
    if (i !== start + 1) table.push(cells(lines[i]!));
  }
  return table;
}

/** The `#` heading lines of `markdown` in order, as `level text` pairs. */
export function headingsOf(markdown: string): { level: number; text: string }[] {
  return [...markdown.matchAll(/^(#{1,6}) (.*)$/gm)].map((match) => ({
    level: match[1]!.length,
    text: match[2]!,
  }));
}

/**
 * The failures every Office converter reports, each a LongshipError whose message names the file.
 * `valid` is a good file of the converter's kind; `mainPart` a part it cannot do without.
 */
export function officeErrorSuite(
  convert: Converter,
  extension: 'docx' | 'pptx' | 'xlsx',
  valid: () => Promise<Uint8Array> | Uint8Array,
  mainPart: string,
): void {
  const name = `files/report.${extension}`;
  const options = { name, maxPages: 100 };
  const app = { docx: 'Word', pptx: 'PowerPoint', xlsx: 'Excel' }[extension];

  describe(`${extension}: what it refuses`, () => {
    it('a password-protected file is ENCRYPTED_INPUT', async () => {
      const error = await rejectsWith(() => convert(makeEncryptedOffice(), options), 'ENCRYPTED_INPUT');
      expect(error.message).toContain(name);
      expect(error.message).toContain('password');
    });

    it('finds the encryption stream by the directory sector, past the first 512 KB', async () => {
      const bytes = makeEncryptedOffice(1100);
      expect(bytes.length).toBeGreaterThan(512 * 1024 + 512);
      await rejectsWith(() => convert(bytes, options), 'ENCRYPTED_INPUT');
    });

    it(`a legacy binary .${extension.slice(0, -1)} is UNSUPPORTED_INPUT, saying to save it as .${extension}`, async () => {
      const legacy = makeLegacyOffice(extension.slice(0, -1) as 'doc' | 'ppt' | 'xls');
      const error = await rejectsWith(() => convert(legacy, options), 'UNSUPPORTED_INPUT');
      expect(error.message).toContain(name);
      expect(error.message).toContain(`save it as .${extension} in ${app}`);
    });

    it('bytes that are not a zip are CORRUPT_INPUT', async () => {
      const error = await rejectsWith(
        () => convert(new TextEncoder().encode('just some text'), options),
        'CORRUPT_INPUT',
      );
      expect(error.message).toContain(name);
      await rejectsWith(() => convert(new Uint8Array(0), options), 'CORRUPT_INPUT');
    });

    it('a truncated file is CORRUPT_INPUT with the zip reader’s failure as cause', async () => {
      const bytes = await valid();
      for (const fraction of [0.3, 0.9, 0.999]) {
        const error = await rejectsWith(
          () => convert(truncatedCopy(bytes, fraction), options),
          'CORRUPT_INPUT',
        );
        expect(error.message).toContain(name);
        expect(error.cause).toBeInstanceOf(Error);
      }
    });

    it(`a zip without ${mainPart} is CORRUPT_INPUT`, async () => {
      const other = zipSync({
        '[Content_Types].xml': new TextEncoder().encode('<Types/>'),
        'notes.txt': new Uint8Array(3),
      });
      const error = await rejectsWith(() => convert(other, options), 'CORRUPT_INPUT');
      expect(error.message).toContain(name);
    });

    it('a zip bomb is INPUT_TOO_LARGE before it is inflated', async () => {
      const bomb = makeZipBomb(mainPart);
      expect(bomb.length).toBeLessThan(100 * 1024);
      const error = await rejectsWith(() => convert(bomb, options), 'INPUT_TOO_LARGE');
      expect(error.message).toContain(name);
      expect(error.message).toMatch(/30 MB, over the 10 MB/);
    });

    it('a part that inflates past the size its zip states is CORRUPT_INPUT', async () => {
      const understated = understatedSizes(await valid());
      const error = await rejectsWith(() => convert(understated, options), 'CORRUPT_INPUT');
      expect(error.message).toMatch(/inflates past its stated size/);
    });

    it('an aborted signal is ABORTED, before or during the conversion', async () => {
      const bytes = await valid();
      const before = new AbortController();
      before.abort(new Error('stop'));
      await rejectsWith(() => convert(bytes, { ...options, signal: before.signal }), 'ABORTED');
      // As a worker's abort arrives: a message, queued while the conversion runs.
      const during = new AbortController();
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => {
        port1.close();
        during.abort(new Error('stop'));
      };
      port2.postMessage(null);
      const error = await rejectsWith(() => convert(bytes, { ...options, signal: during.signal }), 'ABORTED');
      expect((error.cause as Error).message).toBe('stop');
    });
  });
}
