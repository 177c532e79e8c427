// The files and folders `longship add` is given, read into what addResource takes. Everything is
// checked before the store opens, so a missing, unreadable or binary file writes nothing at all.

import { openAsBlob } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { checkSize, defaultMaxBytes } from '../context/text-checks.js';
import { LongshipError } from '../errors.js';
import type { FolderEntry } from '../ingest/input.js';
import { decodeText } from '../ingest/parse/decode.js';

/** One path given to `add`, ready for addResource. */
export type LocalInput =
  /** A file, read and checked: its text, named by its file name. */
  | { path: string; kind: 'file'; name: string; text: string }
  /**
   * A folder: its files, read when ingested (binary and oversized ones are skipped there, as
   * addResource does for any folder), under a directory named after it.
   */
  | { path: string; kind: 'folder'; name: string | undefined; entries: FolderEntry[] };

/** Folder entries left out: hidden ones (`.git`, the store's own `.longship`) and dependencies. */
const leftOut = (name: string) => name.startsWith('.') || name === 'node_modules';

/**
 * Reads each of `paths` (relative to `cwd`); `store` (the store's folder) is never read, whatever
 * links lead to it or to the paths: they are compared as real paths (docs/guide/cli.md, "add"). Throws
 * NOT_FOUND for a missing path, BINARY_INPUT or INPUT_TOO_LARGE for a file given by name,
 * UNSUPPORTED_INPUT for what cannot be read, INVALID_ARGUMENT for the store itself.
 */
export async function readLocalInputs(
  paths: readonly string[],
  cwd: string,
  store: string,
): Promise<LocalInput[]> {
  const realStore = await realPath(store);
  const inputs: LocalInput[] = [];
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    if (isWithin(absolute, store) || isWithin(await realPath(absolute), realStore)) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `${path} is the store's own folder; it cannot be added to itself`,
      );
    }
    const info = await stat(absolute).catch((error) => {
      throw unreadable(path, error);
    });
    if (info.isDirectory()) {
      const entries = await folderEntries(absolute, absolute, realStore);
      inputs.push({ path, kind: 'folder', name: basename(absolute) || undefined, entries });
    } else if (info.isFile()) {
      checkSize(path, info.size, defaultMaxBytes);
      const bytes = await readFile(absolute).catch((error) => {
        throw unreadable(path, error);
      });
      inputs.push({
        path,
        kind: 'file',
        name: basename(absolute),
        text: decodeText(path, bytes, defaultMaxBytes),
      });
    } else {
      throw new LongshipError('UNSUPPORTED_INPUT', `${path} is neither a file nor a folder`);
    }
  }
  return inputs;
}

/** Whether `path` is `folder` or below it. */
const isWithin = (path: string, folder: string) => path === folder || path.startsWith(folder + sep);

/**
 * `path` with every link resolved, as far as it exists: a store not made yet is compared by the
 * real path of its nearest existing folder, with the rest as written.
 */
async function realPath(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realPath(parent), basename(path));
  }
}

/**
 * The files below `folder`, by their paths relative to `root`, in name order; links are not
 * followed, and the folder whose real path is `realStore` is not walked.
 */
async function folderEntries(root: string, folder: string, realStore: string): Promise<FolderEntry[]> {
  // Through a link, the store's folder reads as another path: compare real paths (issue 33).
  if ((await realPath(folder)) === realStore) return [];
  const children = await readdir(folder, { withFileTypes: true }).catch((error) => {
    throw unreadable(folder, error);
  });
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: FolderEntry[] = [];
  for (const child of children) {
    const absolute = join(folder, child.name);
    if (leftOut(child.name)) continue;
    if (child.isDirectory()) entries.push(...(await folderEntries(root, absolute, realStore)));
    else if (child.isFile()) {
      const content = await openAsBlob(absolute).catch((error) => {
        throw unreadable(absolute, error);
      });
      entries.push({ path: relative(root, absolute).split(sep).join('/'), content });
    }
  }
  return entries;
}

/** A file system error as a LongshipError that names the path. */
function unreadable(path: string, error: unknown): LongshipError {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new LongshipError('NOT_FOUND', `${path}: no such file or folder`, { cause: error });
  }
  return new LongshipError('UNSUPPORTED_INPUT', `cannot read ${path}${code ? ` (${code})` : ''}`, {
    cause: error,
  });
}
