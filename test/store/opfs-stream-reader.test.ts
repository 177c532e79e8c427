// The File reader of OPFS snapshots (a SharedWorker's or a page's way to read them): a File's stream
// where it is a byte stream (Chromium, Node), or any stream's chunks where it is not.
import { describe, expect, it } from 'vitest';
import { streamReader } from '../../src/store/opfs-snapshots.js';
import { SNAPSHOT_CHUNK_BYTES } from '../../src/store/store.js';

const MB = 1024 * 1024;

function pattern(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (Math.imul(i ^ (i >>> 9), 17) + 3) & 255;
  return bytes;
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** A File of the bytes, in pieces of `piece` bytes. */
function fileOf(bytes: Uint8Array<ArrayBuffer>, piece: number): File {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let at = 0; at < bytes.length; at += piece) parts.push(bytes.slice(at, at + piece));
  return new File(parts, 'snapshot');
}

/** A stand-in whose stream is a plain one (not a byte stream), handing out chunks of `piece` bytes. */
function plainOf(bytes: Uint8Array, piece: number): File {
  const stream = () => {
    let at = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) controller.close();
        else controller.enqueue(bytes.slice(at, (at += piece)));
      },
    });
  };
  return { size: bytes.length, stream } as unknown as File;
}

describe.each([
  ['a File (a byte stream)', fileOf],
  ['a plain stream', plainOf],
])('streamReader over %s', (_kind, make) => {
  it('fills each buffer front to back, whatever the sizes of the stream’s chunks', async () => {
    const bytes = pattern(2 * SNAPSHOT_CHUNK_BYTES + 123);
    const reader = streamReader(make(bytes, 100_003));
    expect(reader.size).toBe(bytes.length);
    const read = new Uint8Array(bytes.length);
    for (let at = 0; at < bytes.length; at += SNAPSHOT_CHUNK_BYTES) {
      const into = read.subarray(at, Math.min(bytes.length, at + SNAPSHOT_CHUNK_BYTES));
      expect(await reader.read(into, at)).toBe(into.length);
    }
    expect(same(read, bytes)).toBe(true);
    reader.close();
  });

  it('reads short at the end of the file, nothing after it, and nothing out of order', async () => {
    const bytes = pattern(MB + 5);
    const reader = streamReader(make(bytes, 65_536));
    expect(await reader.read(new Uint8Array(10), 10)).toBe(0);
    const into = new Uint8Array(2 * MB);
    expect(await reader.read(into, 0)).toBe(MB + 5);
    expect(same(into.subarray(0, MB + 5), bytes)).toBe(true);
    expect(await reader.read(new Uint8Array(10), MB + 5)).toBe(0);
    reader.close();
  });
});
