// Files and folders on disk, for adding them as resources (docs/guide/retrieval.md, "Adding from
// disk"): Node's file system modules (which Deno provides too), loaded with import() only when a
// path is added, so browser bundles never run them. What is read is checked in src/ingest/.

import { LongshipError } from '../errors.js';
import { hasNodeFiles } from './node-files.js';

/** A file below a walked folder: its path relative to the folder (with `/`) and its bytes, read when needed. */
export interface LocalEntry {
  path: string;
  content: Blob;
}

/** What a path names: a file of `size` bytes, a folder, or something else (a socket, a device). */
export type LocalKind = { kind: 'file'; size: number } | { kind: 'folder' } | { kind: 'other' };

export interface LocalFiles {
  /** `path` made absolute against `cwd` (default the process's working directory). */
  absolute(path: string, cwd?: string): string;
  /** The path of a `file:` URL. */
  fromUrl(url: URL): string;
  basename(path: string): string;
  /** What `path` is; NOT_FOUND or UNSUPPORTED_INPUT naming `shown` when it cannot be asked. */
  kind(path: string, shown: string): Promise<LocalKind>;
  /** The file as a Blob, read only as the Blob is. */
  blob(path: string, shown: string): Promise<Blob>;
  /** `path` with every link resolved, as far as it exists (the rest as written). */
  realPath(path: string): Promise<string>;
  /** Whether `path` is `folder` or below it. */
  isWithin(path: string, folder: string): boolean;
  /**
   * The files below `folder`, in name order: hidden entries and `node_modules` left out, links not
   * followed, and the folder whose real path is `skip` not walked.
   */
  walk(folder: string, skip?: string): Promise<LocalEntry[]>;
  /** The absolute path `path` names when a file or folder is there (`~/` as the home folder), else undefined. */
  existing(path: string): Promise<string | undefined>;
}

/** Whether this runtime has a file system to add paths from (Node, Deno). */
export const hasLocalFiles = hasNodeFiles;

/**
 * Node's file system, where there is one (Node, Deno); else `UNSUPPORTED_INPUT`.
 *
 * @example
 * const files = await loadLocalFiles();
 * const entries = await files.walk(files.absolute('./docs'));
 */
export async function loadLocalFiles(): Promise<LocalFiles> {
  if (!hasNodeFiles()) {
    throw new LongshipError(
      'UNSUPPORTED_INPUT',
      'adding a path needs Node or Deno (their node:fs); pass the files as a folder of { path, content }',
    );
  }
  const [fs, path, url, os, proc] = await Promise.all([
    import('node:fs'),
    import('node:path'),
    import('node:url'),
    import('node:os'),
    import('node:process'),
  ]);
  const { readdir, readFile, realpath, stat } = fs.promises;
  const isWithin = (p: string, folder: string) => p === folder || p.startsWith(folder + path.sep);
  const realPath = async (p: string): Promise<string> => {
    try {
      return await realpath(p);
    } catch {
      const parent = path.dirname(p);
      return parent === p ? p : path.join(await realPath(parent), path.basename(p));
    }
  };
  // openAsBlob reads nothing until the blob is, so an oversized file costs only its size check.
  const asBlob = async (p: string): Promise<Blob> =>
    typeof fs.openAsBlob === 'function' ? fs.openAsBlob(p) : new Blob([await readFile(p)]);

  const walk = async (root: string, folder: string, skip?: string): Promise<LocalEntry[]> => {
    // Through a link, a skipped folder reads as another path: compare real paths.
    if (skip !== undefined && (await realPath(folder)) === skip) return [];
    const children = await readdir(folder, { withFileTypes: true }).catch((error) => {
      throw unreadable(folder, error);
    });
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const entries: LocalEntry[] = [];
    for (const child of children) {
      if (child.name.startsWith('.') || child.name === 'node_modules') continue;
      const absolute = path.join(folder, child.name);
      if (child.isDirectory()) entries.push(...(await walk(root, absolute, skip)));
      else if (child.isFile()) {
        const content = await asBlob(absolute).catch((error) => {
          throw unreadable(absolute, error);
        });
        entries.push({ path: path.relative(root, absolute).split(path.sep).join('/'), content });
      }
    }
    return entries;
  };

  return {
    absolute: (p, cwd) => path.resolve(cwd ?? proc.cwd(), p),
    fromUrl: (u) => url.fileURLToPath(u),
    basename: (p) => path.basename(p),
    async kind(p, shown) {
      const info = await stat(p).catch((error) => {
        throw unreadable(shown, error);
      });
      if (info.isDirectory()) return { kind: 'folder' };
      return info.isFile() ? { kind: 'file', size: info.size } : { kind: 'other' };
    },
    blob: (p, shown) =>
      asBlob(p).catch((error) => {
        throw unreadable(shown, error);
      }),
    realPath,
    isWithin,
    walk: (folder, skip) => walk(folder, folder, skip),
    async existing(p) {
      const home = /^~(?=$|[/\\])/.test(p) ? path.join(os.homedir(), p.slice(1)) : p;
      const absolute = path.resolve(proc.cwd(), home);
      return (await stat(absolute).then(
        () => true,
        () => false,
      ))
        ? absolute
        : undefined;
    },
  };
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
