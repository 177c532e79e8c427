// How the file store writes a file that must be whole or absent (a checkpoint, a snapshot's
// temporary file): created, written, flushed; removed again if any of that fails.
import type { FileHandle } from 'node:fs/promises';
import type { NodeFiles } from '../../env/node-files.js';

/**
 * Creates `path` (it must not exist), runs `write` on it, and flushes and closes it; on any failure
 * the file is closed and removed, and the failure rethrown as it was.
 *
 * @example
 * const size = await writeNewFile(files, file, async (handle) => (await handle.write(bytes)).bytesWritten);
 */
export async function writeNewFile<T>(
  files: NodeFiles,
  path: string,
  write: (handle: FileHandle) => Promise<T>,
): Promise<T> {
  let handle: FileHandle | undefined;
  try {
    handle = await files.fs.promises.open(path, 'wx');
    const result = await write(handle);
    await handle.datasync();
    await handle.close();
    handle = undefined;
    return result;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await files.fs.promises.rm(path, { force: true }).catch(() => undefined);
    throw error;
  }
}
