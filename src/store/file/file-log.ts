// The file store's write-ahead log: frames appended to one file, in order. A commit's frame is
// written and fdatasync'd before commit() resolves; a torn tail left by a crash is cut off when the
// log is opened, before anything is appended after it (docs/guide/file-store.md).

import type { FileHandle } from 'node:fs/promises';
import type { NodeFiles } from '../../env/node-files.js';
import { LongshipError } from '../../errors.js';
import { SerialQueue } from '../../serial-queue.js';
import { frames, intactFrameAfter, readFrames } from './file-frames.js';

/** Wraps a failed file operation as a STORE_ERROR naming the file. */
export function fileError(what: string, file: string, error: unknown): LongshipError {
  if (error instanceof LongshipError) return error;
  const code = (error as { code?: string }).code;
  return new LongshipError('STORE_ERROR', `${what} ${file} failed${code ? ` (${code})` : ''}`, {
    cause: error,
  });
}

/** Flushes a directory, so that a rename or a new file in it survives a crash. */
export async function syncDirectory(files: NodeFiles, dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await files.fs.promises.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    // Windows cannot open a directory to flush it; its renames are durable once they return.
    if ((error as { code?: string }).code !== 'EISDIR' && (error as { code?: string }).code !== 'EPERM') {
      throw fileError('flushing the folder', dir, error);
    }
  } finally {
    await handle?.close();
  }
}

export interface OpenedLog {
  log: FileLog;
  /** The payloads of the intact frames, the header's first. */
  payloads: Uint8Array[];
  /** Bytes of a torn or damaged tail that were cut off. */
  droppedBytes: number;
}

/** An open log file, appended to one write at a time. */
export class FileLog {
  readonly #queue = new SerialQueue();
  #broken: LongshipError | undefined;

  private constructor(
    private readonly handle: FileHandle,
    readonly file: string,
    /** Bytes in the file: where the next frame goes. */
    public size: number,
  ) {}

  /** Creates a log holding only `header`, flushed; fails if the file exists. */
  static async create(files: NodeFiles, file: string, header: Uint8Array): Promise<FileLog> {
    let handle: FileHandle | undefined;
    try {
      handle = await files.fs.promises.open(file, 'wx');
      const bytes = frames([header]);
      await handle.write(bytes, 0, bytes.length, 0);
      await handle.datasync();
      return new FileLog(handle, file, bytes.length);
    } catch (error) {
      await handle?.close();
      throw fileError('creating the log', file, error);
    }
  }

  /**
   * Opens a log, reads its intact frames and cuts off (and flushes the cut of) a torn tail. A log
   * left without a single intact frame (created, then a crash before its header reached the disk)
   * gets `header` written in place. Damage with intact frames after it is no torn tail: STORE_ERROR,
   * and the file is left as it is (docs/guide/file-store.md).
   */
  static async open(files: NodeFiles, file: string, header: Uint8Array): Promise<OpenedLog> {
    let handle: FileHandle | undefined;
    try {
      handle = await files.fs.promises.open(file, 'r+');
      const bytes = new Uint8Array(await handle.readFile());
      const { payloads, end } = readFrames(bytes);
      if (end < bytes.length && intactFrameAfter(bytes, end) !== undefined) {
        throw new LongshipError(
          'STORE_ERROR',
          `the log ${file} is damaged at byte ${end}, and intact records follow: that is no torn tail ` +
            `of a crash, so nothing is cut off. To open the store without the records from there on ` +
            `(they are lost), truncate the file to ${end} bytes.`,
        );
      }
      if (end < bytes.length) {
        await handle.truncate(end);
        await handle.datasync();
      }
      if (payloads.length > 0) {
        return { log: new FileLog(handle, file, end), payloads, droppedBytes: bytes.length - end };
      }
      const written = frames([header]);
      await handle.write(written, 0, written.length, 0);
      await handle.datasync();
      return {
        log: new FileLog(handle, file, written.length),
        payloads: [header],
        droppedBytes: bytes.length,
      };
    } catch (error) {
      await handle?.close();
      throw fileError('reading the log', file, error);
    }
  }

  /**
   * Appends the frames of `payloads` in one write; with `sync`, resolves once they are on disk (and
   * so is everything appended before). A failed write is cut off again, so the log never holds half
   * a frame followed by more; if even that fails, every later append fails.
   */
  append(payloads: readonly Uint8Array[], sync: boolean): Promise<void> {
    return this.#queue.run(async () => {
      if (this.#broken) throw this.#broken;
      const bytes = frames(payloads);
      const at = this.size;
      try {
        let written = 0;
        while (written < bytes.length) {
          const { bytesWritten } = await this.handle.write(
            bytes,
            written,
            bytes.length - written,
            at + written,
          );
          written += bytesWritten;
        }
        if (sync) await this.handle.datasync();
        this.size = at + bytes.length;
      } catch (error) {
        const failed = fileError('appending to the log', this.file, error);
        try {
          await this.handle.truncate(at);
        } catch {
          this.#broken = failed;
        }
        throw failed;
      }
    });
  }

  /** Flushes what was appended without `sync`. */
  sync(): Promise<void> {
    return this.#queue.run(() => this.handle.datasync());
  }

  async close(): Promise<void> {
    await this.#queue.idle();
    await this.handle.close();
  }
}
