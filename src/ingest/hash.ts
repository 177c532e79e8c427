/**
 * Content hashes that tell an unchanged file from a changed one when a document is added again.
 * SHA-256 through `crypto.subtle`, which browsers, workers, Node 20, Deno and workerd all have;
 * browsers hide it on insecure (plain http) pages, so FNV-1a 64 stands in there. The algorithm is
 * part of the hash string, so hashes of the two kinds never compare equal by accident.
 */

const utf8 = new TextEncoder();
/**
 * FNV-1a 64 over the UTF-8 bytes of `text`, as `fnv1a64:` and 16 hex digits. Synchronous, not
 * cryptographic: fine for change detection, not for anything an adversary chooses.
 *
 * @example
 * fnv1a64(''); // 'fnv1a64:cbf29ce484222325'
 */
export function fnv1a64(text: string): string {
  // Four 16-bit limbs, low first: exact in doubles and many times faster than BigInt per byte.
  // The prime is 2^40 + 0x1b3, so multiplying adds the hash shifted by 40 bits (limb 2, << 8).
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (const byte of utf8.encode(text)) {
    h0 ^= byte;
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + h0 * 256 + (t1 >>> 16);
    const t3 = h3 * 0x1b3 + h1 * 256 + (t2 >>> 16);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  const hex = (limb: number) => limb.toString(16).padStart(4, '0');
  return `fnv1a64:${hex(h3)}${hex(h2)}${hex(h1)}${hex(h0)}`;
}

/**
 * A stable hash of `text`: `sha256:` and 64 hex digits where `crypto.subtle` exists, else
 * {@link fnv1a64}. Equal text always gives an equal hash in the same environment.
 *
 * @example
 * await contentHash('hello'); // 'sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'
 */
export async function contentHash(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return fnv1a64(text);
  const digest = new Uint8Array(await subtle.digest('SHA-256', utf8.encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}
