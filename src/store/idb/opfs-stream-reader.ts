// A File read chunk by chunk through its stream, for a snapshot file where no sync access handle
// exists (a SharedWorker, a page): see opfs-snapshots.ts for why it is read this way.
import { SNAPSHOT_CHUNK_BYTES } from '../change-log.js';

/** A file being read: chunk by chunk into where the caller wants it. */
export interface ChunkReader {
  size: number;
  read(into: Uint8Array, at: number): number | Promise<number>;
  close(): void;
}

/**
 * How long a read of a File's stream may take before it is given up for the rest of the file read
 * whole: Chromium's stream of a snapshot file was seen to stop mid-file (in 2 of ~12 cold opens).
 */
const STALL_MS = 1_000;

/**
 * A File read front to back through its stream. A byte stream (Chromium's, Node's) fills one buffer
 * handed back and forth, so no fresh memory is taken per chunk; another stream's chunks are copied.
 * A read that fails or stalls (`stallMs`) ends the stream: the rest of the file is read whole.
 */
export function streamReader(file: File, stallMs = STALL_MS): ChunkReader {
  const stream = file.stream();
  let reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array>;
  let byob = true;
  try {
    reader = stream.getReader({ mode: 'byob' });
  } catch {
    reader = stream.getReader();
    byob = false;
  }
  let spare = new ArrayBuffer(SNAPSHOT_CHUNK_BYTES);
  /** What the stream gave beyond the buffer it was copied into. */
  let left: Uint8Array = new Uint8Array(0);
  let taken = 0;
  let position = 0;
  let ended = false;

  /** The stream's next chunk (of up to `max` bytes where it fills a buffer); undefined at its end. */
  const pull = async (max: number): Promise<Uint8Array | undefined> => {
    const reading = byob
      ? (reader as ReadableStreamBYOBReader).read(new Uint8Array(spare, 0, Math.min(max, spare.byteLength)))
      : (reader as ReadableStreamDefaultReader<Uint8Array>).read();
    const result = await within(reading, stallMs);
    if (!result) {
      ended = true;
      void reader.cancel().catch(() => undefined);
      const rest = new Uint8Array(await file.slice(taken).arrayBuffer());
      taken += rest.length;
      return rest;
    }
    if (result.done || !result.value) return undefined;
    if (byob) spare = result.value.buffer as ArrayBuffer;
    taken += result.value.length;
    return result.value;
  };
  /** Up to `max` more bytes of the file; undefined at its end. */
  const next = async (max: number): Promise<Uint8Array | undefined> => {
    if (left.length === 0) {
      if (ended) return undefined;
      const chunk = await pull(max);
      if (!chunk?.length) {
        ended = true;
        return undefined;
      }
      left = chunk;
    }
    const piece = left.subarray(0, max);
    left = left.subarray(piece.length);
    return piece;
  };
  return {
    size: file.size,
    async read(into, at) {
      if (at !== position) return 0;
      let filled = 0;
      while (filled < into.length) {
        const piece = await next(into.length - filled);
        if (!piece) break;
        into.set(piece, filled);
        filled += piece.length;
      }
      position += filled;
      return filled;
    },
    close: () => void reader.cancel().catch(() => undefined),
  };
}

/** The promise's value, or undefined if it rejects or has not settled within `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let resolveTimeout!: (value: undefined) => void;
  const timeout = new Promise<undefined>((resolve) => {
    resolveTimeout = resolve;
  });
  const timer = setTimeout(() => resolveTimeout(undefined), ms);
  try {
    return await Promise.race([promise.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
