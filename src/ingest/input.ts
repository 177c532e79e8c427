/**
 * Turns what a caller hands to `addResource` into checked text documents. Everything that can be
 * refused (binary data, oversized documents, fetch failures) is refused here, before parsing.
 */

import { throwIfAborted } from '../abort.js';
import type { Format } from '../context/summarize.js';
import { checkSize, checkStringSize, checkText, defaultMaxBytes } from '../context/text-checks.js';
import { LongshipError } from '../errors.js';
import { type BrowserFiles, isBrowserFiles, readBrowserFiles } from './browser-files.js';
import {
  type ConvertLimits,
  convertDocument,
  defaultMaxPages,
  documentKindOf,
  HEAD_BYTES,
} from './convert/convert.js';
import { fetchText } from './fetch-text.js';
import { type LocalInput, readLocalPath } from './local-path.js';
import { decodeText } from './parse/decode.js';
import { detectFormat } from './parse/format.js';
import { refuseExistingPath } from './path-like.js';

/** One file of a folder input. Bytes and Blobs are decoded and checked like any other input. */
export interface FolderEntry {
  path: string;
  content: string | Uint8Array | Blob;
}

/**
 * A file or folder on disk (Node, Deno), relative to the working directory; read as `longship add`
 * reads it (docs/guide/retrieval.md, "Adding from disk").
 */
export interface LocalPath {
  path: string;
}

/**
 * A string is content, never a location: pass `{ path }` or a `file:` URL to read from disk, an
 * `http(s):` URL (with `fetch`) to fetch. An array is a folder.
 */
export type ResourceInput =
  | string
  | Uint8Array
  | Blob
  | URL
  | LocalPath
  | readonly FolderEntry[]
  | BrowserFiles;

export interface InputOptions {
  /** The file name of a string, bytes or a Blob (a File has its own); for a folder, a directory to put it in. */
  name?: string;
  /**
   * Per document, in bytes; default 10 MB (`defaultMaxBytes`). For a PDF or Office file, the text
   * read out of it; the file itself may be 20 times this.
   */
  maxBytes?: number;
  /** Most pages of a PDF (slides, sheets of an Office file); default 2,000. */
  maxPages?: number;
  /** Needed for `http(s):` URL inputs; ingestion never reaches the network on its own. */
  fetch?: (url: URL, init?: RequestInit) => Promise<Response>;
  signal?: AbortSignal;
}

/** A checked text document. `path` uses `/` and may be `''` for an unnamed string. */
export interface InputDocument {
  path: string;
  content: string;
  format: Format;
  /**
   * A document with pages (a PDF): how many, and those without text (scanned). Its content has a
   * form feed on a line of its own where each page after the first begins.
   */
  paged?: { pageCount: number; scannedPages: number[] };
}

export interface InputBatch {
  documents: InputDocument[];
  /** Folder entries left out because they are binary or too large; single inputs throw instead. */
  skipped: { path: string; error: LongshipError }[];
}

/**
 * Splits a path on `/` (and `\`, as Windows pickers report it), dropping empty and `.` parts.
 * `..` is refused: a folder entry must not name a place outside the folder.
 *
 * @example
 * normalisePath('.\\docs//guide.md'); // 'docs/guide.md'
 */
export function normalisePath(path: string): string {
  const parts = path
    .normalize('NFC')
    .split(/[/\\]/)
    .filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `path ${JSON.stringify(path)} contains ".."; it must stay inside its folder`,
    );
  }
  return parts.join('/');
}

function fromString(path: string, content: string, maxBytes: number, mime?: string): InputDocument {
  const name = path || 'the input string';
  checkStringSize(name, content, maxBytes);
  checkText(name, content);
  return { path, content, format: detectFormat(path, content, mime) };
}

/** A PDF or Office file as Markdown, with its pages where it has them. */
async function fromDocument(
  kind: NonNullable<ReturnType<typeof documentKindOf>>,
  path: string,
  name: string,
  bytes: Uint8Array,
  limits: ConvertLimits,
): Promise<InputDocument> {
  const converted = await convertDocument(kind, name, bytes, limits);
  const document: InputDocument = { path, content: converted.markdown, format: 'markdown' };
  if (converted.pageCount !== undefined)
    document.paged = { pageCount: converted.pageCount, scannedPages: converted.scannedPages };
  return document;
}

async function fromBlob(path: string, blob: Blob, limits: ConvertLimits): Promise<InputDocument> {
  const name = path || 'the input Blob';
  const kind = documentKindOf(path, new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer()));
  if (kind) return fromDocument(kind, path, name, new Uint8Array(await blob.arrayBuffer()), limits);
  // Checked before reading, so a 2 GB video costs nothing.
  checkSize(name, blob.size, limits.maxBytes);
  const text = decodeText(name, new Uint8Array(await blob.arrayBuffer()), limits.maxBytes);
  return { path, content: text, format: detectFormat(path, text, blob.type || undefined) };
}

async function fromBytes(
  path: string,
  bytes: Uint8Array,
  limits: ConvertLimits,
  mime?: string,
  charset?: string,
): Promise<InputDocument> {
  const name = path || 'the input bytes';
  const kind = documentKindOf(path, bytes.subarray(0, HEAD_BYTES));
  if (kind) return fromDocument(kind, path, name, bytes, limits);
  const text = decodeText(name, bytes, limits.maxBytes, charset);
  return { path, content: text, format: detectFormat(path, text, mime) };
}

async function fromUrl(url: URL, options: InputOptions, limits: ConvertLimits): Promise<InputDocument> {
  if (!options.fetch) {
    throw new LongshipError(
      'UNSUPPORTED_INPUT',
      `cannot read ${url.href}: no fetch function was given (pass { fetch } where the environment allows it)`,
    );
  }
  const body = await fetchText(url, options.fetch, limits.maxBytes, options.signal);
  const path = normalisePath(options.name ?? body.name);
  return fromBytes(path, body.bytes, limits, body.mime, body.charset);
}

const isBlob = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;

async function fromEntry(path: string, content: FolderEntry['content'], limits: ConvertLimits) {
  if (typeof content === 'string') return fromString(path, content, limits.maxBytes);
  return content instanceof Uint8Array
    ? fromBytes(path, content, limits)
    : fromBlob(path, content as Blob, limits);
}

/**
 * What a folder skips, listed, rather than failing: one image, one broken PDF or one scan without
 * text must not sink a repository or a drop of files.
 */
const SKIPPED = new Set([
  'BINARY_INPUT',
  'INPUT_TOO_LARGE',
  'ENCRYPTED_INPUT',
  'CORRUPT_INPUT',
  'UNSUPPORTED_INPUT',
]);

/** The limits of one read, and who hears of each folder entry read. */
interface ReadLimits extends ConvertLimits {
  onRead?: (done: number, total: number) => void;
}

async function fromFolder(
  entries: readonly FolderEntry[],
  options: InputOptions,
  limits: ReadLimits,
): Promise<InputBatch> {
  if (entries.length === 0) throw new LongshipError('INVALID_ARGUMENT', 'the folder is empty');
  const prefix = options.name ? normalisePath(options.name) : '';
  const batch: InputBatch = { documents: [], skipped: [] };
  const seen = new Set<string>();
  for (const entry of entries) {
    const path = normalisePath(prefix ? `${prefix}/${entry.path}` : entry.path);
    if (path === '' || path === prefix) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `folder entry ${JSON.stringify(entry.path)} has no file name`,
      );
    }
    if (seen.has(path)) throw new LongshipError('INVALID_ARGUMENT', `two folder entries are both ${path}`);
    seen.add(path);
    const { content } = entry;
    if (typeof content !== 'string' && !(content instanceof Uint8Array) && !isBlob(content)) {
      throw new LongshipError(
        'UNSUPPORTED_INPUT',
        `folder entry ${path}: content is neither a string, bytes nor a Blob`,
      );
    }
    throwIfAborted(options.signal, 'reading the input');
    try {
      batch.documents.push(await fromEntry(path, content, limits));
    } catch (error) {
      if (!(error instanceof LongshipError) || !SKIPPED.has(error.code)) throw error;
      batch.skipped.push({ path, error });
    }
    limits.onRead?.(seen.size, entries.length);
  }
  if (batch.documents.length === 0) throw batch.skipped[0]!.error;
  return batch;
}

/**
 * Reads `input` into checked text documents: a string (content, named by `options.name`), bytes, a
 * Blob or File, a folder (array of `{path, content}`), a file or folder on disk (`{ path }` or a
 * `file:` URL), or an `http(s):` `URL` (only with `options.fetch`). A string that looks like a path
 * and names one on disk is `INVALID_ARGUMENT`: strings are content.
 * Throws `BINARY_INPUT`, `INPUT_TOO_LARGE`, `UNSUPPORTED_INPUT`, `REMOTE_HTTP`, `ABORTED` or
 * `INVALID_ARGUMENT`; in a folder, binary, oversized, encrypted and corrupt files are skipped and
 * listed instead. `onRead` hears of each file of a folder once it is read (a PDF takes a while).
 *
 * @example
 * const { documents } = await readInput('# Notes\n…', { name: 'notes.md' });
 * // [{ path: 'notes.md', content: '# Notes\n…', format: 'markdown' }]
 */
export async function readInput(
  input: ResourceInput,
  options: InputOptions = {},
  onRead?: (done: number, total: number) => void,
): Promise<InputBatch> {
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  const maxPages = options.maxPages ?? defaultMaxPages;
  if (!(maxBytes > 0))
    throw new LongshipError('INVALID_ARGUMENT', `maxBytes must be positive, got ${maxBytes}`);
  if (!(maxPages >= 1))
    throw new LongshipError('INVALID_ARGUMENT', `maxPages must be at least 1, got ${maxPages}`);
  const limits: ReadLimits = {
    maxBytes,
    maxPages,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(onRead ? { onRead } : {}),
  };
  throwIfAborted(options.signal, 'reading the input');
  const name = () => (options.name === undefined ? '' : normalisePath(options.name));
  if (typeof input === 'string') {
    await refuseExistingPath(input);
    return { documents: [fromString(name(), input, maxBytes)], skipped: [] };
  }
  if (input instanceof URL && input.protocol === 'file:') return fromLocal(input, options, limits);
  if (isLocalPath(input)) return fromLocal(input.path, options, limits);
  if (input instanceof URL) return { documents: [await fromUrl(input, options, limits)], skipped: [] };
  if (input instanceof Uint8Array)
    return { documents: [await fromBytes(name(), input, limits)], skipped: [] };
  if (isBlob(input)) {
    const own = (input as { name?: unknown }).name;
    const path =
      typeof own === 'string' && own !== '' && options.name === undefined ? normalisePath(own) : name();
    return { documents: [await fromBlob(path, input, limits)], skipped: [] };
  }
  if (isBrowserFiles(input)) return fromBrowser(input, options, limits);
  if (Array.isArray(input)) return fromFolder(input, options, limits);
  throw new LongshipError(
    'UNSUPPORTED_INPUT',
    `cannot ingest a ${typeof input}; expected a string, bytes, Blob, URL, { path }, folder, FileList or file-system handle`,
  );
}

function isLocalPath(input: ResourceInput): input is LocalPath {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  if (input instanceof Uint8Array || input instanceof URL) return false;
  if (typeof Blob !== 'undefined' && input instanceof Blob) return false;
  if (!('path' in input)) return false;
  const keys = Object.keys(input);
  if (keys.length !== 1 || keys[0] !== 'path' || typeof (input as LocalPath).path !== 'string') {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `a path to add is { path: string } and nothing else, got keys ${JSON.stringify(keys)}`,
    );
  }
  return true;
}

/** A file as one document named by its file name; a folder as its files under a directory of its name. */
async function fromLocal(path: string | URL, options: InputOptions, limits: ReadLimits): Promise<InputBatch> {
  const local: LocalInput = await readLocalPath(path);
  throwIfAborted(options.signal, 'reading the input');
  if (local.kind === 'file') {
    const name = normalisePath(options.name ?? local.name);
    return { documents: [await fromBlob(name, local.content, limits)], skipped: [] };
  }
  if (local.entries.length === 0) {
    throw new LongshipError('INVALID_ARGUMENT', `${local.path} has no files to add`);
  }
  const name = options.name ?? local.name;
  return fromFolder(local.entries, { ...options, ...(name !== undefined ? { name } : {}) }, limits);
}

/** A page's files (docs/guide/retrieval.md, "Files from the page"): named and walked as folders from disk are. */
async function fromBrowser(
  input: BrowserFiles,
  options: InputOptions,
  limits: ReadLimits,
): Promise<InputBatch> {
  const read = await readBrowserFiles(input, options.signal);
  if (read.kind === 'file') {
    const path = normalisePath(options.name ?? read.name);
    return { documents: [await fromBlob(path, read.file, limits)], skipped: [] };
  }
  const name = options.name ?? read.name;
  return fromFolder(read.entries, { ...options, ...(name !== undefined ? { name } : {}) }, limits);
}
