/**
 * What a document converter hands back (docs/guide/documents.md): a PDF, Word, PowerPoint or Excel
 * file as Markdown, which the Markdown parser then splits like any other document.
 */

/** What every converter is given besides the bytes. */
export interface ConvertOptions {
  /** The file's path or name, for messages: every error names the file. */
  name: string;
  /** At most this many pages (PDF) or slides and sheets; more is `INPUT_TOO_LARGE`. */
  maxPages: number;
  /**
   * The most text to read out, in UTF-8 bytes (`maxBytes`): a converter whose text grows past its
   * input (a workbook's cells repeating one long shared string) stops there with `INPUT_TOO_LARGE`.
   * The caller checks the Markdown against it either way.
   */
  maxBytes?: number;
  signal?: AbortSignal;
}

/** A converted document. */
export interface ConvertedDocument {
  /**
   * The text as Markdown, in reading order: headings as `#` lines, each table as a pipe table
   * with its caption (and units) on the line above, and, for formats with pages, a line holding
   * only a form feed (`\f`, between blank lines) where each page after the first begins. So page
   * `n` is the text after the `n - 1`th form feed.
   */
  markdown: string;
  /** How many pages the document has, for formats that have pages (PDF); undefined otherwise. */
  pageCount?: number;
  /** The 1-based pages with no text to extract (scanned images), in order; `[]` when none. */
  scannedPages: number[];
}

/**
 * Reads one document's bytes. Throws `ENCRYPTED_INPUT` for a password-protected file,
 * `CORRUPT_INPUT` for a damaged or truncated one, `INPUT_TOO_LARGE` past `maxPages`,
 * `UNSUPPORTED_INPUT` when no page has text, `ABORTED`; each message names the file.
 */
export type Converter = (bytes: Uint8Array, options: ConvertOptions) => Promise<ConvertedDocument>;

/** The page break a converter writes between pages: a form feed on a line of its own. */
export const PAGE_BREAK = '\n\n\f\n\n';
