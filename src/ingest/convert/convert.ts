/**
 * PDF, Word, PowerPoint and Excel files in, Markdown out (docs/guide/documents.md): which converter
 * reads a file, from its first bytes and its extension, and loading that converter only when such
 * a file arrives, so an app that never sees a PDF never loads pdf.js.
 */

import { throwIfAborted } from '../../abort.js';
import { checkSize, checkStringSize } from '../../context/text-checks.js';
import { LongshipError } from '../../errors.js';
import { extensionOf } from '../parse/format.js';
import type { ConvertedDocument, Converter } from './converted.js';

/** The kinds of document a converter reads. */
export type DocumentKind = 'pdf' | 'docx' | 'pptx' | 'xlsx';

/** How many bytes {@link documentKindOf} needs to see. */
export const HEAD_BYTES = 1024;

/**
 * A PDF, Word or Office file may be this many times `maxBytes`: most of its bytes are fonts and
 * images, and what is bounded by `maxBytes` is the text read out of it.
 */
export const CONVERTED_BYTES_FACTOR = 20;

/** At most this many pages, slides or sheets by default (`maxPages`). */
export const defaultMaxPages = 2000;

// Legacy binary files (.doc, .ppt, .xls) go to the same converter, which says to save them anew.
const byExtension = new Map<string, DocumentKind>([
  ['pdf', 'pdf'],
  ...['docx', 'docm', 'dotx', 'doc'].map((e) => [e, 'docx'] as const),
  ...['pptx', 'pptm', 'ppsx', 'ppt'].map((e) => [e, 'pptx'] as const),
  ...['xlsx', 'xlsm', 'xltx', 'xls'].map((e) => [e, 'xlsx'] as const),
]);

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

function startsAt(bytes: Uint8Array, magic: readonly number[], at: number): boolean {
  return magic.every((b, i) => bytes[at + i] === b);
}

/**
 * The converter kind for a file, from its first {@link HEAD_BYTES} bytes (a PDF header, which
 * readers accept a little way in) or else its extension; undefined for everything read as text.
 *
 * @example
 * documentKindOf('report.bin', new TextEncoder().encode('%PDF-1.7\n…')); // 'pdf'
 * documentKindOf('notes.md', bytes); // undefined
 */
export function documentKindOf(path: string, head: Uint8Array): DocumentKind | undefined {
  const scan = Math.min(head.length, HEAD_BYTES) - PDF_MAGIC.length;
  for (let at = 0; at <= scan; at++) if (startsAt(head, PDF_MAGIC, at)) return 'pdf';
  return byExtension.get(extensionOf(path));
}

// One import() per kind: bundlers make each its own chunk, loaded on first use.
const loaders: Record<DocumentKind, () => Promise<Converter>> = {
  pdf: async () => (await import('./pdf.js')).convertPdf,
  docx: async () => (await import('./docx.js')).convertDocx,
  pptx: async () => (await import('./pptx.js')).convertPptx,
  xlsx: async () => (await import('./xlsx.js')).convertXlsx,
};

async function loadConverter(kind: DocumentKind, name: string): Promise<Converter> {
  try {
    return await loaders[kind]();
  } catch (cause) {
    throw new LongshipError(
      'UNSUPPORTED_INPUT',
      `${name}: the ${kind.toUpperCase()} reader could not be loaded (a missing chunk of the bundle?)`,
      { cause },
    );
  }
}

export interface ConvertLimits {
  /** The bound on the text read out of it; the file itself may be {@link CONVERTED_BYTES_FACTOR} times this. */
  maxBytes: number;
  maxPages: number;
  signal?: AbortSignal;
}

/**
 * Reads a PDF or Office file's bytes into Markdown with the converter for `kind`; its errors name
 * `name` (ENCRYPTED_INPUT, CORRUPT_INPUT, INPUT_TOO_LARGE, UNSUPPORTED_INPUT, ABORTED).
 *
 * @example
 * const { markdown, pageCount } = await convertDocument('pdf', 'report.pdf', bytes, { maxBytes, maxPages });
 */
export async function convertDocument(
  kind: DocumentKind,
  name: string,
  bytes: Uint8Array,
  limits: ConvertLimits,
): Promise<ConvertedDocument> {
  checkSize(name, bytes.byteLength, limits.maxBytes * CONVERTED_BYTES_FACTOR);
  throwIfAborted(limits.signal, 'reading the input');
  const convert = await loadConverter(kind, name);
  const converted = await convert(bytes, {
    name,
    maxPages: limits.maxPages,
    maxBytes: limits.maxBytes,
    ...(limits.signal ? { signal: limits.signal } : {}),
  });
  checkStringSize(name, converted.markdown, limits.maxBytes);
  return converted;
}
