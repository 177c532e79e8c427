/**
 * What a drop holds, as an input to `addResource` (docs/guide/retrieval.md, "Files from the page").
 * A `DataTransfer`'s items can be read only while its drop event runs, so they are all asked for at
 * once, synchronously, and awaited after.
 */

import { LongshipError } from '../errors.js';
import { isLeftOut } from '../left-out.js';
import type { WebFileList, WebFileSystemHandle } from '../web-types.js';

/** A dropped file below a dropped folder (where there are no handles): its path from the folder's name. */
export interface DroppedEntry {
  path: string;
  content: Blob;
}

/** One item of a drop (`DataTransferItem`); the methods a browser lacks are absent. */
export interface WebDataTransferItem {
  readonly kind: string;
  getAsFile(): Blob | null;
  /** File System Access (Chromium): the dropped file or folder as a handle. */
  getAsFileSystemHandle?(): Promise<unknown>;
  /** Every browser: the dropped file or folder as a `FileSystemEntry`. */
  webkitGetAsEntry?(): unknown;
}

/** A drop's `DataTransfer` (`event.dataTransfer`), or what of it Longship reads. */
export interface WebDataTransfer {
  readonly items?: ArrayLike<WebDataTransferItem>;
  readonly files: WebFileList;
}

/**
 * What {@link filesFromDrop} resolves to, ready for `addResource`: the dropped files and folders as
 * handles (a folder is walked where it is read, in the worker), with Files for items that have no
 * handle; or, where there are no handles, as `{ path, content: File }` entries.
 */
export type DroppedFiles = readonly (Blob | WebFileSystemHandle)[] | readonly DroppedEntry[];

/** A `FileSystemEntry` of `webkitGetAsEntry()`, as far as it is read here. */
interface Entry {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  file?(success: (file: Blob) => void, failure: (error: unknown) => void): void;
  createReader?(): {
    readEntries(success: (entries: Entry[]) => void, failure: (error: unknown) => void): void;
  };
}

/** One item, captured in the drop event: its handle's promise or its entry, and its File. */
interface Captured {
  handle: Promise<unknown> | undefined;
  entry: Entry | undefined;
  file: Blob | null;
}

/**
 * Captures the files and folders of a drop; call it in the `drop` handler itself, before any
 * `await`. Folders come whole: as handles where the browser has `getAsFileSystemHandle()`
 * (Chromium), else walked through `webkitGetAsEntry()` with hidden entries and `node_modules` left
 * out; a browser with neither gives its `files`, without folders. Resolves to `[]` for a drop with
 * no files (text, a link).
 *
 * @example
 * zone.addEventListener('drop', async (event) => {
 *   event.preventDefault();
 *   const files = filesFromDrop(event.dataTransfer);
 *   await longship.addResource(await files, { target: 'viking://resources/dropped' });
 * });
 */
export function filesFromDrop(dataTransfer: WebDataTransfer | null): Promise<DroppedFiles> {
  if (!dataTransfer || typeof dataTransfer !== 'object' || !('files' in dataTransfer)) {
    return Promise.reject(
      new LongshipError('INVALID_ARGUMENT', 'filesFromDrop() takes a drop event’s dataTransfer'),
    );
  }
  const items = dataTransfer.items;
  if (!items) return Promise.resolve(filesOf(dataTransfer.files));
  const captured: Captured[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.kind !== 'file') continue;
    const handle = item.getAsFileSystemHandle?.();
    // Swallowed here and read below: a rejected handle falls back to the item's File.
    handle?.catch(() => {});
    const entry = handle ? undefined : ((item.webkitGetAsEntry?.() ?? undefined) as Entry | undefined);
    captured.push({ handle, entry, file: item.getAsFile() });
  }
  return resolveCaptured(captured);
}

async function resolveCaptured(captured: Captured[]): Promise<DroppedFiles> {
  if (captured.some((item) => item.entry)) {
    const entries: DroppedEntry[] = [];
    for (const item of captured) {
      if (item.entry) entries.push(...(await entryFiles(item.entry, item.entry.name)));
      else if (item.file) entries.push({ path: nameOf(item.file), content: item.file });
    }
    return entries;
  }
  const dropped: (Blob | WebFileSystemHandle)[] = [];
  for (const item of captured) {
    const handle = await item.handle?.catch(() => null);
    if (isHandleLike(handle)) dropped.push(handle);
    else if (item.file) dropped.push(item.file);
  }
  return dropped;
}

function filesOf(files: WebFileList): Blob[] {
  return Array.from({ length: files.length }, (_, i) => files.item(i)).filter((f): f is Blob => f !== null);
}

const nameOf = (file: Blob) => (file as { name?: string }).name ?? '';

function isHandleLike(value: unknown): value is WebFileSystemHandle {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return kind === 'file' || kind === 'directory';
}

/** The files below a dropped entry, each at `path`, in name order. */
async function entryFiles(entry: Entry, path: string): Promise<DroppedEntry[]> {
  if (entry.isFile && entry.file) {
    const read = entry.file.bind(entry);
    return [{ path, content: await asPromise<Blob>(path, (ok, fail) => read(ok, fail)) }];
  }
  if (!entry.isDirectory || !entry.createReader) return [];
  const reader = entry.createReader();
  const children: Entry[] = [];
  // readEntries answers in batches (100 in Chromium) until it answers none.
  for (;;) {
    const batch = await asPromise<Entry[]>(path, (ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) break;
    children.push(...batch.filter((child) => !isLeftOut(child.name)));
  }
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: DroppedEntry[] = [];
  for (const child of children) files.push(...(await entryFiles(child, `${path}/${child.name}`)));
  return files;
}

function asPromise<T>(path: string, call: (ok: (value: T) => void, fail: (error: unknown) => void) => void) {
  return new Promise<T>((resolve, reject) =>
    call(resolve, (error) => {
      const code =
        (error as { name?: unknown } | null)?.name === 'NotFoundError' ? 'NOT_FOUND' : 'UNSUPPORTED_INPUT';
      reject(new LongshipError(code, `cannot read ${path} from the drop`, { cause: error }));
    }),
  );
}
