// A file store's folder: a path or file: URL made absolute, then the folder judged before the lock is
// taken (a store; new, empty or half made; a store that lost its marker; or someone else's, refused
// untouched), and a new store made under the lock: log-0 first, the marker last, so that a marker
// always has a log beside it and a lost log-0 cannot pass for a new store (docs/guide/file-store.md).

import type { NodeFiles } from '../../env/node-files.js';
import { LongshipError } from '../../errors.js';
import { CHECKPOINT_FILE, FORMAT, FORMAT_VERSION, MARKER_FILE } from './file-checkpoint.js';
import { intactFrameAfter, readFrames } from './file-frames.js';
import { LOCK_FILE } from './file-lock.js';
import { FileLog, fileError, syncDirectory } from './file-log.js';
import { RecordCodec, RecordKind } from './file-records.js';

/** What the folder holds, as judged before the lock is taken. */
export type FolderState = 'store' | 'new';

/** The first log, which a new store gets before its marker. */
const FIRST_LOG = 'log-0';
/** A log holding a header alone is far smaller: anything larger held records. */
const HEADER_ONLY_BYTES = 4096;

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

/**
 * Creates `dir` if missing and says what it holds: a store, or nothing yet (empty, or a store whose
 * creation a crash cut short). Refuses, writing nothing, a folder that holds anything else.
 */
export async function judgeFolder(files: NodeFiles, dir: string): Promise<FolderState> {
  const { fs } = files;
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
  return judgeEntries(files, dir);
}

async function judgeEntries(files: NodeFiles, dir: string): Promise<FolderState> {
  const entries = await files.fs.promises.readdir(dir).catch((error) => {
    throw fileError('reading the folder', dir, error);
  });
  if (entries.includes(MARKER_FILE)) {
    await checkMarker(files, dir, entries);
    return 'store';
  }
  const others: string[] = [];
  for (const name of entries) if (!(await isHalfMade(files, dir, name))) others.push(name);
  if (others.length === 0) return 'new';
  const ours = await heldRecords(files, dir, entries);
  if (ours) {
    throw new LongshipError(
      'STORE_ERROR',
      `the store at ${dir} has lost its marker ${MARKER_FILE} (it holds ${ours}); it is not opened ` +
        `without one. If the folder is a Longship store, restore the file: ` +
        `${JSON.stringify({ format: FORMAT, version: FORMAT_VERSION })}`,
    );
  }
  const shown = others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '');
  throw new LongshipError(
    'INVALID_ARGUMENT',
    `${dir} holds other files (${shown}) and is not a Longship store: give an empty or new folder`,
  );
}

/**
 * Whether `name` is what a store's creation leaves before its marker: the marker's temporary file, a
 * lock (or a stale one moved aside), a first log with no record in it.
 */
async function isHalfMade(files: NodeFiles, dir: string, name: string): Promise<boolean> {
  const file = files.path.join(dir, name);
  if (name === `${MARKER_FILE}.tmp` || /^lock\.stale-\d+$/.test(name)) return true;
  if (name === LOCK_FILE) {
    // A process id, or nothing yet: someone else's file named `lock` is not taken over.
    const text = await files.fs.promises.readFile(file, 'utf8').catch(() => undefined);
    return text !== undefined && /^\d{0,12}\n?$/.test(text);
  }
  return name === FIRST_LOG && holdsHeaderAlone(files, file);
}

/**
 * Whether log `file` holds no record: our header alone, or not even that whole (created, then a
 * crash before its header reached the disk).
 *
 * @example
 * if (await holdsHeaderAlone(files, next)) await rm(next); // a compaction cut short
 */
export async function holdsHeaderAlone(files: NodeFiles, file: string): Promise<boolean> {
  const bytes = await readHead(files, file, HEADER_ONLY_BYTES + 1);
  if (!bytes || bytes.length > HEADER_ONLY_BYTES) return false;
  const { payloads, end } = readFrames(bytes);
  if (payloads.length > 1 || intactFrameAfter(bytes, end) !== undefined) return false;
  return payloads.length === 0 || isOurHeader(files, payloads[0]!);
}

/** Which of the store's own files (a checkpoint, a log with records) the folder holds, if any. */
async function heldRecords(files: NodeFiles, dir: string, entries: string[]): Promise<string | undefined> {
  for (const name of entries.filter((n) => n === CHECKPOINT_FILE || /^log-\d+$/.test(n))) {
    const bytes = await readHead(files, files.path.join(dir, name), 64 * 1024);
    const first = bytes && readFrames(bytes).payloads[0];
    if (first && isOurHeader(files, first)) return name;
  }
  return undefined;
}

function isOurHeader(files: NodeFiles, payload: Uint8Array): boolean {
  try {
    const record = new RecordCodec(files.v8).decode(payload);
    return record.kind === RecordKind.header && (record.body as { format?: unknown })?.format === FORMAT;
  } catch {
    return false;
  }
}

/** Up to `limit` bytes from the start of `file`; undefined if it cannot be read. */
async function readHead(files: NodeFiles, file: string, limit: number): Promise<Uint8Array | undefined> {
  let handle: Awaited<ReturnType<NodeFiles['fs']['promises']['open']>> | undefined;
  try {
    handle = await files.fs.promises.open(file, 'r');
    const bytes = new Uint8Array(limit);
    const { bytesRead } = await handle.read(bytes, 0, limit, 0);
    return bytes.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Makes the store in `dir`, which the caller has locked: log-0 (unless a crash left it), flushed,
 * then the marker, written whole and renamed into place. A folder that became a store or took in
 * other files since it was judged is judged again.
 */
export async function createStore(files: NodeFiles, dir: string): Promise<void> {
  if ((await judgeEntries(files, dir)) === 'store') return;
  const { fs, path } = files;
  const log = path.join(dir, FIRST_LOG);
  const marker = path.join(dir, MARKER_FILE);
  const temp = `${marker}.tmp`;
  try {
    if (!fs.existsSync(log)) {
      const codec = new RecordCodec(files.v8);
      const header = { format: FORMAT, version: FORMAT_VERSION, generation: 0 };
      await (await FileLog.create(files, log, codec.encode(RecordKind.header, header))).close();
      await syncDirectory(files, dir);
    }
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

/** Checks the marker; one that is not ours is someone else's folder, unless our files lie beside it. */
async function checkMarker(files: NodeFiles, dir: string, entries: string[]): Promise<void> {
  const file = files.path.join(dir, MARKER_FILE);
  let marker: { format?: unknown; version?: unknown } | undefined;
  try {
    marker = JSON.parse(await files.fs.promises.readFile(file, 'utf8'));
  } catch {
    marker = undefined;
  }
  const version = marker?.version;
  if (marker?.format !== FORMAT || typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    const ours = await heldRecords(files, dir, entries);
    if (ours) {
      throw new LongshipError(
        'STORE_ERROR',
        `the store at ${dir} has a damaged marker ${file} (it holds ${ours}); restore the file: ` +
          `${JSON.stringify({ format: FORMAT, version: FORMAT_VERSION })}`,
      );
    }
    throw new LongshipError('INVALID_ARGUMENT', `${dir} is not a Longship store: ${file} is not its marker`);
  }
  if (version > FORMAT_VERSION) {
    throw new LongshipError(
      'SCHEMA_MISMATCH',
      `the store at ${dir} has format version ${version}; this Longship reads up to ${FORMAT_VERSION}`,
    );
  }
}
