/**
 * A file or folder on disk, read as `longship add` and `addResource({ path })` read it
 * (docs/guide/retrieval.md, "Adding from disk"): a file whole, checked before it is read; a folder
 * as its files, hidden entries and `node_modules` left out, links not followed, binary and oversized
 * files skipped where the folder is ingested.
 */

import { checkSize, defaultMaxBytes } from '../context/text-checks.js';
import { type LocalEntry, loadLocalFiles } from '../env/local-files.js';
import { LongshipError } from '../errors.js';
import { CONVERTED_BYTES_FACTOR, documentKindOf, HEAD_BYTES } from './convert/convert.js';
import { decodeText } from './parse/decode.js';

/**
 * A path read from disk: a file named by its file name (its content checked: text, or a PDF or
 * Office file within its size bound), or a folder's files under its name.
 */
export type LocalInput =
  | { path: string; kind: 'file'; name: string; content: Blob }
  | { path: string; kind: 'folder'; name: string | undefined; entries: LocalEntry[] };

export interface LocalPathOptions {
  /** What a relative path is relative to; default the process's working directory. */
  cwd?: string;
  /** A folder never read (the CLI's store); naming it, or a path in it, is `INVALID_ARGUMENT`. */
  exclude?: string;
  /** A text file given by path larger than this is `INPUT_TOO_LARGE` (a PDF, 20 times this); default 10 MB. */
  maxBytes?: number;
}

/**
 * Reads the file or folder `path` names (a string or a `file:` URL). Throws NOT_FOUND for a missing
 * path, BINARY_INPUT or INPUT_TOO_LARGE for a file, UNSUPPORTED_INPUT for what cannot be read (or
 * where there is no file system), INVALID_ARGUMENT for the excluded folder.
 *
 * @example
 * const input = await readLocalPath('./docs');
 * // { path: './docs', kind: 'folder', name: 'docs', entries: [{ path: 'guide.md', content: Blob }, …] }
 */
export async function readLocalPath(path: string | URL, options: LocalPathOptions = {}): Promise<LocalInput> {
  const files = await loadLocalFiles();
  const shown = typeof path === 'string' ? path : path.href;
  if (typeof path !== 'string' && path.protocol !== 'file:') {
    throw new LongshipError('UNSUPPORTED_INPUT', `${shown} is not a file: URL`);
  }
  const absolute = typeof path === 'string' ? files.absolute(path, options.cwd) : files.fromUrl(path);
  const exclude = options.exclude === undefined ? undefined : await files.realPath(options.exclude);
  if (
    options.exclude !== undefined &&
    exclude !== undefined &&
    (files.isWithin(absolute, options.exclude) || files.isWithin(await files.realPath(absolute), exclude))
  ) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `${shown} is the store's own folder; it cannot be added to itself`,
    );
  }
  const what = await files.kind(absolute, shown);
  if (what.kind === 'folder') {
    const entries = await files.walk(absolute, exclude);
    return { path: shown, kind: 'folder', name: files.basename(absolute) || undefined, entries };
  }
  if (what.kind === 'other') {
    throw new LongshipError('UNSUPPORTED_INPUT', `${shown} is neither a file nor a folder`);
  }
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  const name = files.basename(absolute);
  const blob = await files.blob(absolute, shown);
  if (documentKindOf(name, new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer()))) {
    checkSize(shown, what.size, maxBytes * CONVERTED_BYTES_FACTOR);
    return { path: shown, kind: 'file', name, content: blob };
  }
  // Checked before reading, so a 2 GB video costs nothing; text is checked now, before any write.
  checkSize(shown, what.size, maxBytes);
  const bytes = new Uint8Array(await blob.arrayBuffer());
  decodeText(shown, bytes, maxBytes);
  return { path: shown, kind: 'file', name, content: new Blob([bytes]) };
}
