// The File reader of OPFS snapshots (a SharedWorker's way to read the graph's file into the heap): a
// File's stream where it is a byte stream (Chromium, Node), or any stream's chunks where it is not;
// the rest of the file read whole where the stream stalls or fails.
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_CHUNK_BYTES } from '../../../src/store/change-log.js';
import { streamReader } from '../../../src/store/idb/opfs-stream-reader.js';

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
        else {
          controller.enqueue(bytes.slice(at, at + piece));
          at += piece;
        }
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

/**
 * A File whose stream gives `before` bytes and then never another (`stall`) or an error (`fail`);
 * slicing it works, as a File's does.
 */
function brokenAfter(
  bytes: Uint8Array<ArrayBuffer>,
  before: number,
  how: 'stall' | 'fail',
  type?: 'bytes',
): File {
  const file = new File([bytes], 'snapshot');
  const stream = () => {
    let at = 0;
    const source = {
      pull(controller: ReadableStreamDefaultController<Uint8Array>) {
        if (at < before) {
          const end = Math.min(before, at + 65_536);
          controller.enqueue(bytes.slice(at, end));
          at = end;
          return undefined;
        }
        if (how === 'fail') throw new Error('the stream broke');
        return new Promise<void>(() => {});
      },
    };
    return type
      ? new ReadableStream({ ...source, type } as UnderlyingByteSource)
      : new ReadableStream(source);
  };
  return { size: file.size, stream, slice: (start?: number) => file.slice(start) } as unknown as File;
}

describe.each([
  ['a byte stream', 'bytes' as const],
  ['a plain stream', undefined],
])('streamReader over %s that stops giving bytes', (_kind, type) => {
  it.each(['stall', 'fail'] as const)('reads the rest whole when the stream %ss mid-file', async (how) => {
    const bytes = pattern(SNAPSHOT_CHUNK_BYTES + 300_001);
    const reader = streamReader(brokenAfter(bytes, 1_000_003, how, type), 50);
    const read = new Uint8Array(bytes.length);
    const first = read.subarray(0, SNAPSHOT_CHUNK_BYTES);
    expect(await reader.read(first, 0)).toBe(first.length);
    expect(await reader.read(read.subarray(SNAPSHOT_CHUNK_BYTES), SNAPSHOT_CHUNK_BYTES)).toBe(300_001);
    expect(same(read, bytes)).toBe(true);
    expect(await reader.read(new Uint8Array(10), bytes.length)).toBe(0);
    reader.close();
  });
});
