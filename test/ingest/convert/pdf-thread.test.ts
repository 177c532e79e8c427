// In Node pdf.js's worker side runs on a thread of its own (issue 35; docs/guide/documents.md, "Where
// it runs"): what goes wrong there ends that thread and the PDF with a typed error, never this
// process, and the next PDF is read on a new thread.

import { describe, expect, it } from 'vitest';
import { convertPdf, convertPdfWithin, readingDeadline } from '../../../src/ingest/convert/pdf.js';
import { lendThread } from '../../../src/ingest/convert/pdf-threads.js';
import { makeReportPdf, makeSlowRepairPdf, makeStrayKidPdf } from '../../fixtures/documents/make-pdf.js';
import { rejectsWith } from '../fixtures.js';

const options = { name: 'damaged.pdf', maxPages: 100 };

/** The next PDF reads as it would have: its thread is a working one. */
async function readsAReport() {
  const converted = await convertPdf(await makeReportPdf(), { name: 'report.pdf', maxPages: 100 });
  expect(converted.pageCount).toBeGreaterThan(1);
  expect(converted.markdown).toContain('#');
}

describe('convertPdf on a thread of its own', () => {
  it('ends a PDF on which pdf.js drops a rejection with CORRUPT_INPUT, and this process lives on', async () => {
    const stray = await makeStrayKidPdf();
    const error = await rejectsWith(() => convertPdf(stray, options), 'CORRUPT_INPUT');
    expect(error.message).toContain('damaged.pdf');
    // The rejection pdf.js left unhandled ended its thread: its reason is the cause.
    expect(String(error.cause)).toMatch(/End of file inside dictionary/);
    await readsAReport();
  });

  it('ends a repair that runs past the deadline with CORRUPT_INPUT', async () => {
    // pdf.js spends seconds on this file without yielding; a deadline of a tenth of a second ends it.
    const error = await rejectsWith(
      () => convertPdfWithin(makeSlowRepairPdf(64 * 1024), options, 100),
      'CORRUPT_INPUT',
    );
    expect(error.message).toMatch(/damaged\.pdf .*took over 0\.1 s/);
    await readsAReport();
  });

  it('ends a repair when the caller aborts', async () => {
    const controller = new AbortController();
    const converting = convertPdfWithin(
      makeSlowRepairPdf(64 * 1024),
      { ...options, signal: controller.signal },
      600_000,
    );
    // Aborted once the conversion waits on its thread: this thread is free while pdf.js repairs.
    setTimeout(() => controller.abort(new Error('user left')), 50);
    const error = await rejectsWith(() => converting, 'ABORTED');
    expect((error.cause as Error).message).toBe('user left');
    await readsAReport();
  });

  it('gives a PDF a deadline of ten seconds and thirty more a megabyte', () => {
    expect(readingDeadline(0)).toBe(10_000);
    expect(readingDeadline(1_000_000)).toBe(40_000);
    expect(readingDeadline(128 * 1024)).toBe(13_933);
  });

  it('keeps a thread whose reading ended by itself for the next PDF, and ends one cut short', async () => {
    await readsAReport();
    // The module convertPdf() loaded, with pdf.js's DOMMatrix stand-in handled there.
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const first = (await lendThread(pdfjs))!;
    first.release(true);
    const second = (await lendThread(pdfjs))!;
    expect(second.worker).toBe(first.worker);
    second.release(false);
    await expect(second.ended).rejects.toThrow(/ended/);
    const third = (await lendThread(pdfjs))!;
    expect(third.worker).not.toBe(second.worker);
    third.release(true);
  });
});
