// A folder the user drops on the page or picks with <input webkitdirectory>, as folder entries.
// Files stay File objects: the worker reads them, so the page never holds their text.
import type { FolderEntry } from '../../src/ingest/input.js';

export interface PickedFolder {
  /** The folder's own name, indexed as `viking://resources/<name>`. */
  name: string;
  /** Paths relative to the folder. */
  entries: FolderEntry[];
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
