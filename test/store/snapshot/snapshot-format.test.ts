import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../src/store/snapshot/crc32.js';
import { newChecksum } from '../../../src/store/snapshot/snapshot-checksum.js';
import {
  checkJoinedSnapshot,
  checkSnapshot,
  joinSnapshot,
  rechunk,
  type SnapshotChunk,
  type SnapshotHeader,
} from '../../../src/store/snapshot/snapshot-format.js';

/** A snapshot's chunks checked and joined, as a store reads it back. */
const assembleSnapshot = (header: SnapshotHeader, chunks: readonly SnapshotChunk[]) =>
  joinSnapshot(checkSnapshot(header, chunks))?.bytes;

/** The byte-at-a-time definition, to check the sliced one against. */
function slowCrc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return ~c >>> 0;
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of source) out.push(chunk);
  return out;
}

describe('crc32', () => {
  it('matches the standard check values', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(new TextEncoder().encode('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('agrees with the bytewise definition, and continues across pieces', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(200), (bytes, cut) => {
        const at = Math.min(cut, bytes.length);
        expect(crc32(bytes)).toBe(slowCrc32(bytes));
        expect(crc32(bytes.subarray(at), crc32(bytes.subarray(0, at)))).toBe(crc32(bytes));
      }),
    );
  });
});

describe('rechunk', () => {
  it('cuts any sequence of pieces into full chunks and one short tail, copying', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 16 }),
        async (pieces, size) => {
          const chunks = await collect(rechunk(pieces, size));
          const joined = Uint8Array.from(pieces.flatMap((p) => [...p]));
          expect(Uint8Array.from(chunks.flatMap((c) => [...c]))).toEqual(joined);
          expect(chunks.slice(0, -1).every((c) => c.length === size)).toBe(true);
          expect(chunks.every((c) => c.length > 0)).toBe(true);
          for (const piece of pieces) piece.fill(0);
          expect(Uint8Array.from(chunks.flatMap((c) => [...c]))).toEqual(joined);
        },
      ),
    );
  });

  it('refuses pieces that are not bytes', async () => {
    await expect(collect(rechunk([[1, 2, 3] as unknown as Uint8Array]))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('checkSnapshot and joinSnapshot', () => {
  const bytes = Uint8Array.from({ length: 10 }, (_, i) => i);
  const header: SnapshotHeader = {
    name: 's',
    seq: 1,
    generation: 'g',
    byteLength: 10,
    chunkCount: 2,
    checksum: crc32(bytes),
    createdAt: 0,
  };
  const chunk = (index: number, from: number, to: number, generation = 'g') => ({
    name: 's',
    generation,
    index,
    bytes: bytes.slice(from, to),
  });

  it('joins chunks in order and refuses any that are missing, extra, out of place or altered', () => {
    expect(assembleSnapshot(header, [chunk(0, 0, 6), chunk(1, 6, 10)])).toEqual(bytes);
    expect(assembleSnapshot(header, [chunk(0, 0, 6)])).toBeUndefined();
    expect(assembleSnapshot(header, [chunk(1, 6, 10), chunk(0, 0, 6)])).toBeUndefined();
    expect(assembleSnapshot(header, [chunk(0, 0, 6), chunk(1, 6, 10, 'other')])).toBeUndefined();
    expect(assembleSnapshot(header, [chunk(0, 0, 5), chunk(1, 5, 10)])).toEqual(bytes);
    expect(
      assembleSnapshot({ ...header, checksum: header.checksum ^ 1 }, [chunk(0, 0, 6), chunk(1, 6, 10)]),
    ).toBeUndefined();
    expect(assembleSnapshot(header, [chunk(0, 0, 6), chunk(1, 6, 9)])).toBeUndefined();
  });

  it('checks the sum by the algorithm the header names', () => {
    const sum = newChecksum('fnv4');
    sum.add(bytes);
    const fnv4 = { ...header, hash: 'fnv4' as const, checksum: sum.value() };
    const chunks = [chunk(0, 0, 6), chunk(1, 6, 10)];
    expect(assembleSnapshot(fnv4, chunks)).toEqual(bytes);
    expect(checkJoinedSnapshot(fnv4, chunks, bytes)?.bytes).toBe(bytes);
    // The same bytes under a CRC-32 sum do not pass as fnv4, nor fnv4's as CRC-32.
    expect(assembleSnapshot({ ...fnv4, checksum: header.checksum }, chunks)).toBeUndefined();
    expect(checkJoinedSnapshot({ ...header, checksum: fnv4.checksum }, chunks, bytes)).toBeUndefined();
  });
});
