// Opening a file store: the folder judged (file-folder.ts), the lock, a new store made under it,
// then the checkpoint read and the log replayed on top of it. What an open makes of each file lost
// or damaged: the recovery table in docs/guide/file-store.md.

import { loadNodeFiles, type NodeFiles } from '../../env/node-files.js';
import { LongshipError } from '../../errors.js';
import { adoptEmbedder } from '../embedder-check.js';
import { MemoryData } from '../memory/memory-data.js';
import type { OpenStoreOptions } from '../store.js';
import { CHECKPOINT_FILE, FORMAT, FORMAT_VERSION, logFile, readCheckpoint } from './file-checkpoint.js';
import { createStore, holdsHeaderAlone, judgeFolder, resolveFolder } from './file-folder.js';
import { acquireLock, type FileLock } from './file-lock.js';
import { FileLog } from './file-log.js';
import { RecordCodec, RecordKind } from './file-records.js';
import { applyRecord } from './file-replay.js';
import { dropSnapshots, SNAPSHOT_DIR } from './file-snapshots.js';
import { FileStore } from './file-store.js';

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
 * `STORE_ERROR` when the folder cannot be written or a file holding commits is lost or damaged (the
 * recovery table in docs/guide/file-store.md), `SCHEMA_MISMATCH` for a newer format, and
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
  // Judged before the lock, which is not taken in someone else's folder; made after it, so that of
  // several processes creating one store, one makes it and the others find it locked.
  const state = await judgeFolder(files, dir);
  const lock = await acquireLock(files, dir);
  let store: FileStore;
  try {
    if (state === 'new') await createStore(files, dir);
    store = await load(files, dir, lock, checkpointAfterBytes);
  } catch (error) {
    await lock.release();
    throw error;
  }
  return adoptEmbedder(store, options);
}

/**
 * Reads the checkpoint and replays the log; removes what an interrupted write left behind, and the
 * snapshots of commits the store does not hold. Fails with STORE_ERROR, removing nothing, where a
 * file holding records is lost or does not follow the others.
 */
async function load(files: NodeFiles, dir: string, lock: FileLock, checkpointAfterBytes: number) {
  const { fs, path } = files;
  const codec = new RecordCodec(files.v8);
  const data = new MemoryData();
  const entries = await fs.promises.readdir(dir);
  let generation = 0;
  let checkpointBytes = 0;
  const hasCheckpoint = entries.includes(CHECKPOINT_FILE);
  if (hasCheckpoint) {
    ({ generation, byteLength: checkpointBytes } = await readCheckpoint(
      files,
      path.join(dir, CHECKPOINT_FILE),
      codec,
      data,
    ));
  }
  const current = logFile(files, dir, generation);
  const strays = await strayLogs(files, dir, entries, generation, hasCheckpoint);
  if (!entries.includes(path.basename(current))) {
    throw new LongshipError(
      'STORE_ERROR',
      `the store at ${dir} has lost its log ${current}: the commits since ${
        hasCheckpoint ? `checkpoint ${generation}` : 'it was made'
      } are not there; nothing was opened or removed`,
    );
  }
  const header = codec.encode(RecordKind.header, { format: FORMAT, version: FORMAT_VERSION, generation });
  const opened = await FileLog.open(files, current, header);
  try {
    const [first, ...records] = opened.payloads.map((p) => codec.decode(p));
    const head = first?.body as { format?: string; generation?: number } | undefined;
    if (first?.kind !== RecordKind.header || head?.format !== FORMAT || head.generation !== generation) {
      throw new LongshipError(
        'STORE_ERROR',
        `the log ${current} does not belong to checkpoint ${generation}`,
      );
    }
    for (const record of records) applyRecord(data, record);
    // Only once the store reads: a refusal leaves the folder as it was.
    for (const name of entries) {
      if (strays.includes(name) || name.endsWith('.tmp')) {
        await fs.promises.rm(path.join(dir, name), { force: true });
      }
    }
    for (const name of await fs.promises.readdir(path.join(dir, SNAPSHOT_DIR)).catch(() => [] as string[])) {
      if (name.endsWith('.tmp')) await fs.promises.rm(path.join(dir, SNAPSHOT_DIR, name), { force: true });
    }
    // A log cut back (a torn or damaged tail) may have taken commits a snapshot had included.
    await dropSnapshots(files, dir, data.state.seq);
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

/**
 * The logs an interrupted compaction leaves beside checkpoint `generation`, to remove: older ones
 * (folded into the checkpoint) and the next one, holding its header alone, while the current one is
 * there. Any other log holds commits the checkpoint does not lead to (the checkpoint lost, or an
 * older one put back): STORE_ERROR, before anything is removed.
 */
async function strayLogs(
  files: NodeFiles,
  dir: string,
  entries: string[],
  generation: number,
  hasCheckpoint: boolean,
): Promise<string[]> {
  const strays: string[] = [];
  for (const name of entries) {
    const n = /^log-(\d+)$/.exec(name) ? Number(name.slice(4)) : undefined;
    if (n === undefined || n === generation) continue;
    if (
      n < generation ||
      (n === generation + 1 &&
        entries.includes(`log-${generation}`) &&
        (await holdsHeaderAlone(files, files.path.join(dir, name))))
    ) {
      strays.push(name);
      continue;
    }
    throw new LongshipError(
      'STORE_ERROR',
      hasCheckpoint
        ? `the store at ${dir} holds ${name}, which does not follow its checkpoint ${generation} (an older checkpoint put back?); nothing was opened or removed`
        : `the store at ${dir} has lost its checkpoint: ${name} follows one; nothing was opened or removed`,
    );
  }
  return strays;
}
