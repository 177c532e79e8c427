/**
 * Reads a PDF into Markdown with pdf.js (docs/guide/documents.md): each page's text in reading
 * order (pdf-layout.ts), tables as pipe tables (pdf-tables.ts), headings from the outline or font
 * sizes (pdf-headings.ts), a form feed line between pages. pdf.js loads with the first PDF, never
 * before, and never reaches the network: no fonts, character maps or WebAssembly are fetched.
 */
import { abortError, raceAbort, throwIfAborted } from '../../abort.js';
import { LongshipError } from '../../errors.js';
import { type ConvertedDocument, type Converter, type ConvertOptions, PAGE_BREAK } from './converted.js';
import type { OutlineSource } from './pdf-headings.js';
import type { PageElement, PdfTextItem } from './pdf-layout.js';
import { lendThread } from './pdf-threads.js';

/** The worker module's one export, which pdf.js runs on this thread when it finds it. */
type PdfJsWorker = { WorkerMessageHandler: unknown };

/** pdf.js and the modules that lay its text out, all loaded on the first PDF. */
interface Reader {
  pdfjs: typeof import('pdfjs-dist/legacy/build/pdf.mjs');
  layout: typeof import('./pdf-layout.js');
  headings: typeof import('./pdf-headings.js');
}

let reader: Promise<Reader> | undefined;

/**
 * pdf.js's legacy build (it runs on Node 20), with its worker's code on this thread: pdf.js finds
 * that code at `globalThis.pdfjsWorker`, which the worker module sets as it loads, and then needs
 * no worker script URL, so nothing is fetched and a Web Worker starts no other worker. The layout
 * modules load with it, so a bundle that never meets a PDF never loads them either.
 *
 * pdf.js makes a DOMMatrix as it loads, for drawing, which reading text never does. workerd has
 * no DOMMatrix (nor has Node, but for the optional canvas package pdf.js borrows one from), so where
 * there is none a bare stand-in is lent for the load and taken back after it.
 */
function loadReader(): Promise<Reader> {
  reader ??= (async () => {
    const scope = globalThis as { DOMMatrix?: unknown; pdfjsWorker?: PdfJsWorker };
    const lent = scope.DOMMatrix === undefined;
    if (lent) scope.DOMMatrix = class DOMMatrix {};
    try {
      const [worker, pdfjs, layout, headings] = await Promise.all([
        // @ts-expect-error pdf.js publishes no types for its worker module.
        import('pdfjs-dist/legacy/build/pdf.worker.mjs') as Promise<PdfJsWorker>,
        import('pdfjs-dist/legacy/build/pdf.mjs'),
        import('./pdf-layout.js'),
        import('./pdf-headings.js'),
      ]);
      scope.pdfjsWorker ??= { WorkerMessageHandler: worker.WorkerMessageHandler };
      return { pdfjs, layout, headings };
    } catch (error) {
      reader = undefined;
      throw error;
    } finally {
      if (lent) delete scope.DOMMatrix;
    }
  })();
  return reader;
}

/**
 * Answers every request for a character map, standard font or WebAssembly file with a refusal,
 * so pdf.js never fetches or reads one, whatever URLs it has.
 */
class NoBinaryData {
  async fetch({ kind }: { kind: string }): Promise<never> {
    throw new Error(`no ${kind} data is loaded`);
  }
}

/**
 * What pdf.js is given to read `bytes`: no fonts loaded into the page, no eval, no fetches, no
 * WebAssembly decoders; only the text is wanted.
 */
export function documentParameters(bytes: Uint8Array, verbosity: number) {
  return {
    // A copy: pdf.js hands its buffer to its worker, which leaves the caller's bytes empty.
    data: bytes.slice(),
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
    useWorkerFetch: false,
    useWasm: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    enableXfa: false,
    BinaryDataFactory: NoBinaryData,
    verbosity,
  };
}

/** The LongshipError for what pdf.js threw; each message names the file. */
function failure(error: unknown, { name, signal }: ConvertOptions): LongshipError {
  if (error instanceof LongshipError) return error;
  if (signal?.aborted) return abortError(signal, `reading ${name}`);
  if ((error as { name?: unknown } | null)?.name === 'PasswordException') {
    return new LongshipError(
      'ENCRYPTED_INPUT',
      `${name} is password-protected; remove its password to add it`,
      {
        cause: error,
      },
    );
  }
  const detail = error instanceof Error ? `: ${error.message}` : '';
  return new LongshipError('CORRUPT_INPUT', `${name} is not a readable PDF (damaged or truncated)${detail}`, {
    cause: error,
  });
}

/** The most time a PDF's reading may take, before its size is counted (docs/guide/documents.md). */
export const READING_FLOOR_MS = 10_000;
/** And for each megabyte of the file: about ten times the slowest well-formed PDF measured (bench/documents). */
export const READING_MS_PER_MB = 30_000;

/**
 * How long reading a PDF of `size` bytes may take where it runs on a thread of its own (Node): past
 * it, the PDF is taken for damaged (pdf.js's repair of a broken cross-reference table grows with the
 * square of the file's size) and its thread ended (docs/internals/model-test.md, `largeDamagedPdfs`).
 */
export function readingDeadline(size: number): number {
  return READING_FLOOR_MS + Math.ceil((size / 1_000_000) * READING_MS_PER_MB);
}

/**
 * A PDF's text as Markdown: headings as `#` lines, tables as pipe tables under their captions,
 * paragraphs in reading order (a column at a time), pages parted by form feed lines. Pages without
 * text (scans) are listed in `scannedPages`; a PDF with no text at all is `UNSUPPORTED_INPUT`.
 *
 * @example
 * const { markdown, pageCount, scannedPages } = await convertPdf(bytes, { name: 'report.pdf', maxPages: 500 });
 */
export const convertPdf: Converter = (bytes, options) =>
  convertPdfWithin(bytes, options, readingDeadline(bytes.length));

/**
 * convertPdf() with a deadline of `deadlineMs`. In Node pdf.js's worker side runs on a thread of its
 * own (pdf-threads.ts), ended when the caller aborts, the deadline passes or the thread dies: the
 * PDF is then `ABORTED` or `CORRUPT_INPUT`, and the next PDF gets a new thread. Elsewhere pdf.js runs
 * on this thread, where neither the signal nor the deadline can stop it while it works.
 */
export async function convertPdfWithin(
  bytes: Uint8Array,
  options: ConvertOptions,
  deadlineMs: number,
): Promise<ConvertedDocument> {
  const { name, signal } = options;
  throwIfAborted(signal, `reading ${name}`);
  const reader = await raceAbort(loadReader(), [signal], `reading ${name}`).catch((error: unknown) => {
    if (error instanceof LongshipError) throw error;
    throw new LongshipError('UNSUPPORTED_INPUT', `cannot read ${name}: pdf.js failed to load`, {
      cause: error,
    });
  });
  const thread = await lendThread(reader.pdfjs);
  if (!thread) return readPdf(reader, bytes, options);
  if (signal?.aborted) {
    thread.release(true);
    throw abortError(signal, `reading ${name}`);
  }
  // Stops the reading however it ends early: the caller's abort, the deadline, or the thread's death.
  const stop = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cutShort = new Promise<never>((_, reject) => {
    const aborted = () => reject(abortError(signal!, `reading ${name}`));
    signal?.addEventListener('abort', aborted, { once: true });
    stop.signal.addEventListener('abort', () => signal?.removeEventListener('abort', aborted), {
      once: true,
    });
    timer = setTimeout(() => reject(overDeadline(name, bytes.length, deadlineMs)), deadlineMs);
  });
  const died = thread.ended.catch((error: unknown) => {
    throw new LongshipError(
      'CORRUPT_INPUT',
      `${name} is not a readable PDF: pdf.js failed on it (${String(error)})`,
      {
        cause: error,
      },
    );
  });
  const reading = readPdf(reader, bytes, options, { worker: thread.worker, stopped: stop.signal });
  // Whether the reading ended by itself, in a result or pdf.js's own error: its thread may read on.
  let finished = false;
  const settled = reading.finally(() => {
    finished = true;
  });
  try {
    return await Promise.race([settled, cutShort, died]);
  } catch (error) {
    throw failure(error, options);
  } finally {
    clearTimeout(timer);
    stop.abort();
    // A reading cut short never settles once its thread is gone; what it throws meanwhile is moot.
    settled.catch(() => {});
    cutShort.catch(() => {});
    died.catch(() => {});
    thread.release(finished);
  }
}

/** The LongshipError for a PDF whose reading ran past its deadline. */
function overDeadline(name: string, size: number, deadlineMs: number): LongshipError {
  return new LongshipError(
    'CORRUPT_INPUT',
    `${name} is not a readable PDF: reading it took over ${Number((deadlineMs / 1000).toFixed(1))} s, more than a ` +
      `well-formed PDF of ${Math.round(size / 1000)} KB takes (pdf.js was likely repairing it)`,
  );
}

/**
 * Reads the PDF with pdf.js, its worker side on `worker`'s thread or, without one, on this thread;
 * `stopped` ends it as the caller's signal does (convertPdfWithin() has reported why already).
 */
async function readPdf(
  { pdfjs, layout, headings }: Reader,
  bytes: Uint8Array,
  options: ConvertOptions,
  { worker, stopped }: { worker?: InstanceType<Reader['pdfjs']['PDFWorker']>; stopped?: AbortSignal } = {},
): Promise<ConvertedDocument> {
  const { name, maxPages, signal } = options;
  // A damaged page tree can make pdf.js drop a failed fetch unawaited inside getDocument(), where no
  // handler of ours reaches it (docs/internals/model-test.md, `pdfStrayRejections`): on a thread of its
  // own it ends that thread, which convertPdfWithin() reports.
  const task = pdfjs.getDocument({ ...documentParameters(bytes, pdfjs.VerbosityLevel.ERRORS), worker });
  const stop = () => void task.destroy();
  signal?.addEventListener('abort', stop, { once: true });
  stopped?.addEventListener('abort', stop, { once: true });
  try {
    const pdf = await task.promise;
    if (pdf.numPages > maxPages) {
      throw new LongshipError(
        'INPUT_TOO_LARGE',
        `${name} has ${pdf.numPages} pages, more than the limit of ${maxPages} (maxPages)`,
      );
    }
    const pages: PageElement[][] = [];
    const scannedPages: number[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      throwIfAborted(signal, `reading ${name}`);
      throwIfAborted(stopped);
      const page = await pdf.getPage(number);
      const { items } = await page.getTextContent();
      const text = items.filter((item): item is PdfTextItem & typeof item => 'str' in item);
      if (!text.some((item) => item.str.trim() !== '')) scannedPages.push(number);
      pages.push(layout.readPage(text));
      page.cleanup();
    }
    if (scannedPages.length === pdf.numPages) {
      throw new LongshipError(
        'UNSUPPORTED_INPUT',
        `${name} has no text layer (its pages are scanned images); it needs OCR before it can be added`,
      );
    }
    // A broken outline costs the headings it would give, not the document.
    const entries = await headings.outlineEntries(pdf as unknown as OutlineSource).catch(() => []);
    throwIfAborted(signal, `reading ${name}`);
    if (entries.length > 0) headings.applyOutline(pages, entries);
    else headings.applyFontSizes(pages);
    const step = layout.lineSteps(pages);
    const markdown = pages.map((elements) => layout.pageMarkdown(elements, step)).join(PAGE_BREAK);
    return { markdown, pageCount: pdf.numPages, scannedPages };
  } catch (error) {
    throw failure(error, options);
  } finally {
    signal?.removeEventListener('abort', stop);
    stopped?.removeEventListener('abort', stop);
    await task.destroy();
  }
}
