/**
 * Turns what a caller hands to `addResource` into checked text documents. Everything that can be
 * refused (binary data, oversized documents, fetch failures) is refused here, before parsing.
 */

import { throwIfAborted } from '../abort.js';
import type { Format } from '../context/summarize.js';
import { checkSize, checkStringSize, checkText, defaultMaxBytes } from '../context/text-checks.js';
import { LongshipError } from '../errors.js';
import { type BrowserFiles, isBrowserFiles, readBrowserFiles } from './browser-files.js';
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
  /** Per document, in bytes; default 10 MB (`defaultMaxBytes`). */
  maxBytes?: number;
  /** Needed for `http(s):` URL inputs; ingestion never reaches the network on its own. */
  fetch?: (url: URL, init?: RequestInit) => Promise<Response>;
  signal?: AbortSignal;
}

/** A checked text document. `path` uses `/` and may be `''` for an unnamed string. */
export interface InputDocument {
  path: string;
  content: string;
  format: Format;
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

async function fromBlob(path: string, blob: Blob, maxBytes: number): Promise<InputDocument> {
  const name = path || 'the input Blob';
  // Checked before reading, so a 2 GB video costs nothing.
  checkSize(name, blob.size, maxBytes);
  const text = decodeText(name, new Uint8Array(await blob.arrayBuffer()), maxBytes);
  return { path, content: text, format: detectFormat(path, text, blob.type || undefined) };
}

function fromBytes(
  path: string,
  bytes: Uint8Array,
  maxBytes: number,
  mime?: string,
  charset?: string,
): InputDocument {
  const name = path || 'the input bytes';
  const text = decodeText(name, bytes, maxBytes, charset);
  return { path, content: text, format: detectFormat(path, text, mime) };
}

async function fromUrl(url: URL, options: InputOptions, maxBytes: number): Promise<InputDocument> {
  if (!options.fetch) {
    throw new LongshipError(
      'UNSUPPORTED_INPUT',
      `cannot read ${url.href}: no fetch function was given (pass { fetch } where the environment allows it)`,
    );
  }
  const body = await fetchText(url, options.fetch, maxBytes, options.signal);
  const path = normalisePath(options.name ?? body.name);
  return fromBytes(path, body.bytes, maxBytes, body.mime, body.charset);
}

async function fromEntry(
  path: string,
  content: FolderEntry['content'],
  maxBytes: number,
): Promise<InputDocument> {
  if (typeof content === 'string') return fromString(path, content, maxBytes);
  if (content instanceof Uint8Array) return fromBytes(path, content, maxBytes);
  if (typeof Blob !== 'undefined' && content instanceof Blob) return fromBlob(path, content, maxBytes);
  throw new LongshipError(
    'UNSUPPORTED_INPUT',
    `folder entry ${path}: content is neither a string, bytes nor a Blob`,
  );
}

async function fromFolder(
  entries: readonly FolderEntry[],
  options: InputOptions,
  maxBytes: number,
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
    throwIfAborted(options.signal, 'reading the input');
    try {
      batch.documents.push(await fromEntry(path, entry.content, maxBytes));
    } catch (error) {
      // A folder is usually a repository or a drop of files: one image must not sink the rest.
      if (
        !(error instanceof LongshipError) ||
        (error.code !== 'BINARY_INPUT' && error.code !== 'INPUT_TOO_LARGE')
      ) {
        throw error;
      }
      batch.skipped.push({ path, error });
    }
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
 * `INVALID_ARGUMENT`; in a folder, binary and oversized files are skipped and listed instead.
 *
 * @example
 * const { documents } = await readInput('# Notes\n…', { name: 'notes.md' });
 * // [{ path: 'notes.md', content: '# Notes\n…', format: 'markdown' }]
 */
export async function readInput(input: ResourceInput, options: InputOptions = {}): Promise<InputBatch> {
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  if (!(maxBytes > 0))
    throw new LongshipError('INVALID_ARGUMENT', `maxBytes must be positive, got ${maxBytes}`);
  throwIfAborted(options.signal, 'reading the input');
  const name = () => (options.name === undefined ? '' : normalisePath(options.name));
  if (typeof input === 'string') {
    await refuseExistingPath(input);
    return { documents: [fromString(name(), input, maxBytes)], skipped: [] };
  }
  if (input instanceof URL && input.protocol === 'file:') return fromLocal(input, options, maxBytes);
  if (isLocalPath(input)) return fromLocal(input.path, options, maxBytes);
  if (input instanceof URL) return { documents: [await fromUrl(input, options, maxBytes)], skipped: [] };
  if (input instanceof Uint8Array) return { documents: [fromBytes(name(), input, maxBytes)], skipped: [] };
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    const own = (input as { name?: unknown }).name;
    const path =
      typeof own === 'string' && own !== '' && options.name === undefined ? normalisePath(own) : name();
    return { documents: [await fromBlob(path, input, maxBytes)], skipped: [] };
  }
  if (isBrowserFiles(input)) return fromBrowser(input, options, maxBytes);
  if (Array.isArray(input)) return fromFolder(input, options, maxBytes);
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
async function fromLocal(path: string | URL, options: InputOptions, maxBytes: number): Promise<InputBatch> {
  const local: LocalInput = await readLocalPath(path, { maxBytes });
  throwIfAborted(options.signal, 'reading the input');
  if (local.kind === 'file') {
    const name = normalisePath(options.name ?? local.name);
    return { documents: [fromString(name, local.text, maxBytes)], skipped: [] };
  }
  if (local.entries.length === 0) {
    throw new LongshipError('INVALID_ARGUMENT', `${local.path} has no files to add`);
  }
  const name = options.name ?? local.name;
  return fromFolder(local.entries, { ...options, ...(name !== undefined ? { name } : {}) }, maxBytes);
}

/** A page's files (docs/guide/retrieval.md, "Files from the page"): named and walked as folders from disk are. */
async function fromBrowser(
  input: BrowserFiles,
  options: InputOptions,
  maxBytes: number,
): Promise<InputBatch> {
  const read = await readBrowserFiles(input, options.signal);
  if (read.kind === 'file') {
    const path = normalisePath(options.name ?? read.name);
    return { documents: [await fromBlob(path, read.file, maxBytes)], skipped: [] };
  }
  const name = options.name ?? read.name;
  return fromFolder(read.entries, { ...options, ...(name !== undefined ? { name } : {}) }, maxBytes);
}
