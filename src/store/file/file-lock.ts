// One writer per file store: a lock file created with O_EXCL that holds the writer's process id,
// and whose time the writer renews every few seconds. A lock whose process is gone (killed, crashed)
// is stale and is taken over. Where the runtime may not ask whether a process runs (Deno without
// --allow-run), a lock not renewed for LOCK_STALE_MS is stale (docs/guide/file-store.md).

import type { NodeFiles } from '../../env/node-files.js';
import { LongshipError } from '../../errors.js';
import { fileError } from './file-log.js';

export const LOCK_FILE = 'lock';
/** How often a writer renews its lock's time. */
const LOCK_RENEW_MS = 5_000;
/** A lock not renewed for this long is stale where its process cannot be asked about. */
export const LOCK_STALE_MS = 30_000;

/** A held lock; release() removes the file. */
export interface FileLock {
  release(): Promise<void>;
}

function readPid(files: NodeFiles, file: string): number | undefined {
  try {
    const pid = Number.parseInt(files.fs.readFileSync(file, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function locked(dir: string, file: string, pid: number | undefined, why: string): LongshipError {
  return new LongshipError(
    'STORE_LOCKED',
    `the store at ${dir} is open for writing in another process` +
      `${pid === undefined ? '' : ` (pid ${pid})`}${why}; close it there first. If no process has it ` +
      `open, delete ${file}.`,
  );
}

/**
 * Takes the lock of the store in `dir`, taking over a stale one.
 *
 * @example
 * const lock = await acquireLock(files, dir);
 * try { work(); } finally { await lock.release(); }
 */
export async function acquireLock(files: NodeFiles, dir: string): Promise<FileLock> {
  const { fs, path } = files;
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      try {
        fs.writeSync(fd, `${files.pid}\n`);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      const stopRenewing = files.every(LOCK_RENEW_MS, () => {
        const now = new Date();
        fs.promises.utimes(file, now, now).catch(() => undefined);
      });
      return {
        release: async () => {
          stopRenewing();
          // Only our own: a lock taken over while this process hung is the other writer's now.
          if (readPid(files, file) === files.pid) await fs.promises.rm(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw fileError('creating the lock', file, error);
    }
    const pid = readPid(files, file);
    if (pid === files.pid) throw locked(dir, file, pid, ', this one');
    const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (pid === undefined) {
      // Being written this instant, or left empty by a crash right after its creation.
      if (age < 2000) throw locked(dir, file, pid, '');
    } else {
      const alive = files.isAlive(pid);
      if (alive === true || (alive === undefined && age < LOCK_STALE_MS)) {
        const wait = Math.ceil((LOCK_STALE_MS - age) / 1000);
        throw locked(
          dir,
          file,
          pid,
          alive
            ? ''
            : ` (renewed ${Math.round(age / 1000)} s ago; this runtime may not ask whether it runs, so it counts as held for ${wait} s more: docs/guide/file-store.md)`,
        );
      }
    }
    takeOver(files, file, pid);
  }
  throw locked(dir, file, readPid(files, file), '');
}

/** Moves a stale lock aside; puts it back if, in between, it became another process's live lock. */
function takeOver(files: NodeFiles, file: string, stalePid: number | undefined): void {
  const aside = `${file}.stale-${files.pid}`;
  try {
    files.fs.renameSync(file, aside);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return;
    throw fileError('taking over the stale lock', file, error);
  }
  if (readPid(files, aside) !== stalePid) {
    try {
      files.fs.linkSync(aside, file);
    } catch {
      // Another lock is already there: it stands.
    }
  }
  files.fs.rmSync(aside, { force: true });
}
