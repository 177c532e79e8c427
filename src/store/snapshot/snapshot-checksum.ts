// The checksum of a snapshot's bytes. A cold open sums every byte of every snapshot (116 MB at 100k
// vectors), so it has to be cheap: FNV-1a over 32-bit words in four interleaved lanes runs several
// times faster than CRC-32 in JS (the lanes multiply in parallel; CRC-32 is a chain of table loads).
// Each step of a lane is a bijection of its state, and the lanes are folded with bijective steps too,
// so any one changed word (or byte) always changes the sum. Headers written before it carry no
// `hash` and were summed with CRC-32, which still reads.

import { crc32 } from './crc32.js';

/** The algorithms a snapshot header names: `fnv4` for new snapshots, `crc32` for older ones. */
export type SnapshotHash = 'fnv4' | 'crc32';

/** The algorithm new snapshots are summed with. */
export const SNAPSHOT_HASH: SnapshotHash = 'fnv4';

/** A running checksum: feed the bytes in order, read the value at any point. */
export interface Checksum {
  add(bytes: Uint8Array): void;
  value(): number;
}

/**
 * A running checksum of the kind a header names (`undefined`: a header from before `hash`, CRC-32).
 *
 * @example
 * const sum = newChecksum(header.hash);
 * for (const piece of pieces) sum.add(piece);
 * if (sum.value() !== header.checksum) return undefined;
 */
export function newChecksum(hash: SnapshotHash | undefined = 'crc32'): Checksum {
  return hash === 'fnv4' ? new Fnv4() : new Crc32();
}

class Crc32 implements Checksum {
  #crc = 0;
  add(bytes: Uint8Array): void {
    this.#crc = crc32(bytes, this.#crc);
  }
  value(): number {
    return this.#crc;
  }
}

const PRIME = 0x01000193;
const BLOCK = 16;

class Fnv4 implements Checksum {
  #a = 0x811c9dc5;
  #b = 0x050c5d1f;
  #c = 0x6c62272e;
  #d = 0x1b873593;
  /** Bytes of an unfinished block, carried to the next add: pieces come in any length. */
  readonly #pending = new Uint8Array(BLOCK);
  readonly #pendingWords = new Uint32Array(this.#pending.buffer);
  #held = 0;
  #length = 0;

  add(bytes: Uint8Array): void {
    this.#length += bytes.length;
    let i = 0;
    if (this.#held > 0) {
      i = Math.min(BLOCK - this.#held, bytes.length);
      this.#pending.set(bytes.subarray(0, i), this.#held);
      this.#held += i;
      if (this.#held < BLOCK) return;
      this.#blocks(this.#pendingWords, BLOCK / 4);
      this.#held = 0;
    }
    const whole = bytes.length - i - ((bytes.length - i) % BLOCK);
    if (whole > 0) {
      const start = bytes.byteOffset + i;
      // A word view needs a 4-byte-aligned offset; a misaligned piece (rare: a slice) is copied once.
      const words =
        start % 4 === 0
          ? new Uint32Array(bytes.buffer, start, whole / 4)
          : new Uint32Array(bytes.slice(i, i + whole).buffer);
      this.#blocks(words, whole / 4);
      i += whole;
    }
    this.#pending.set(bytes.subarray(i), 0);
    this.#held = bytes.length - i;
  }

  #blocks(words: Uint32Array, count: number): void {
    let a = this.#a;
    let b = this.#b;
    let c = this.#c;
    let d = this.#d;
    for (let j = 0; j < count; j += 4) {
      a = Math.imul(a ^ words[j]!, PRIME);
      b = Math.imul(b ^ words[j + 1]!, PRIME);
      c = Math.imul(c ^ words[j + 2]!, PRIME);
      d = Math.imul(d ^ words[j + 3]!, PRIME);
    }
    this.#a = a;
    this.#b = b;
    this.#c = c;
    this.#d = d;
  }

  value(): number {
    let h = this.#a;
    h = Math.imul(h ^ this.#b, PRIME);
    h = Math.imul(h ^ this.#c, PRIME);
    h = Math.imul(h ^ this.#d, PRIME);
    for (let i = 0; i < this.#held; i++) h = Math.imul(h ^ this.#pending[i]!, PRIME);
    // The length, so that trailing zero bytes count; then murmur3's finaliser (a bijection) to mix.
    h = Math.imul(h ^ (this.#length % 0x100000000), PRIME);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  }
}
