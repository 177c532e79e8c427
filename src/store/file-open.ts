// Opening a file store: the path (a path or a file: URL), the folder (new, empty, a store, or
// refused untouched), the lock, then the checkpoint and the log replayed on top of it.

import { loadNodeFiles, type NodeFiles } from '../env/node-files.js';
import { LongshipError } from '../errors.js';
import { adoptEmbedder } from './embedder-check.js';
import { CHECKPOINT_FILE, FORMAT, FORMAT_VERSION, MARKER_FILE, readCheckpoint } from './file-checkpoint.js';
import { acquireLock, type FileLock, LOCK_FILE } from './file-lock.js';
import { FileLog, fileError, type OpenedLog, syncDirectory } from './file-log.js';
import { RecordCodec, RecordKind } from './file-records.js';
import { applyRecord } from './file-replay.js';
import { SNAPSHOT_DIR } from './file-snapshots.js';
import { FileStore, logFile } from './file-store.js';
import { MemoryData } from './memory-data.js';
import type { OpenStoreOptions } from './store.js';

export interface FileStoreOptions extends OpenStoreOptions {
  /**
   * The log is folded into a new checkpoint once it is larger than this and than the checkpoint
   * (default 8 MiB): an open replays at most that much log.
   */
  checkpointAfterBytes?: number;
}

const OPTIONS = new Set(['embedder', 'onEmbedderMismatch', 'checkpointAfterBytes']);
const DEFAULT_CHECKPOINT_AFTER_BYTES = 8 * 1024 * 1024;

/**
 * Opens (creating if need be) the store in folder `path`: a path, or a `file:` URL as a string or a
 * URL. Node and Deno only (in Deno: `--allow-read` and `--allow-write` on the folder).
 *
 * Fails, touching nothing there, with `INVALID_ARGUMENT` when the path is a file or a folder that
 * holds something other than a store, `STORE_LOCKED` when another process has the store open,
 * `STORE_ERROR` when the folder cannot be written, `SCHEMA_MISMATCH` for a newer format, and
 * `EMBEDDER_MISMATCH` as every store does.
 *
 * @example
 * const store = await openFileStore('./context', { embedder: { id: 'use-lite', dimensions: 512 } });
 */
export async function openFileStore(path: string | URL, options: FileStoreOptions = {}): Promise<FileStore> {
  return openFileStoreWith(await loadNodeFiles(), path, options);
}

/**
 * {@link openFileStore} on the file system `files` gives: the runtime's, or (in tests) one that
 * fails from a chosen write on, as a crash would stop the process there.
 */
export async function openFileStoreWith(
  files: NodeFiles,
  path: string | URL,
  options: FileStoreOptions = {},
): Promise<FileStore> {
  for (const key of Object.keys(options ?? {})) {
    if (!OPTIONS.has(key)) throw new LongshipError('INVALID_ARGUMENT', `openFileStore has no option ${key}`);
  }
  const checkpointAfterBytes = options.checkpointAfterBytes ?? DEFAULT_CHECKPOINT_AFTER_BYTES;
  if (!Number.isSafeInteger(checkpointAfterBytes) || checkpointAfterBytes < 0) {
    throw new LongshipError('INVALID_ARGUMENT', 'checkpointAfterBytes must be a non-negative integer');
  }
  const dir = resolveFolder(files, path);
  await prepareFolder(files, dir);
  const lock = await acquireLock(files, dir);
  let store: FileStore;
  try {
    store = await load(files, dir, lock, checkpointAfterBytes);
  } catch (error) {
    await lock.release();
    throw error;
  }
  return adoptEmbedder(store, options);
}

/** The absolute folder a path or file: URL names. */
export function resolveFolder(files: NodeFiles, path: string | URL): string {
  const bad = (why: string) => new LongshipError('INVALID_ARGUMENT', `a file store path ${why}`);
  if (path instanceof URL || (typeof path === 'string' && path.startsWith('file:'))) {
    const url = typeof path === 'string' ? parseUrl(path) : path;
    if (url?.protocol !== 'file:') throw bad(`must be a path or a file: URL, not ${String(path)}`);
    return files.path.resolve(files.url.fileURLToPath(url));
  }
  if (typeof path !== 'string' || path === '') throw bad('must be a non-empty string or a file: URL');
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(path)) throw bad(`must be a path or a file: URL, not ${path}`);
  return files.path.resolve(path);
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Makes sure `dir` is a store's folder, creating it (and its marker) if missing or empty. */
async function prepareFolder(files: NodeFiles, dir: string): Promise<void> {
  const { fs, path } = files;
  const stat = await fs.promises.stat(dir).catch((error: { code?: string }) => {
    if (error.code === 'ENOENT') return undefined;
    if (error.code === 'ENOTDIR') {
      throw new LongshipError('INVALID_ARGUMENT', `${dir} cannot be a folder: a file lies on its path`);
    }
    throw fileError('reading', dir, error);
  });
  if (stat && !stat.isDirectory()) {
    throw new LongshipError('INVALID_ARGUMENT', `${dir} is a file, not a folder for a store`);
  }
  if (!stat) {
    await fs.promises.mkdir(dir, { recursive: true }).catch((error: { code?: string }) => {
      if (error.code === 'ENOTDIR' || error.code === 'EEXIST') {
        throw new LongshipError('INVALID_ARGUMENT', `${dir} cannot be a folder: a file lies on its path`);
      }
      throw cannotWrite(dir, error);
    });
  }
  const entries = await fs.promises.readdir(dir).catch((error) => {
    throw fileError('reading the folder', dir, error);
  });
  if (entries.includes(MARKER_FILE)) return checkMarker(files, dir);
  const marker = path.join(dir, MARKER_FILE);
  const temp = `${marker}.tmp`;
  // A marker half made (a crash while the store was created) is ours: the folder is still empty.
  const others = entries.filter((name) => name !== path.basename(temp));
  if (others.length > 0) {
    const shown = others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '');
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `${dir} holds other files (${shown}) and is not a Longship store: give an empty or new folder`,
    );
  }
  try {
    await fs.promises.rm(temp, { force: true });
    await fs.promises.writeFile(temp, `${JSON.stringify({ format: FORMAT, version: FORMAT_VERSION })}\n`, {
      flag: 'wx',
    });
    const handle = await fs.promises.open(temp, 'r+');
    await handle.sync();
    await handle.close();
    await fs.promises.rename(temp, marker);
    await syncDirectory(files, dir);
  } catch (error) {
    await fs.promises.rm(temp, { force: true }).catch(() => undefined);
    throw cannotWrite(dir, error);
  }
}

function cannotWrite(dir: string, error: unknown): LongshipError {
  const code = (error as { code?: string }).code;
  return new LongshipError('STORE_ERROR', `cannot write to ${dir}${code ? ` (${code})` : ''}`, {
    cause: error,
  });
}

async function checkMarker(files: NodeFiles, dir: string): Promise<void> {
  const file = files.path.join(dir, MARKER_FILE);
  let marker: { format?: unknown; version?: unknown } | undefined;
  try {
    marker = JSON.parse(await files.fs.promises.readFile(file, 'utf8'));
  } catch {
    marker = undefined;
  }
  if (marker?.format !== FORMAT || typeof marker.version !== 'number') {
    throw new LongshipError('INVALID_ARGUMENT', `${dir} is not a Longship store: ${file} is not its marker`);
  }
  if (marker.version > FORMAT_VERSION) {
    throw new LongshipError(
      'SCHEMA_MISMATCH',
      `the store at ${dir} has format version ${marker.version}; this Longship reads up to ${FORMAT_VERSION}`,
    );
  }
}

/** Reads the checkpoint and replays the log; removes what an interrupted write left behind. */
async function load(files: NodeFiles, dir: string, lock: FileLock, checkpointAfterBytes: number) {
  const { fs, path } = files;
  const codec = new RecordCodec(files.v8);
  const data = new MemoryData();
  const entries = await fs.promises.readdir(dir);
  let generation = 0;
  let checkpointBytes = 0;
  if (entries.includes(CHECKPOINT_FILE)) {
    ({ generation, byteLength: checkpointBytes } = await readCheckpoint(
      files,
      path.join(dir, CHECKPOINT_FILE),
      codec,
      data,
    ));
  }
  const current = logFile(files, dir, generation);
  for (const name of entries) {
    const stray = /^log-\d+$/.test(name) ? path.join(dir, name) !== current : name.endsWith('.tmp');
    if (stray && name !== LOCK_FILE) await fs.promises.rm(path.join(dir, name), { force: true });
  }
  for (const name of await fs.promises.readdir(path.join(dir, SNAPSHOT_DIR)).catch(() => [] as string[])) {
    if (name.endsWith('.tmp')) await fs.promises.rm(path.join(dir, SNAPSHOT_DIR, name), { force: true });
  }
  const header = () =>
    codec.encode(RecordKind.header, { format: FORMAT, version: FORMAT_VERSION, generation });
  let opened: OpenedLog;
  if (entries.includes(path.basename(current))) {
    opened = await FileLog.open(files, current);
    if (opened.payloads.length === 0) {
      // Created, then a crash before its header reached the disk: it never held a record.
      await opened.log.close();
      await fs.promises.rm(current);
      opened = { log: await FileLog.create(files, current, header()), payloads: [], droppedBytes: 0 };
    }
  } else if (generation === 0) {
    opened = { log: await FileLog.create(files, current, header()), payloads: [], droppedBytes: 0 };
    await syncDirectory(files, dir);
  } else {
    throw new LongshipError('STORE_ERROR', `the store at ${dir} has lost its log ${current}`);
  }
  try {
    const [first, ...records] = opened.payloads.map((p) => codec.decode(p));
    const head = first?.body as { format?: string; generation?: number } | undefined;
    if (
      first &&
      (first.kind !== RecordKind.header || head?.format !== FORMAT || head.generation !== generation)
    ) {
      throw new LongshipError(
        'STORE_ERROR',
        `the log ${current} does not belong to checkpoint ${generation}`,
      );
    }
    for (const record of records) applyRecord(data, record);
  } catch (error) {
    await opened.log.close();
    throw error;
  }
  return new FileStore({
    files,
    dir,
    codec,
    data,
    log: opened.log,
    lock,
    generation,
    checkpointBytes,
    checkpointAfterBytes,
  });
}
