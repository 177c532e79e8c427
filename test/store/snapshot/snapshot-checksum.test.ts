import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../src/store/snapshot/crc32.js';
import { newChecksum, type SnapshotHash } from '../../../src/store/snapshot/snapshot-checksum.js';

const sumOf = (hash: SnapshotHash | undefined, pieces: readonly Uint8Array[]) => {
  const sum = newChecksum(hash);
  for (const piece of pieces) sum.add(piece);
  return sum.value();
};

/** `bytes` cut at `cuts`, each piece a view at an odd offset of a larger buffer (as a slice may be). */
function misalignedPieces(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [0, ...cuts.map((c) => Math.min(c, bytes.length)).sort((a, b) => a - b), bytes.length];
  return at.slice(1).map((end, i) => {
    const piece = bytes.subarray(at[i]!, end);
    const host = new Uint8Array(piece.length + 3);
    host.set(piece, 3);
    return host.subarray(3);
  });
}

describe('snapshot checksums', () => {
  it('fnv4 sums the same bytes to the same value however they are cut and aligned', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.nat(300), { maxLength: 6 }),
        (bytes, cuts) => {
          const whole = sumOf('fnv4', [bytes]);
          expect(sumOf('fnv4', misalignedPieces(bytes, cuts))).toBe(whole);
          const sum = newChecksum('fnv4');
          for (const piece of misalignedPieces(bytes, cuts)) {
            sum.add(piece);
            sum.value(); // reading midway changes nothing
          }
          expect(sum.value()).toBe(whole);
        },
      ),
    );
  });

  it('fnv4 changes when any one byte changes, or when bytes are added', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 300 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, where, flip) => {
          const altered = bytes.slice();
          altered[where % bytes.length]! ^= flip;
          expect(sumOf('fnv4', [altered])).not.toBe(sumOf('fnv4', [bytes]));
          expect(sumOf('fnv4', [bytes, new Uint8Array(1)])).not.toBe(sumOf('fnv4', [bytes]));
        },
      ),
    );
  });

  it('reads headers from before `hash` as CRC-32', () => {
    const bytes = new TextEncoder().encode('123456789');
    expect(sumOf(undefined, [bytes.subarray(0, 4), bytes.subarray(4)])).toBe(0xcbf43926);
    expect(sumOf('crc32', [bytes])).toBe(crc32(bytes));
    expect(sumOf('fnv4', [bytes])).not.toBe(crc32(bytes));
  });
});
