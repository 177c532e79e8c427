// Snapshots whose bytes live in the origin private file system (OPFS): one file per generation,
// `<name>.<generation>`, in a directory per database. A dedicated Worker reads such a file with a
// sync access handle at several times the speed Chromium reads IndexedDB Blobs (a 64 MB file in
// ~0.3 s against ~0.7 s for a Blob of that size), and a cold open reads every snapshot.
//
// The header in IndexedDB stays the commit point: the file is written and flushed first, then the
// header (marked `file`) replaces the previous one in one transaction, then the previous file goes.
// A file no header names is a stray (a crash before its header, or a file a reader still held when
// it was to go): the next write of its name, or the next open, removes it. Writers and sweepers of
// one database take turns through a Web Lock, so a sweep never sees a file whose header is on its
// way. A missing or damaged file reads as a missing snapshot: the derived indexes rebuild.

import { throwIfAborted } from '../abort.js';
import type { Opfs } from '../env/opfs.js';
import { openSyncAccess } from '../env/opfs.js';
import { LongshipError } from '../errors.js';
import { fire, type IdbConnection, stateOf, under } from './idb-connection.js';
import { toStoreError } from './idb-errors.js';
import type { StoredSnapshotHeader } from './idb-schema.js';
import { newChecksum, SNAPSHOT_HASH, type SnapshotHash } from './snapshot-checksum.js';
import { checkSnapshotInput, newGeneration, rechunk, SnapshotSummer } from './snapshot-format.js';
import { SNAPSHOT_CHUNK_BYTES, type Snapshot, type SnapshotInput, type SnapshotSink } from './store.js';

/** Where a reader reads from: a sync access handle, or the file as a File where none can be had. */
interface FileReader {
  size: number;
  read(into: Uint8Array, at: number): number | Promise<number>;
  close(): void;
}

/** A file read before IndexedDB could name it (see readAhead): its bytes and their checksum. */
interface EarlyRead {
  file: string;
  bytes: Uint8Array;
  hash: SnapshotHash;
  checksum: number;
}

/**
 * One database's snapshot files.
 *
 * @example
 * const files = await SnapshotFiles.open(opfs, 'longship', defaultLocks(), true);
 * await files.put(connection, { name: 'hnsw', seq, bytes });
 */
export class SnapshotFiles {
  /** Reads begun by readAhead, by snapshot name, until read or forgotten. */
  readonly #early = new Map<string, Promise<EarlyRead | undefined>>();

  private constructor(
    private readonly root: FileSystemDirectoryHandle,
    private readonly dir: FileSystemDirectoryHandle,
    private readonly dirName: string,
    /** Whether snapshots are written here: only where sync access handles exist, and wanted. */
    readonly writes: boolean,
    private readonly locks: LockManager | undefined,
    private readonly syncAccess: boolean,
  ) {}

  static async open(
    opfs: Opfs,
    database: string,
    locks: LockManager | undefined,
    writes: boolean,
  ): Promise<SnapshotFiles> {
    const dirName = `longship-snapshots.${encodeURIComponent(database)}`;
    const dir = await opfs.root.getDirectoryHandle(dirName, { create: true });
    return new SnapshotFiles(opfs.root, dir, dirName, writes && opfs.syncAccess, locks, opfs.syncAccess);
  }

  /**
   * Starts reading the files of these snapshots before IndexedDB has opened and named them: a cold
   * open in Chromium otherwise waits ~0.1 s on IndexedDB with its thread idle, then reads. Only where
   * sync access handles read (elsewhere a read awaits anyway), and only a name with one file (beside a
   * stray, which is which is for the header to say). `read` uses the bytes only if they are the file
   * its header names, of its length and checksum; `forget` drops them. Resolves once all are read.
   */
  readAhead(names: readonly string[]): Promise<void> {
    if (!this.syncAccess || names.length === 0) return Promise.resolve();
    const listed = (async () => {
      const files: string[] = [];
      for await (const entry of entries(this.dir)) files.push(entry);
      return files;
    })();
    const reads = names.map((name) => {
      const early = listed
        .then((files) => {
          const prefix = `${encodeURIComponent(name)}.`;
          const mine = files.filter((file) => file.startsWith(prefix));
          return mine.length === 1 ? this.readEarly(mine[0]!) : undefined;
        })
        .catch(() => undefined);
      this.#early.set(name, early);
      return early;
    });
    return Promise.all(reads).then(() => undefined);
  }

  /** Drops what readAhead read of `name`, if it was not read: its header is gone or is to change. */
  forget(name: string): void {
    this.#early.delete(name);
  }

  /** Writes a snapshot's bytes to a new file, then its header; the previous file goes after. */
  async put(connection: IdbConnection, input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    const state = await connection.read(['meta'], 'putSnapshot', stateOf);
    checkSnapshotInput(input?.name, input?.seq, state.seq);
    throwIfAborted(signal);
    const { name, seq } = input;
    this.forget(name);
    await this.inTurn(false, async () => {
      const generation = newGeneration();
      const file = fileName(name, generation);
      let previous: StoredSnapshotHeader | undefined;
      try {
        // Closed before the header is in, so readers can open it at once; it is safe from sweeps
        // meanwhile because every remover takes this turn.
        const sum = await this.writeFile(file, input, signal);
        previous = await connection.write(
          ['snapshots', 'snapshotChunks'],
          'putSnapshot',
          async (tx) => {
            const before = await tx.objectStore('snapshots').get(name);
            const header: StoredSnapshotHeader = {
              name,
              seq,
              generation,
              ...sum,
              file: true,
              createdAt: Date.now(),
            };
            fire(tx.objectStore('snapshots').put(header));
            // Chunks in IndexedDB of this name: a snapshot kept there before, or an unfinished one.
            fire(tx.objectStore('snapshotChunks').delete(under(name)));
            return before;
          },
          signal,
        );
      } catch (error) {
        await this.dir.removeEntry(file).catch(() => undefined);
        throw toStoreError(error, `snapshot ${name}: writing its file`);
      }
      // A reader still holding it keeps it: then it is a stray, removed later.
      if (previous?.file)
        await this.dir.removeEntry(fileName(name, previous.generation)).catch(() => undefined);
      await this.sweepNow(connection, name);
    });
  }

  /** Writes the bytes to a new file through a sync access handle, flushed and closed; their totals. */
  private async writeFile(file: string, input: SnapshotInput, signal?: AbortSignal): Promise<SnapshotSummer> {
    const handle = await openSyncAccess(await this.dir.getFileHandle(file, { create: true }), 'readwrite');
    try {
      const sum = new SnapshotSummer();
      for await (const chunk of rechunk(input.bytes)) {
        throwIfAborted(signal);
        const offset = sum.byteLength;
        sum.add(chunk);
        if (handle.write(chunk, { at: offset }) !== chunk.length) {
          throw new LongshipError('STORE_ERROR', `snapshot ${input.name}: a short write to its file`);
        }
      }
      handle.flush();
      return sum;
    } finally {
      handle.close();
    }
  }

  /** Reads and checks the file a header names: undefined if it is missing, short or damaged. */
  async read(header: StoredSnapshotHeader): Promise<Snapshot | undefined> {
    const early = await this.takeEarly(header);
    if (early) return { name: header.name, seq: header.seq, bytes: early };
    const reader = await this.reader(header);
    if (!reader) return undefined;
    try {
      const bytes = new Uint8Array(header.byteLength);
      const ok = await readChecked(reader, header, (offset, length) =>
        bytes.subarray(offset, offset + length),
      );
      return ok ? { name: header.name, seq: header.seq, bytes } : undefined;
    } finally {
      reader.close();
    }
  }

  /** {@link read} into a sink, a chunk at a time; damage disposes the sink, a sink's error is thrown. */
  async readInto<S extends SnapshotSink>(
    header: StoredSnapshotHeader,
    open: (byteLength: number) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    const early = await this.takeEarly(header);
    if (early) {
      const sink = open(early.byteLength);
      try {
        sink.write(early, 0);
      } catch (error) {
        sink.dispose();
        throw error;
      }
      return { seq: header.seq, sink };
    }
    const reader = await this.reader(header);
    if (!reader) return undefined;
    try {
      const scratch = new Uint8Array(Math.min(SNAPSHOT_CHUNK_BYTES, header.byteLength));
      const sink = open(header.byteLength);
      let ok = false;
      try {
        ok = await readChecked(
          reader,
          header,
          (_offset, length) => scratch.subarray(0, length),
          (chunk, offset) => sink.write(chunk, offset),
        );
      } catch (error) {
        sink.dispose();
        throw error;
      }
      if (!ok) sink.dispose();
      return ok ? { seq: header.seq, sink } : undefined;
    } finally {
      reader.close();
    }
  }

  /**
   * Removes the files no header names: of one snapshot name, or all. `ifFree`: skip it when a
   * writer of this database is at work (an open need not wait for a snapshot being written).
   */
  sweep(connection: IdbConnection, name?: string, ifFree = false): Promise<void> {
    return this.inTurn(ifFree, () => this.sweepNow(connection, name));
  }

  /** Removes the database's directory with every file in it (IdbStore.destroy). */
  async destroy(): Promise<void> {
    await this.root.removeEntry(this.dirName, { recursive: true }).catch(() => undefined);
  }

  private async sweepNow(connection: IdbConnection, name?: string): Promise<void> {
    try {
      const headers = await connection.read(['snapshots'], 'snapshot files', (tx) =>
        tx.objectStore('snapshots').getAll(),
      );
      const kept = new Set(headers.filter((h) => h.file).map((h) => fileName(h.name, h.generation)));
      const prefix = name === undefined ? '' : `${encodeURIComponent(name)}.`;
      const strays: string[] = [];
      for await (const entry of entries(this.dir)) {
        if (entry.startsWith(prefix) && !kept.has(entry)) strays.push(entry);
      }
      for (const stray of strays) await this.dir.removeEntry(stray).catch(() => undefined);
    } catch {
      // Housekeeping only: what stays now goes at a later sweep.
    }
  }

  /** Runs `body` holding this database's snapshot-files lock (where there are Web Locks). */
  private async inTurn(ifFree: boolean, body: () => Promise<void>): Promise<void> {
    if (!this.locks) return body();
    await this.locks.request(`longship-snapshot-files:${this.dirName}`, { ifAvailable: ifFree }, (lock) =>
      lock ? body() : undefined,
    );
  }

  /** What readAhead read of the header's name, if it is the file the header names, whole and unchanged. */
  private async takeEarly(header: StoredSnapshotHeader): Promise<Uint8Array | undefined> {
    const pending = this.#early.get(header.name);
    if (!pending) return undefined;
    this.#early.delete(header.name);
    const early = await pending;
    const named =
      early?.file === fileName(header.name, header.generation) &&
      early.bytes.length === header.byteLength &&
      early.hash === (header.hash ?? 'crc32') &&
      early.checksum === header.checksum;
    return named ? early.bytes : undefined;
  }

  /** Reads a whole file through a sync access handle, summed as new snapshots are; undefined if it cannot. */
  private async readEarly(file: string): Promise<EarlyRead | undefined> {
    const reader = await this.reader(file);
    if (!reader) return undefined;
    try {
      const bytes = new Uint8Array(reader.size);
      const checksum = await readSummed(reader, bytes.length, SNAPSHOT_HASH, (offset, length) =>
        bytes.subarray(offset, offset + length),
      );
      return checksum === undefined ? undefined : { file, bytes, hash: SNAPSHOT_HASH, checksum };
    } finally {
      reader.close();
    }
  }

  /** A reader of the header's file: a shared sync access handle, else the File; undefined if it is gone. */
  private async reader(of: StoredSnapshotHeader | string): Promise<FileReader | undefined> {
    let handle: FileSystemFileHandle;
    try {
      handle = await this.dir.getFileHandle(typeof of === 'string' ? of : fileName(of.name, of.generation));
    } catch {
      return undefined;
    }
    try {
      const sync = await openSyncAccess(handle, 'read-only');
      return {
        size: sync.getSize(),
        read: (into, at) => sync.read(into, { at }),
        close: () => sync.close(),
      };
    } catch {
      // No sync access here (a page, a SharedWorker), or the file is held exclusively: read it as a File.
    }
    try {
      const file = await handle.getFile();
      return {
        size: file.size,
        read: async (into, at) => {
          const bytes = new Uint8Array(await file.slice(at, at + into.length).arrayBuffer());
          into.set(bytes);
          return bytes.length;
        },
        close: () => undefined,
      };
    } catch {
      return undefined;
    }
  }
}

/** A header's file: its snapshot's name (which may hold any character) and its generation. */
export function fileName(name: string, generation: string): string {
  return `${encodeURIComponent(name)}.${generation}`;
}

async function* entries(dir: FileSystemDirectoryHandle): AsyncIterable<string> {
  const listing = dir as unknown as { keys(): AsyncIterable<string> };
  yield* listing.keys();
}

/**
 * Reads the whole file in chunks of SNAPSHOT_CHUNK_BYTES into `target(offset, length)`, handing each
 * to `onChunk`, and checks length and checksum. A file that cannot be read is false, never thrown;
 * what `onChunk` throws is thrown.
 */
async function readChecked(
  reader: FileReader,
  header: StoredSnapshotHeader,
  target: (offset: number, length: number) => Uint8Array,
  onChunk?: (chunk: Uint8Array, offset: number) => void,
): Promise<boolean> {
  const sum = await readSummed(reader, header.byteLength, header.hash, target, onChunk);
  return sum === header.checksum;
}

/** {@link readChecked}'s reading: the checksum of the whole file, undefined if it is not `byteLength` long. */
async function readSummed(
  reader: FileReader,
  byteLength: number,
  hash: SnapshotHash | undefined,
  target: (offset: number, length: number) => Uint8Array,
  onChunk?: (chunk: Uint8Array, offset: number) => void,
): Promise<number | undefined> {
  if (reader.size !== byteLength) return undefined;
  const sum = newChecksum(hash);
  for (let offset = 0; offset < byteLength; ) {
    const chunk = target(offset, Math.min(SNAPSHOT_CHUNK_BYTES, byteLength - offset));
    let read: number;
    try {
      read = await reader.read(chunk, offset);
    } catch {
      return undefined;
    }
    if (read !== chunk.length) return undefined;
    sum.add(chunk);
    onChunk?.(chunk, offset);
    offset += read;
  }
  return sum.value();
}
