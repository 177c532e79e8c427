// A folder the user drops on the page or picks with <input webkitdirectory>, as folder entries
// whose bytes move to the worker. Files are read here and their buffers transferred, not posted as
// File objects: Chromium's structured clone of a File costs ~0.3 ms of main thread each (170 ms for
// 500), while reading is asynchronous and a transfer is free.
import type { FolderEntry } from '../../src/ingest/input.js';
import { transfer } from '../../src/worker/connect.js';

export interface PickedFolder {
  /** The folder's own name, indexed as `viking://resources/<name>`. */
  name: string;
  /** Paths relative to the folder; content is a File until {@link readFolder}. */
  entries: FolderEntry[];
}

/** Larger files are left out unread: the engine would refuse them anyway (its 10 MB default). */
export const maxFileBytes = 10 * 1024 * 1024;

/**
 * The folder's files as bytes, marked to be transferred to the worker, and the paths of those
 * left out as too large.
 */
export async function readFolder(
  folder: PickedFolder,
): Promise<{ entries: FolderEntry[]; tooLarge: string[] }> {
  const entries: FolderEntry[] = [];
  const tooLarge: string[] = [];
  const buffers: ArrayBuffer[] = [];
  for (const { path, content } of folder.entries) {
    if (!(content instanceof Blob)) {
      entries.push({ path, content });
      continue;
    }
    if (content.size > maxFileBytes) {
      tooLarge.push(path);
      continue;
    }
    const bytes = new Uint8Array(await content.arrayBuffer());
    buffers.push(bytes.buffer);
    entries.push({ path, content: bytes });
  }
  return { entries: transfer(entries, buffers), tooLarge };
}

/** Hidden files and folders (`.git/`, `.DS_Store`) are left out. */
const hidden = (path: string) => path.split('/').some((part) => part.startsWith('.'));

/** From an `<input type="file" webkitdirectory>`: each file knows its path from the picked folder. */
export function fromFileList(files: FileList): PickedFolder | undefined {
  const entries: FolderEntry[] = [];
  let name = '';
  for (const file of Array.from(files)) {
    const [top = '', ...rest] = (file.webkitRelativePath || file.name).split('/');
    name ||= top;
    const path = rest.join('/') || top;
    if (!hidden(path)) entries.push({ path, content: file });
  }
  return entries.length > 0 ? { name: name || 'dropped', entries } : undefined;
}

/** From a drop: folders are walked with the File System Entry API; loose files go into `dropped`. */
export async function fromDrop(transfer: DataTransfer): Promise<PickedFolder | undefined> {
  const roots = Array.from(transfer.items)
    .map((item) => item.webkitGetAsEntry())
    .filter((entry): entry is FileSystemEntry => entry !== null);
  const first = roots[0];
  if (!first) return undefined;
  const single = roots.length === 1 && first.isDirectory;
  const entries: FolderEntry[] = [];
  for (const root of roots) {
    await walk(root, single ? '' : root.name, entries);
  }
  return entries.length > 0 ? { name: single ? first.name : 'dropped', entries } : undefined;
}

async function walk(entry: FileSystemEntry, path: string, into: FolderEntry[]): Promise<void> {
  if (entry.isFile) {
    if (hidden(path)) return;
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    into.push({ path, content: file });
    return;
  }
  if (path !== '' && hidden(path)) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries returns at most 100 entries a call: read until it returns none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, path ? `${path}/${child.name}` : child.name, into);
  }
}
