// How the file store's log and checkpoint hold records: frames of [length u32][checksum u32]
// [payload][zeros to a multiple of 4 bytes], little-endian, the checksum (the snapshots' fnv4, four
// times faster than CRC-32 in JS, which counts at a 30 MB checkpoint) taken over the length's four
// bytes and then the payload. A crash while a frame is appended leaves a tail that is cut short (its
// length runs past the end of the file), or zeros where the file system extended the file before the
// data reached it (length 0 is never written), or bytes that fail the checksum: each ends the
// readable frames there. Intact frames after such a frame mean damage, not a torn tail
// (docs/guide/file-store.md).

import { newChecksum } from '../snapshot/snapshot-checksum.js';

export const FRAME_HEADER_BYTES = 8;

/** Larger than any frame written: a length past it is damage, not a record. */
const MAX_FRAME_BYTES = 1 << 30;

/**
 * The frames of these payloads, back to back, in one buffer to write at once.
 *
 * @example
 * await file.write(frames([payload]));
 */
export function frames(payloads: readonly Uint8Array[]): Uint8Array {
  const total = payloads.reduce((sum, p) => sum + FRAME_HEADER_BYTES + padded(p.length), 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const payload of payloads) {
    if (payload.length === 0 || payload.length > MAX_FRAME_BYTES) {
      throw new RangeError(`a frame holds 1..${MAX_FRAME_BYTES} bytes, not ${payload.length}`);
    }
    view.setUint32(at, payload.length, true);
    view.setUint32(at + 4, checksum(out.subarray(at, at + 4), payload), true);
    out.set(payload, at + FRAME_HEADER_BYTES);
    at += FRAME_HEADER_BYTES + padded(payload.length);
  }
  return out;
}

/** Payloads start 4-byte aligned, so the checksum reads them as words without a copy. */
function padded(length: number): number {
  return (length + 3) & ~3;
}

function checksum(length: Uint8Array, payload: Uint8Array): number {
  const sum = newChecksum('fnv4');
  sum.add(length);
  sum.add(payload);
  return sum.value();
}

export interface ReadFrames {
  /** The payloads of the whole, intact frames from the start, in order (views into the bytes). */
  payloads: Uint8Array[];
  /** Where the intact frames end: the length of the bytes, or where a damaged or torn frame starts. */
  end: number;
}

/**
 * Reads frames from `bytes` until the end or the first frame that is cut short, zeroed or fails its
 * CRC. Nothing after that frame is read: it cannot be told from damage.
 *
 * @example
 * const { payloads, end } = readFrames(await readFile(log));
 * if (end < size) await truncate(log, end);
 */
export function readFrames(bytes: Uint8Array): ReadFrames {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const payloads: Uint8Array[] = [];
  let at = 0;
  for (let payload = frameAt(bytes, view, at); payload; payload = frameAt(bytes, view, at)) {
    payloads.push(payload);
    at = payload.byteOffset - bytes.byteOffset + padded(payload.length);
  }
  return { payloads, end: at };
}

/**
 * Where the first intact frame after `end` (where {@link readFrames} stopped) starts, if any. A
 * crash tears only the tail: a frame that fails with an intact one after it is damage, and what
 * follows it must not be cut off unseen. Frames are 4-byte aligned, so it looks at every fourth byte.
 *
 * @example
 * const { end } = readFrames(bytes);
 * if (intactFrameAfter(bytes, end) !== undefined) throw damaged();
 */
export function intactFrameAfter(bytes: Uint8Array, end: number): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = end + 4; at + FRAME_HEADER_BYTES <= bytes.length; at += 4) {
    if (frameAt(bytes, view, at)) return at;
  }
  return undefined;
}

/** The payload of the intact frame at `at`, or undefined where there is none. */
function frameAt(bytes: Uint8Array, view: DataView, at: number): Uint8Array | undefined {
  if (at + FRAME_HEADER_BYTES > bytes.length) return undefined;
  const length = view.getUint32(at, true);
  const start = at + FRAME_HEADER_BYTES;
  if (length === 0 || length > MAX_FRAME_BYTES || start + padded(length) > bytes.length) return undefined;
  const payload = bytes.subarray(start, start + length);
  return checksum(bytes.subarray(at, at + 4), payload) === view.getUint32(at + 4, true) ? payload : undefined;
}
