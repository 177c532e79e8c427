// The file store's snapshots: one file each in `snapshots/`, written under a temporary name,
// flushed, then renamed over the previous one (the rename is the commit point), so a crash leaves the
// old snapshot or the new one, never a mix. A file is a binary header, then the bytes as they were
// given: reading one back is a copy into the sink, with the checksum summed as it goes.
//
// Header, little-endian: magic "LSSNAP01", u32 header length, u32 CRC-32 of the rest of the header,
// f64 seq, f64 byte length, u32 checksum, u32 hash (1 fnv4, 2 crc32), f64 createdAt,
// 24 ASCII bytes of generation, u32 name length, the name in UTF-8.

import type { FileHandle } from 'node:fs/promises';
import { throwIfAborted } from '../../abort.js';
import type { NodeFiles } from '../../env/node-files.js';
import { LongshipError } from '../../errors.js';
import {
  SNAPSHOT_CHUNK_BYTES,
  type Snapshot,
  type SnapshotInput,
  type SnapshotRanges,
  type SnapshotSink,
} from '../change-log.js';
import { crc32 } from '../snapshot/crc32.js';
import { newChecksum, type SnapshotHash } from '../snapshot/snapshot-checksum.js';
import { newGeneration, rechunk, type SnapshotHeader, SnapshotSummer } from '../snapshot/snapshot-format.js';
import { fileError, syncDirectory } from './file-log.js';
import { writeNewFile } from './new-file.js';

export const SNAPSHOT_DIR = 'snapshots';
const MAGIC = 'LSSNAP01';
const FIXED = 76;
const HASH_IDS: Record<SnapshotHash, number> = { fnv4: 1, crc32: 2 };

/** A snapshot file's header, and where its bytes start. */
export interface SnapshotFileHeader extends SnapshotHeader {
  dataOffset: number;
}

/** The file of snapshot `name`: its name made safe for any file system. */
export function snapshotFile(files: NodeFiles, dir: string, name: string): string {
  const safe = encodeURIComponent(name).replace(/\./g, '%2E').replace(/\*/g, '%2A');
  return files.path.join(dir, SNAPSHOT_DIR, `${safe}.snap`);
}

function encodeHeader(header: SnapshotHeader): Uint8Array {
  const name = new TextEncoder().encode(header.name);
  const out = new Uint8Array(FIXED + name.length);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(8, out.length, true);
  view.setFloat64(16, header.seq, true);
  view.setFloat64(24, header.byteLength, true);
  view.setUint32(32, header.checksum, true);
  view.setUint32(36, HASH_IDS[header.hash ?? 'crc32'], true);
  view.setFloat64(40, header.createdAt, true);
  out.set(new TextEncoder().encode(header.generation.padEnd(24).slice(0, 24)), 48);
  view.setUint32(72, name.length, true);
  out.set(name, FIXED);
  view.setUint32(12, crc32(out.subarray(16)), true);
  return out;
}

/** Reads a snapshot file's header; undefined if it is not one or is damaged. */
export async function readSnapshotHeader(handle: FileHandle): Promise<SnapshotFileHeader | undefined> {
  const head = new Uint8Array(FIXED + 1024);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  if (bytesRead < FIXED || new TextDecoder().decode(head.subarray(0, 8)) !== MAGIC) return undefined;
  const view = new DataView(head.buffer);
  const length = view.getUint32(8, true);
  if (length < FIXED || length > bytesRead) return undefined;
  if (crc32(head.subarray(16, length)) !== view.getUint32(12, true)) return undefined;
  const nameLength = view.getUint32(72, true);
  if (FIXED + nameLength !== length) return undefined;
  const hash = (Object.keys(HASH_IDS) as SnapshotHash[]).find(
    (h) => HASH_IDS[h] === view.getUint32(36, true),
  );
  if (!hash) return undefined;
  const byteLength = view.getFloat64(24, true);
  return {
    name: new TextDecoder().decode(head.subarray(FIXED, length)),
    seq: view.getFloat64(16, true),
    generation: new TextDecoder().decode(head.subarray(48, 72)).trimEnd(),
    byteLength,
    chunkCount: Math.ceil(byteLength / SNAPSHOT_CHUNK_BYTES),
    checksum: view.getUint32(32, true),
    hash,
    createdAt: view.getFloat64(40, true),
    dataOffset: length,
  };
}

/**
 * Writes a snapshot's bytes to a temporary file beside its own and flushes it; resolves with that
 * file, for the caller to rename into place. Removes it again if the bytes fail or `signal` fires.
 */
export async function writeSnapshotTemp(
  files: NodeFiles,
  dir: string,
  input: SnapshotInput,
  signal: AbortSignal | undefined,
  live: () => void,
): Promise<string> {
  const generation = newGeneration();
  const temp = `${snapshotFile(files, dir, input.name)}.${generation}.tmp`;
  const createdAt = Date.now();
  const placeholder = encodeHeader({ ...headerFields(input, generation, createdAt), byteLength: 0 });
  try {
    await files.fs.promises.mkdir(files.path.join(dir, SNAPSHOT_DIR), { recursive: true });
    return await writeNewFile(files, temp, async (handle) => {
      const sum = new SnapshotSummer();
      let at = placeholder.length;
      for await (const chunk of rechunk(input.bytes)) {
        live();
        throwIfAborted(signal);
        sum.add(chunk);
        await writeAll(handle, chunk, at);
        at += chunk.length;
      }
      live();
      throwIfAborted(signal);
      const header = encodeHeader({ ...headerFields(input, generation, createdAt), ...sum });
      await writeAll(handle, header, 0);
      return temp;
    });
  } catch (error) {
    if (error instanceof LongshipError || !(error as { code?: string }).code) throw error;
    throw fileError('writing the snapshot', temp, error);
  }
}

function headerFields(input: SnapshotInput, generation: string, createdAt: number) {
  return { name: input.name, seq: input.seq, generation, chunkCount: 0, checksum: 0, createdAt };
}

async function writeAll(handle: FileHandle, bytes: Uint8Array, at: number): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    written += (await handle.write(bytes, written, bytes.length - written, at + written)).bytesWritten;
  }
}

/** Opens a snapshot file and checks its header and length; undefined if missing or incomplete. */
async function openSnapshot(
  files: NodeFiles,
  file: string,
  name: string,
): Promise<{ handle: FileHandle; header: SnapshotFileHeader } | undefined> {
  let handle: FileHandle;
  try {
    handle = await files.fs.promises.open(file, 'r');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw fileError('opening the snapshot', file, error);
  }
  const header = await readSnapshotHeader(handle).catch(() => undefined);
  const size = (await handle.stat()).size;
  if (!header || header.name !== name || size !== header.dataOffset + header.byteLength) {
    await handle.close();
    return undefined;
  }
  return { handle, header };
}

/**
 * Reads snapshot `name` into the sink `open` makes, checking its checksum as it reads (see
 * Store.snapshotInto). The file stays open for the sink's ranges until they are closed.
 */
export async function readSnapshotInto<S extends SnapshotSink>(
  files: NodeFiles,
  file: string,
  name: string,
  open: (byteLength: number, ranged: boolean) => S,
): Promise<{ seq: number; sink: S } | undefined> {
  const opened = await openSnapshot(files, file, name);
  if (!opened) return undefined;
  const { handle, header } = opened;
  let keep = false;
  let sink: S | undefined;
  try {
    sink = open(header.byteLength, true);
    const sum = newChecksum(header.hash);
    const piece = new Uint8Array(Math.min(SNAPSHOT_CHUNK_BYTES, Math.max(header.byteLength, 1)));
    for (let at = 0; at < header.byteLength; ) {
      const want = Math.min(piece.length, header.byteLength - at);
      const { bytesRead } = await handle.read(piece, 0, want, header.dataOffset + at);
      if (bytesRead === 0) throw new LongshipError('STORE_ERROR', `snapshot ${file} ended early`);
      const bytes = piece.subarray(0, bytesRead);
      sum.add(bytes);
      sink.write(bytes, at);
      at += bytesRead;
    }
    if (sum.value() !== header.checksum) {
      sink.dispose();
      return undefined;
    }
    if (sink.adopt) {
      sink.adopt(fileRanges(files, handle, header));
      keep = true;
    }
    return { seq: header.seq, sink };
  } catch (error) {
    sink?.dispose();
    throw error instanceof LongshipError || !(error as { code?: string }).code
      ? error
      : fileError('reading the snapshot', file, error);
  } finally {
    if (!keep) await handle.close();
  }
}

function fileRanges(files: NodeFiles, handle: FileHandle, header: SnapshotFileHeader): SnapshotRanges {
  let closed = false;
  return {
    read(into, at) {
      if (closed || at < 0 || at + into.length > header.byteLength) {
        throw new LongshipError('STORE_ERROR', `a snapshot range ${at}+${into.length} lies past its end`);
      }
      let filled = 0;
      while (filled < into.length) {
        const n = files.fs.readSync(
          handle.fd,
          into,
          filled,
          into.length - filled,
          header.dataOffset + at + filled,
        );
        if (n === 0)
          throw new LongshipError('STORE_ERROR', `snapshot ${header.name} could not be read again`);
        filled += n;
      }
    },
    close() {
      if (closed) return;
      closed = true;
      void handle.close().catch(() => undefined);
    },
  };
}

/** Snapshot `name` whole, or undefined if missing, incomplete or failing its checksum. */
export async function readSnapshot(
  files: NodeFiles,
  file: string,
  name: string,
): Promise<Snapshot | undefined> {
  const read = await readSnapshotInto(files, file, name, (length) => {
    const bytes = new Uint8Array(length);
    return {
      bytes,
      write: (piece: Uint8Array, at: number) => bytes.set(piece, at),
      dispose: () => undefined,
    };
  });
  return read && { name, seq: read.seq, bytes: read.sink.bytes };
}

/** Every snapshot file's header and the chunks its length holds, for verify() and stats(). */
export async function listSnapshots(
  files: NodeFiles,
  dir: string,
): Promise<{ headers: SnapshotHeader[]; chunkIds: Array<[string, string, number]> }> {
  const folder = files.path.join(dir, SNAPSHOT_DIR);
  const names = (await files.fs.promises.readdir(folder).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.snap'),
  );
  const headers: SnapshotHeader[] = [];
  const chunkIds: Array<[string, string, number]> = [];
  for (const name of names.sort()) {
    const handle = await files.fs.promises.open(files.path.join(folder, name), 'r');
    try {
      const header = await readSnapshotHeader(handle);
      if (!header) continue;
      const { dataOffset, ...rest } = header;
      headers.push(rest);
      const held = (await handle.stat()).size - dataOffset;
      for (let i = 0; i < header.chunkCount; i++) {
        const end = Math.min((i + 1) * SNAPSHOT_CHUNK_BYTES, header.byteLength);
        if (held >= end) chunkIds.push([header.name, header.generation, i]);
      }
    } finally {
      await handle.close();
    }
  }
  return { headers, chunkIds };
}

/**
 * Removes, at an open, the snapshots that must not be loaded: those past `seq` (commits a cut log
 * took away: their indexes would find nodes the store does not hold) and those not whole (a header
 * that does not read, a file shorter than its header says), which would read as absent anyway.
 * Their indexes are rebuilt from the store (docs/guide/file-store.md).
 */
export async function dropSnapshots(files: NodeFiles, dir: string, seq: number): Promise<void> {
  const folder = files.path.join(dir, SNAPSHOT_DIR);
  const names = await files.fs.promises.readdir(folder).catch(() => [] as string[]);
  let dropped = false;
  for (const name of names.filter((n) => n.endsWith('.snap'))) {
    const file = files.path.join(folder, name);
    let keep = false;
    try {
      const handle = await files.fs.promises.open(file, 'r');
      try {
        const header = await readSnapshotHeader(handle);
        keep =
          header !== undefined &&
          header.seq <= seq &&
          snapshotFile(files, dir, header.name) === file &&
          (await handle.stat()).size === header.dataOffset + header.byteLength;
      } finally {
        await handle.close();
      }
    } catch {
      // Unreadable: it would read as absent, so it goes too.
    }
    if (keep) continue;
    await files.fs.promises.rm(file, { force: true }).catch((error) => {
      throw fileError('removing the snapshot', file, error);
    });
    dropped = true;
  }
  if (dropped) await syncDirectory(files, folder);
}
