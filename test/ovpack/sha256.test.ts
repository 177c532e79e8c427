// The incremental SHA-256 the packs are checked with agrees with Node's, fed whole or in pieces
// that split its 64-byte blocks anywhere.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sha256, sha256Hex } from '../../src/ovpack/sha256.js';

describe('Sha256', () => {
  it.each([0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_000])('hashes %i bytes as node:crypto does', (n) => {
    const data = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 255);
    const want = createHash('sha256').update(data).digest('hex');
    expect(sha256Hex(data)).toBe(want);
    const pieces = new Sha256();
    for (let i = 0; i < n; i += 37) pieces.update(data.subarray(i, i + 37));
    expect(pieces.hex()).toBe(want);
  });
});
