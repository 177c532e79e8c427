// CRC-32 (IEEE 802.3, the zlib/PNG one), slicing-by-8: snapshots reach hundreds of megabytes,
// and the byte-at-a-time loop is several times slower. Computed in JS to keep dependencies out.

const TABLES = buildTables();

function buildTables(): Uint32Array {
  const t = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n]!;
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff]! ^ (c >>> 8);
      t[k * 256 + n] = c >>> 0;
    }
  }
  return t;
}

/**
 * Continues a CRC-32 over more bytes. Start with 0; feed pieces in order.
 *
 * @example
 * let crc = 0;
 * for (const piece of pieces) crc = crc32(piece, crc);
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
  const t = TABLES;
  let c = ~previous >>> 0;
  let i = 0;
  const end8 = bytes.length - (bytes.length % 8);
  for (; i < end8; i += 8) {
    const a = (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) ^ c;
    const b = bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24);
    c =
      t[7 * 256 + (a & 0xff)]! ^
      t[6 * 256 + ((a >>> 8) & 0xff)]! ^
      t[5 * 256 + ((a >>> 16) & 0xff)]! ^
      t[4 * 256 + (a >>> 24)]! ^
      t[3 * 256 + (b & 0xff)]! ^
      t[2 * 256 + ((b >>> 8) & 0xff)]! ^
      t[256 + ((b >>> 16) & 0xff)]! ^
      t[b >>> 24]!;
  }
  for (; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
