// Snapshots whose bytes live in the origin private file system (OPFS): one file per generation,
// `<name>.<generation>`, in a directory per database. Chromium reads such a file several times
// faster than IndexedDB Blobs (a 64 MB file in ~0.3 s against ~0.9 s), and a cold open reads every
// snapshot. A dedicated Worker writes and reads it with a sync access handle, chunk by chunk; a
// SharedWorker or a page writes it through a writable stream and reads it as a File: whole, in one
// call, where the bytes are kept as read (in slices, each costs a round trip: the same 64 MB took
// ~0.75 s in 4 MB slices); through the File's stream into one reused buffer where they are copied
// into a sink (the graph, onto the WASM heap: 64 MB in 0.21-0.28 s against 0.41-0.47 s read whole,
// which puts them in fresh memory twice).
//
// The header in IndexedDB stays the commit point: the file is written and flushed first, then the
// header (marked `file`) replaces the previous one in one transaction, then the previous file goes.
// A file no header names is a stray (a crash before its header, or a file a reader still held when
// it was to go): the next write of its name, or the next open, removes it. Writers and sweepers of
// one database take turns through a Web Lock, so a sweep never sees a file whose header is on its
// way. A missing or damaged file reads as a missing snapshot: the derived indexes rebuild.

import { throwIfAborted } from '../../abort.js';
import type { Opfs } from '../../env/opfs.js';
import { openSyncAccess } from '../../env/opfs.js';
import { LongshipError } from '../../errors.js';
import { SNAPSHOT_CHUNK_BYTES, type Snapshot, type SnapshotInput, type SnapshotSink } from '../change-log.js';
import { newChecksum } from '../snapshot/snapshot-checksum.js';
import { checkSnapshotInput, newGeneration, rechunk, SnapshotSummer } from '../snapshot/snapshot-format.js';
import { fire, type IdbConnection, stateOf, under } from './idb-connection.js';
import { toStoreError } from './idb-errors.js';
import type { StoredSnapshotHeader } from './idb-schema.js';
import { type ChunkReader, streamReader } from './opfs-stream-reader.js';

/**
 * A file being read: chunk by chunk into where the caller wants it (through a sync access handle, or
 * a File's stream, front to back: `read` fills `into` unless the file ends); or its bytes read whole
 * as a File (empty when the size is not the header's).
 */
type FileReader = ChunkReader | SyncReader | { size: number; bytes: Uint8Array; close(): void };

/** A sync access handle's reader, which can read any range again (see SnapshotRanges). */
interface SyncReader extends ChunkReader {
  readRange(into: Uint8Array, at: number): void;
}

/**
 * One database's snapshot files.
 *
 * @example
 * const files = await SnapshotFiles.open(opfs, 'longship', defaultLocks(), true);
 * await files.put(connection, { name: 'hnsw', seq, bytes });
 */
export class SnapshotFiles {
  private constructor(
    private readonly root: FileSystemDirectoryHandle,
    private readonly dir: FileSystemDirectoryHandle,
    private readonly dirName: string,
    /** Whether snapshots are written here: where files can be written (Opfs), and wanted. */
    readonly writes: boolean,
    /** Whether they are written through sync access handles, rather than a writable stream. */
    private readonly syncAccess: boolean,
    private readonly locks: LockManager | undefined,
  ) {}

  static async open(
    opfs: Opfs,
    database: string,
    locks: LockManager | undefined,
    writes: boolean,
  ): Promise<SnapshotFiles> {
    const dirName = `longship-snapshots.${encodeURIComponent(database)}`;
    const dir = await opfs.root.getDirectoryHandle(dirName, { create: true });
    const writable = opfs.syncAccess || opfs.writableStreams;
    return new SnapshotFiles(opfs.root, dir, dirName, writes && writable, opfs.syncAccess, locks);
  }

  /** Writes a snapshot's bytes to a new file, then its header; the previous file goes after. */
  async put(connection: IdbConnection, input: SnapshotInput, signal?: AbortSignal): Promise<void> {
    const state = await connection.read(['meta'], 'putSnapshot', stateOf);
    checkSnapshotInput(input?.name, input?.seq, state.seq);
    throwIfAborted(signal);
    const { name, seq } = input;
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

  /** Writes the bytes to a new file, flushed and closed; their totals. */
  private async writeFile(file: string, input: SnapshotInput, signal?: AbortSignal): Promise<SnapshotSummer> {
    const created = await this.dir.getFileHandle(file, { create: true });
    if (!this.syncAccess) return writeStreaming(created, input, signal);
    const handle = await openSyncAccess(created, 'readwrite');
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
    const reader = await this.reader(header);
    if (!reader) return undefined;
    try {
      const bytes = 'bytes' in reader ? reader.bytes : new Uint8Array(header.byteLength);
      const ok = await readChecked(reader, header, (offset, length) =>
        bytes.subarray(offset, offset + length),
      );
      return ok ? { name: header.name, seq: header.seq, bytes } : undefined;
    } finally {
      reader.close();
    }
  }

  /**
   * {@link read} into a sink, a chunk at a time; damage disposes the sink, a sink's error is thrown.
   * Read through a sync access handle, the file is offered to the sink's `adopt` as ranges: a sink
   * that takes them holds the handle open (read-only: other readers may open it too; a sweep leaves
   * the file until a later one) and closes it.
   */
  async readInto<S extends SnapshotSink>(
    header: StoredSnapshotHeader,
    open: (byteLength: number, ranged: boolean) => S,
  ): Promise<{ seq: number; sink: S } | undefined> {
    const reader = await this.reader(header, true);
    if (!reader) return undefined;
    let adopted = false;
    try {
      // Made at the first chunk to read into: a File read whole needs none.
      let scratch: Uint8Array | undefined;
      const ranged = 'readRange' in reader;
      const sink = open(header.byteLength, ranged);
      let ok = false;
      try {
        ok = await readChecked(
          reader,
          header,
          (_offset, length) => {
            scratch ??= new Uint8Array(Math.min(SNAPSHOT_CHUNK_BYTES, header.byteLength));
            return scratch.subarray(0, length);
          },
          (chunk, offset) => sink.write(chunk, offset),
        );
      } catch (error) {
        sink.dispose();
        throw error;
      }
      if (!ok) {
        sink.dispose();
        return undefined;
      }
      if (ranged && sink.adopt) {
        sink.adopt({ read: reader.readRange, close: () => reader.close() });
        adopted = true;
      }
      return { seq: header.seq, sink };
    } finally {
      if (!adopted) reader.close();
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

  /**
   * A reader of the header's file: a shared sync access handle, else the File, read whole or (when
   * `streamed`, for bytes that are copied on) through its stream; undefined if it is gone.
   */
  private async reader(header: StoredSnapshotHeader, streamed = false): Promise<FileReader | undefined> {
    let handle: FileSystemFileHandle;
    try {
      handle = await this.dir.getFileHandle(fileName(header.name, header.generation));
    } catch {
      return undefined;
    }
    try {
      const sync = await openSyncAccess(handle, 'read-only');
      return {
        size: sync.getSize(),
        read: (into, at) => sync.read(into, { at }),
        readRange: (into, at) => {
          let read: number;
          try {
            read = sync.read(into, { at });
          } catch (cause) {
            throw new LongshipError('STORE_ERROR', `snapshot ${header.name}: reading its file again`, {
              cause,
            });
          }
          if (read !== into.length) {
            throw new LongshipError('STORE_ERROR', `snapshot ${header.name}: its file ended early`);
          }
        },
        close: () => sync.close(),
      };
    } catch {
      // No sync access here (a page, a SharedWorker), or the file is held exclusively: read it as a File.
    }
    try {
      const file = await handle.getFile();
      if (streamed) return streamReader(file);
      const whole = file.size === header.byteLength;
      const bytes = whole ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array(0);
      return { size: file.size, bytes, close: () => undefined };
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
 * Goes over the whole file in chunks of SNAPSHOT_CHUNK_BYTES, read into `target(offset, length)` (or
 * taken from the bytes read whole), handing each to `onChunk`, and checks length and checksum. A file
 * that cannot be read is false, never thrown; what `onChunk` throws is thrown.
 */
async function readChecked(
  reader: FileReader,
  header: StoredSnapshotHeader,
  target: (offset: number, length: number) => Uint8Array,
  onChunk?: (chunk: Uint8Array, offset: number) => void,
): Promise<boolean> {
  if (reader.size !== header.byteLength) return false;
  const sum = newChecksum(header.hash);
  for (let offset = 0; offset < header.byteLength; ) {
    const length = Math.min(SNAPSHOT_CHUNK_BYTES, header.byteLength - offset);
    let chunk: Uint8Array;
    if ('bytes' in reader) chunk = reader.bytes.subarray(offset, offset + length);
    else {
      chunk = target(offset, length);
      try {
        if ((await reader.read(chunk, offset)) !== length) return false;
      } catch {
        return false;
      }
    }
    sum.add(chunk);
    onChunk?.(chunk, offset);
    offset += length;
  }
  return sum.value() === header.checksum;
}

/**
 * Writes the bytes to `file` through a writable stream (where there is no sync access handle). They go
 * to a swap file until close() puts them in place whole; a failure aborts the stream, and the caller
 * removes the file.
 */
async function writeStreaming(
  file: FileSystemFileHandle,
  input: SnapshotInput,
  signal?: AbortSignal,
): Promise<SnapshotSummer> {
  const stream = await file.createWritable();
  try {
    const sum = new SnapshotSummer();
    // rechunk() hands over a fresh buffer each chunk, so the stream may keep it.
    for await (const chunk of rechunk(input.bytes)) {
      throwIfAborted(signal);
      sum.add(chunk);
      await stream.write(chunk);
    }
    await stream.close();
    return sum;
  } catch (error) {
    await stream.abort().catch(() => undefined);
    throw error;
  }
}
