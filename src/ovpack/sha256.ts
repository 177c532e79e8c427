// SHA-256 fed in pieces, by @noble/hashes: crypto.subtle digests only a whole buffer at once, and an
// OVPack's files, hashed as they stream by, must not be held whole; plain-http pages have no
// crypto.subtle at all.
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';

/**
 * An incremental SHA-256: `update()` with each piece, then `hex()` once.
 *
 * @example
 * new Sha256().update(new TextEncoder().encode('hello')).hex(); // '2cf24dba…'
 */
export class Sha256 {
  readonly #hash = sha256.create();

  update(data: Uint8Array): this {
    this.#hash.update(data);
    return this;
  }

  hex(): string {
    return bytesToHex(this.#hash.digest());
  }
}

export const sha256Hex = (data: Uint8Array): string => bytesToHex(sha256(data));
