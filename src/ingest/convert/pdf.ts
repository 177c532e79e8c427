/**
 * Reads a PDF into Markdown with pdf.js (docs/guide/documents.md): each page's text in reading
 * order (pdf-layout.ts), tables as pipe tables (pdf-tables.ts), headings from the outline or font
 * sizes (pdf-headings.ts), a form feed line between pages. pdf.js loads with the first PDF, never
 * before, and never reaches the network: no fonts, character maps or WebAssembly are fetched.
 */
import { abortError, raceAbort, throwIfAborted } from '../../abort.js';
import { LongshipError } from '../../errors.js';
import { type Converter, type ConvertOptions, PAGE_BREAK } from './converted.js';
import type { OutlineSource } from './pdf-headings.js';
import type { PageElement, PdfTextItem } from './pdf-layout.js';

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

/**
 * A PDF's text as Markdown: headings as `#` lines, tables as pipe tables under their captions,
 * paragraphs in reading order (a column at a time), pages parted by form feed lines. Pages without
 * text (scans) are listed in `scannedPages`; a PDF with no text at all is `UNSUPPORTED_INPUT`.
 *
 * @example
 * const { markdown, pageCount, scannedPages } = await convertPdf(bytes, { name: 'report.pdf', maxPages: 500 });
 */
export const convertPdf: Converter = async (bytes, options) => {
  const { name, maxPages, signal } = options;
  throwIfAborted(signal, `reading ${name}`);
  const { pdfjs, layout, headings } = await raceAbort(loadReader(), [signal], `reading ${name}`).catch(
    (error: unknown) => {
      if (error instanceof LongshipError) throw error;
      throw new LongshipError('UNSUPPORTED_INPUT', `cannot read ${name}: pdf.js failed to load`, {
        cause: error,
      });
    },
  );
  // A damaged page tree can make pdf.js drop a failed fetch unawaited inside getDocument(), where no
  // handler of ours reaches it (docs/internals/model-test.md, `pdfStrayRejections`).
  const task = pdfjs.getDocument(documentParameters(bytes, pdfjs.VerbosityLevel.ERRORS));
  const stop = () => void task.destroy();
  signal?.addEventListener('abort', stop, { once: true });
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
    await task.destroy();
  }
};
