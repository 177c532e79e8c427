/**
 * Files a page holds, read as folders from disk are (docs/guide/retrieval.md, "Files from the
 * page"): a FileList, File System Access and OPFS handles, and lists of Files and handles (a drop).
 * They are told apart by shape, never by class, so this runs where the DOM's classes are missing
 * (Node, Deno, workerd) and takes handles from another realm (a page's, cloned into a worker).
 */

import { throwIfAborted } from '../abort.js';
import { LongshipError } from '../errors.js';
import { isLeftOut } from '../left-out.js';
import type { WebFileList, WebFileSystemHandle } from '../web-types.js';

/**
 * What a page holds: a FileList or a list of Files and handles is a folder (each File at its
 * `webkitRelativePath`, else its name; each handle under its name); a file handle one file; a
 * directory handle a folder of its name.
 */
export type BrowserFiles = WebFileList | WebFileSystemHandle | readonly (Blob | WebFileSystemHandle)[];

/** A file's handle, as far as it is read here. */
interface FileHandle {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<Blob>;
}

/** A folder's handle: its children come from `values()`, checked where it is walked. */
interface DirectoryHandle {
  readonly kind: 'directory';
  readonly name: string;
}

/** A file of a walked folder: its path below the folder, with `/`, and its File (read later). */
export interface BrowserEntry {
  path: string;
  content: Blob;
}

/** A file handle's file, named by the handle; or a folder's files, under its name where it has one. */
export type BrowserRead =
  | { kind: 'file'; name: string; file: Blob }
  | { kind: 'folder'; name: string | undefined; entries: BrowserEntry[] };

const isBlob = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;

function isHandle(value: unknown): value is FileHandle | DirectoryHandle {
  if (typeof value !== 'object' || value === null || typeof (value as { name?: unknown }).name !== 'string')
    return false;
  const { kind } = value as { kind?: unknown };
  if (kind === 'file') return typeof (value as { getFile?: unknown }).getFile === 'function';
  return kind === 'directory';
}

/** A FileList, or any list with `item()` whose items are Blobs; never an array. */
export function isWebFileList(value: unknown): value is WebFileList {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { length, item } = value as { length?: unknown; item?: unknown };
  if (typeof length !== 'number' || typeof item !== 'function') return false;
  return length === 0 || isBlob((value as WebFileList).item(0));
}

/**
 * Whether `input` is one of {@link BrowserFiles}: a handle, a FileList, or an array holding a File
 * or a handle (a bad item in it is reported by {@link readBrowserFiles}). A drop's `DataTransfer`
 * is `UNSUPPORTED_INPUT`: its items are gone once the drop event returns.
 */
export function isBrowserFiles(input: unknown): input is BrowserFiles {
  if (Array.isArray(input)) return input.some((item) => isBlob(item) || isHandle(item));
  if (isHandle(input) || isWebFileList(input)) return true;
  const drop = input as { items?: unknown; files?: unknown; dropEffect?: unknown } | null;
  if (
    typeof drop === 'object' &&
    drop !== null &&
    'items' in drop &&
    'files' in drop &&
    'dropEffect' in drop
  ) {
    throw new LongshipError(
      'UNSUPPORTED_INPUT',
      'a DataTransfer is empty once its drop event returns: call filesFromDrop(event.dataTransfer) in the drop handler and add what it resolves to',
    );
  }
  return false;
}

/**
 * Lists the files of `input`, reading no bytes: a File's are read when the document is, so an
 * oversized one costs only its size check. Throws NOT_FOUND for a file or folder gone since it was
 * picked, UNSUPPORTED_INPUT for one that cannot be read (permission revoked, no way to list a
 * folder), INVALID_ARGUMENT for a nameless Blob or an unknown item in a list, or for nothing to add.
 *
 * @example
 * const read = await readBrowserFiles(await showDirectoryPicker());
 * // { kind: 'folder', name: 'docs', entries: [{ path: 'guide.md', content: File }, …] }
 */
export async function readBrowserFiles(input: BrowserFiles, signal?: AbortSignal): Promise<BrowserRead> {
  if (isHandle(input) && input.kind === 'file') {
    return { kind: 'file', name: input.name, file: await fileOf(input, input.name) };
  }
  const folder = isHandle(input) && input.kind === 'directory' ? input : undefined;
  const entries = folder
    ? await walk(folder, '', folder.name || 'the folder', signal)
    : await listEntries(input as WebFileList | readonly (Blob | WebFileSystemHandle)[], signal);
  if (entries.length === 0) {
    const what = folder ? `folder ${folder.name || '(the root)'}` : 'the list of files';
    throw new LongshipError('INVALID_ARGUMENT', `${what} has no files to add`);
  }
  return { kind: 'folder', name: folder?.name || undefined, entries };
}

/**
 * A FileList's (or an array of Files') entries, each at its `webkitRelativePath` (a picked folder's
 * name first) or else its name; hidden entries and `node_modules` below the top are left out. Reads
 * nothing, so a page can turn a FileList into a folder before it crosses to a worker.
 *
 * @example
 * fileListEntries(input.files); // [{ path: 'docs/guide.md', content: File }, …]
 */
export function fileListEntries(files: WebFileList | readonly Blob[]): BrowserEntry[] {
  const entries: BrowserEntry[] = [];
  const list = isWebFileList(files) ? Array.from({ length: files.length }, (_, i) => files.item(i)) : files;
  list.forEach((file, index) => {
    if (!isBlob(file)) throw notAFile(index);
    const entry = fileEntry(file, index);
    if (entry) entries.push(entry);
  });
  return entries;
}

function fileEntry(file: Blob, index: number): BrowserEntry | undefined {
  const { name, webkitRelativePath } = file as { name?: unknown; webkitRelativePath?: unknown };
  if (typeof name !== 'string' || name === '') {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `item ${index} of the list of files is a Blob without a name; add it as { path, content }`,
    );
  }
  const path =
    typeof webkitRelativePath === 'string' && webkitRelativePath !== '' ? webkitRelativePath : name;
  // The top is what the user picked (the folder of webkitdirectory, or the file itself): kept, as a path given to `{ path }` is.
  if (path.split('/').slice(1).some(isLeftOut)) return undefined;
  return { path, content: file };
}

const notAFile = (index: number) =>
  new LongshipError(
    'INVALID_ARGUMENT',
    `item ${index} of the list of files is neither a File nor a file-system handle`,
  );

async function listEntries(
  input: WebFileList | readonly (Blob | WebFileSystemHandle)[],
  signal?: AbortSignal,
): Promise<BrowserEntry[]> {
  if (isWebFileList(input)) return fileListEntries(input);
  const entries: BrowserEntry[] = [];
  for (const [index, item] of input.entries()) {
    throwIfAborted(signal, 'reading the input');
    if (isBlob(item)) {
      const entry = fileEntry(item, index);
      if (entry) entries.push(entry);
    } else if (!isHandle(item)) {
      throw notAFile(index);
    } else if (item.kind === 'file') {
      entries.push({ path: item.name, content: await fileOf(item, item.name) });
    } else entries.push(...(await walk(item, item.name, item.name, signal)));
  }
  return entries;
}

type Child = FileHandle | DirectoryHandle;

/**
 * The files below `folder`, in name order, each at `prefix/` and its path below the folder; `shown`
 * is the folder's path in messages, from the handle the caller gave.
 */
async function walk(
  folder: DirectoryHandle,
  prefix: string,
  shown: string,
  signal?: AbortSignal,
): Promise<BrowserEntry[]> {
  throwIfAborted(signal, 'reading the input');
  const values = (folder as { values?: () => AsyncIterable<Child> }).values;
  if (typeof values !== 'function') {
    throw new LongshipError('UNSUPPORTED_INPUT', `cannot list ${shown}: its handle has no values()`);
  }
  const children: Child[] = [];
  try {
    for await (const child of values.call(folder)) if (!isLeftOut(child.name)) children.push(child);
  } catch (error) {
    throw unreadable(shown, error);
  }
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const at = (name: string) => (prefix ? `${prefix}/${name}` : name);
  // A folder's files are asked for together: in a worker each getFile() is a round trip.
  const files = await Promise.all(
    children.map(async (child) =>
      child.kind === 'file' && isHandle(child)
        ? [{ path: at(child.name), content: await fileOf(child, `${shown}/${child.name}`) }]
        : [],
    ),
  );
  const entries: BrowserEntry[] = [];
  for (const [index, child] of children.entries()) {
    if (child.kind === 'directory')
      entries.push(...(await walk(child, at(child.name), `${shown}/${child.name}`, signal)));
    else entries.push(...files[index]!);
  }
  return entries;
}

async function fileOf(handle: FileHandle, shown: string): Promise<Blob> {
  try {
    return await handle.getFile();
  } catch (error) {
    throw unreadable(shown, error);
  }
}

/** A handle's failure (a DOMException: NotFoundError, NotAllowedError, …) naming the file or folder. */
function unreadable(shown: string, error: unknown): LongshipError {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'NotFoundError') {
    return new LongshipError(
      'NOT_FOUND',
      `${shown}: no such file or folder (moved or deleted since it was picked)`,
      {
        cause: error,
      },
    );
  }
  const why = typeof name === 'string' && name !== 'Error' ? ` (${name})` : '';
  return new LongshipError('UNSUPPORTED_INPUT', `cannot read ${shown}${why}`, { cause: error });
}
