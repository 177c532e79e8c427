// How every Store lays out a snapshot: chunks written under a fresh generation id, then a header
// naming that generation. The header is the commit point, so a crash or failure while chunks are
// being written leaves the previous snapshot in place; stray chunks of an unfinished generation
// are deleted by the next putSnapshot of that name.

import { LongshipError } from '../../errors.js';
import {
  SNAPSHOT_CHUNK_BYTES,
  type Snapshot,
  type SnapshotBytes,
  type SnapshotPieces,
  type SnapshotRanges,
  type SnapshotSink,
} from '../change-log.js';
import { newChecksum, SNAPSHOT_HASH, type SnapshotHash } from './snapshot-checksum.js';

export interface SnapshotHeader {
  name: string;
  seq: number;
  generation: string;
  byteLength: number;
  chunkCount: number;
  /** The checksum of all the bytes, by `hash` (snapshot-checksum.ts). */
  checksum: number;
  /** Absent in headers written before it: those were summed with CRC-32. */
  hash?: SnapshotHash;
  createdAt: number;
}

export interface SnapshotChunk {
  name: string;
  generation: string;
  index: number;
  bytes: Uint8Array;
}

/** A random id. Not randomUUID(): browsers only offer that in secure contexts. */
export function newGeneration(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Checks the name and seq of a snapshot before anything is written. */
export function checkSnapshotInput(name: unknown, seq: unknown, lastSeq: number): void {
  if (typeof name !== 'string' || name === '') {
    throw new LongshipError('INVALID_ARGUMENT', 'a snapshot needs a non-empty name');
  }
  if (!Number.isSafeInteger(seq) || (seq as number) < 0 || (seq as number) > lastSeq) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `snapshot seq ${String(seq)} is not a committed sequence (0..${lastSeq})`,
    );
  }
}

async function* pieces(bytes: SnapshotBytes): AsyncIterable<Uint8Array> {
  if (bytes instanceof Uint8Array) yield bytes;
  else yield* bytes;
}

/**
 * Cuts the input into chunks of exactly `chunkBytes` (the last may be shorter), copying as it goes:
 * a piece may be a view into a WASM heap that the next allocation invalidates.
 *
 * @example
 * for await (const chunk of rechunk(bytes)) await write(chunk);
 */
export async function* rechunk(
  bytes: SnapshotBytes,
  chunkBytes = SNAPSHOT_CHUNK_BYTES,
): AsyncIterable<Uint8Array<ArrayBuffer>> {
  let buffer = new Uint8Array(chunkBytes);
  let filled = 0;
  for await (const piece of pieces(bytes)) {
    if (!(piece instanceof Uint8Array)) {
      throw new LongshipError('INVALID_ARGUMENT', 'snapshot bytes must be Uint8Arrays');
    }
    let offset = 0;
    while (offset < piece.length) {
      const n = Math.min(chunkBytes - filled, piece.length - offset);
      buffer.set(piece.subarray(offset, offset + n), filled);
      filled += n;
      offset += n;
      if (filled === chunkBytes) {
        yield buffer;
        buffer = new Uint8Array(chunkBytes);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield buffer.slice(0, filled);
}

/** Running totals while chunks are written. */
export class SnapshotSummer {
  // A # field: the summer is spread into the header, and only its totals belong there.
  readonly #sum = newChecksum(SNAPSHOT_HASH);
  byteLength = 0;
  chunkCount = 0;
  checksum = this.#sum.value();
  hash = SNAPSHOT_HASH;
  add(chunk: Uint8Array): number {
    this.#sum.add(chunk);
    this.checksum = this.#sum.value();
    this.byteLength += chunk.length;
    return this.chunkCount++;
  }
}

/**
 * A header's chunks as its pieces, or undefined if any is missing, misplaced or the checksum fails:
 * the caller then rebuilds what the snapshot held.
 */
export function checkSnapshot(
  header: SnapshotHeader,
  chunks: readonly SnapshotChunk[],
): SnapshotPieces | undefined {
  if (!inOrder(header, chunks)) return undefined;
  const total = chunks.reduce(
    (sum, c) => sum + (c.bytes instanceof Uint8Array ? c.bytes.length : Number.NaN),
    0,
  );
  if (total !== header.byteLength) return undefined;
  const sum = newChecksum(header.hash);
  for (const chunk of chunks) sum.add(chunk.bytes);
  if (sum.value() !== header.checksum) return undefined;
  return { name: header.name, seq: header.seq, byteLength: total, pieces: chunks.map((c) => c.bytes) };
}

/**
 * {@link checkSnapshot} for chunks already read into one buffer, in order (`chunks` say where from):
 * the Snapshot, its bytes that buffer, or undefined.
 */
export function checkJoinedSnapshot(
  header: SnapshotHeader,
  chunks: readonly Pick<SnapshotChunk, 'index' | 'generation'>[],
  bytes: Uint8Array,
): Snapshot | undefined {
  if (!inOrder(header, chunks) || bytes.length !== header.byteLength) return undefined;
  const sum = newChecksum(header.hash);
  sum.add(bytes);
  if (sum.value() !== header.checksum) return undefined;
  return { name: header.name, seq: header.seq, bytes };
}

/** Every chunk of the header's generation, each once, in order. */
export function inOrder(
  header: SnapshotHeader,
  chunks: readonly Pick<SnapshotChunk, 'index' | 'generation'>[],
) {
  return (
    chunks.length === header.chunkCount &&
    chunks.every((chunk, i) => chunk.index === i && chunk.generation === header.generation)
  );
}

/**
 * Checked pieces as one {@link Snapshot}, its bytes a buffer of the caller's own (a store's pieces are
 * not to be changed).
 */
export function joinSnapshot(checked: SnapshotPieces | undefined): Snapshot | undefined {
  if (!checked) return undefined;
  const bytes = new Uint8Array(checked.byteLength);
  let offset = 0;
  for (const piece of checked.pieces) {
    bytes.set(piece, offset);
    offset += piece.length;
  }
  return { name: checked.name, seq: checked.seq, bytes };
}

/**
 * Checked pieces written into the sink `open` makes for them (see Store.snapshotInto). Where the
 * store holds them anyway (`ranged`, the default), they are offered to the sink as ranges too; a
 * store that read them for this call alone passes false, so that the sink keeps every byte and the
 * pieces can go.
 */
export function piecesInto<S extends SnapshotSink>(
  checked: SnapshotPieces | undefined,
  open: (byteLength: number, ranged: boolean) => S,
  ranged = true,
): { seq: number; sink: S } | undefined {
  if (!checked) return undefined;
  const sink = open(checked.byteLength, ranged);
  try {
    let offset = 0;
    for (const piece of checked.pieces) {
      sink.write(piece, offset);
      offset += piece.length;
    }
  } catch (error) {
    sink.dispose();
    throw error;
  }
  if (ranged) sink.adopt?.(piecesRanges(checked.pieces));
  return { seq: checked.seq, sink };
}

/** Ranges of pieces held in memory, in order. */
function piecesRanges(pieces: readonly Uint8Array[]): SnapshotRanges {
  return {
    read(into, at) {
      let start = 0;
      let filled = 0;
      for (const piece of pieces) {
        const from = Math.max(at, start);
        const to = Math.min(at + into.length, start + piece.length);
        if (from < to) {
          into.set(piece.subarray(from - start, to - start), from - at);
          filled += to - from;
        }
        start += piece.length;
      }
      if (filled !== into.length) {
        throw new LongshipError('STORE_ERROR', `a snapshot range ${at}+${into.length} lies past its end`);
      }
    },
    close: () => undefined,
  };
}
