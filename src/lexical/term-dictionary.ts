// The vocabulary of a BM25 index, term ↔ id. A loaded one looks its terms up in the snapshot's bytes,
// through a hash table the snapshot carries, and makes strings of them only when a prefix or fuzzy
// search or a compaction needs them all: 100k terms as strings, and a Map of them, cost a reopen
// ~0.2 s to build and collect, and a plain search needs neither.

import { LongshipError } from '../errors.js';

/** The vocabulary as a snapshot stores it. */
export interface PackedTerms {
  /** Every term in UTF-8, each followed by a NUL (terms never contain one). */
  bytes: Uint8Array;
  /** Term t is `bytes` from `starts[t]` up to the NUL before `starts[t + 1]`. */
  starts: Uint32Array;
  /**
   * Term id + 1 (0: none) by the FNV-1a hash of the term's bytes, the next free entry on a
   * collision; {@link tableLength} entries.
   */
  table: Uint32Array;
}

const NUL = 0;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
/** A looked-up term's UTF-8 (3 bytes at most per UTF-16 unit), reused. */
let scratch = new Uint8Array(256);

/** The hash table's length for `terms` terms: a power of two, at most half full. */
export function tableLength(terms: number): number {
  let length = 8;
  while (length < terms * 2) length *= 2;
  return length;
}

export class TermDictionary {
  /** A snapshot's terms, ids 0 to #packedCount - 1. */
  readonly #packed: PackedTerms | undefined;
  readonly #packedCount: number;
  /** The other terms: those added since the load, or all of them for a dictionary made of strings. */
  readonly #added = new Map<string, number>();
  /** Every term by id, once a caller needed them all; until then only the added ones. */
  #strings: string[] | undefined;
  readonly #tail: string[] = [];

  private constructor(packed?: PackedTerms) {
    this.#packed = packed;
    this.#packedCount = packed ? packed.starts.length - 1 : 0;
    if (!packed) this.#strings = [];
  }

  /** Distinct `terms`, ids in their order. */
  static of(terms: readonly string[] = []): TermDictionary {
    const dictionary = new TermDictionary();
    for (const term of terms) dictionary.add(term);
    return dictionary;
  }

  /** A snapshot's vocabulary, read in place; {@link checkPackedTerms} has passed it. */
  static packed(terms: PackedTerms): TermDictionary {
    return new TermDictionary(terms);
  }

  get size(): number {
    return this.#packedCount + this.#added.size;
  }

  id(term: string): number | undefined {
    return this.#added.get(term) ?? this.#packedId(term);
  }

  /** Adds a term that is not there yet; returns its id (the next one). */
  add(term: string): number {
    const id = this.size;
    this.#added.set(term, id);
    (this.#strings ?? this.#tail).push(term);
    return id;
  }

  /** Every term by id. A loaded dictionary decodes its snapshot's terms the first time. */
  all(): readonly string[] {
    if (this.#strings) return this.#strings;
    if (this.#packedCount === 0) {
      this.#strings = this.#tail.slice();
      return this.#strings;
    }
    const { bytes } = this.#packed!;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(0, bytes.length - 1));
    } catch (cause) {
      throw new LongshipError('CORRUPT_INDEX', 'The lexical index snapshot has unreadable terms.', { cause });
    }
    this.#strings = text.split('\u0000').concat(this.#tail);
    return this.#strings;
  }

  /** The snapshot form: a loaded dictionary with nothing added gives back what it was loaded from. */
  pack(): PackedTerms {
    const packed = this.#packed;
    if (packed && this.#added.size === 0) return packed;
    // A loaded dictionary keeps its snapshot's bytes as they are and puts the added terms after
    // them: decoding 100k terms and encoding them again took ~0.1 s of a snapshot in Node.
    const added = packed ? (this.#strings?.slice(this.#packedCount) ?? this.#tail) : this.all();
    const tail = encoder.encode(added.length === 0 ? '' : `${added.join('\u0000')}\u0000`);
    const before = packed ? packed.bytes.length : 0;
    const bytes = new Uint8Array(before + tail.length);
    if (packed) bytes.set(packed.bytes);
    bytes.set(tail, before);
    const count = this.size;
    const starts = new Uint32Array(count + 1);
    if (packed) starts.set(packed.starts);
    for (let i = 0, t = this.#packedCount; i < tail.length; i++)
      if (tail[i] === NUL) starts[++t] = before + i + 1;
    const table = new Uint32Array(tableLength(count));
    const mask = table.length - 1;
    for (let t = 0; t < count; t++) {
      let at = hash(bytes, starts[t]!, starts[t + 1]! - 1) & mask;
      while (table[at] !== 0) at = (at + 1) & mask;
      table[at] = t + 1;
    }
    return { bytes, starts, table };
  }

  #packedId(term: string): number | undefined {
    const packed = this.#packed;
    if (!packed || this.#packedCount === 0) return undefined;
    if (scratch.length < term.length * 3) scratch = new Uint8Array(term.length * 3);
    const length = encoder.encodeInto(term, scratch).written;
    const { bytes, starts, table } = packed;
    const mask = table.length - 1;
    for (let at = hash(scratch, 0, length) & mask; ; at = (at + 1) & mask) {
      const held = table[at]!;
      if (held === 0) return undefined;
      const start = starts[held - 1]!;
      if (starts[held]! - 1 - start === length && sameBytes(bytes, start, scratch, 0, length))
        return held - 1;
    }
  }
}

/**
 * Checks a snapshot's vocabulary whole: each term non-empty and free of NULs, found where the table
 * says, and listed once. CORRUPT_INDEX otherwise. (That the bytes are UTF-8 is checked when they
 * are first decoded, by {@link TermDictionary.all}.) `deep: false` checks the extent and the table
 * (its length, and that it names each term once), not each term's bytes and place.
 */
export function checkPackedTerms({ bytes, starts, table }: PackedTerms, { deep = true } = {}): void {
  const count = starts.length - 1;
  const corrupt = (what: string) =>
    new LongshipError('CORRUPT_INDEX', `The lexical index snapshot lists its terms inconsistently: ${what}.`);
  if (starts[0] !== 0 || starts[count] !== bytes.length) throw corrupt('their extent');
  if (table.length !== tableLength(count)) throw corrupt('the table length');
  let filled = 0;
  for (let i = 0; i < table.length; i++) {
    const held = table[i]!;
    if (held > count) throw corrupt('the table names a term past the last');
    if (held !== 0) filled++;
  }
  if (filled !== count) throw corrupt('the table does not name every term once');
  if (!deep) return;
  const mask = table.length - 1;
  for (let t = 0; t < count; t++) {
    const start = starts[t]!;
    const end = starts[t + 1]! - 1;
    if (!(start < end && bytes[end] === NUL)) throw corrupt(`term ${t} is empty or unterminated`);
    // FNV-1a as hash() computes it, checking for NULs on the way: one pass over the bytes.
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) {
      const byte = bytes[i]!;
      if (byte === NUL) throw corrupt(`term ${t} holds a NUL`);
      h = Math.imul(h ^ byte, 0x01000193);
    }
    const length = end - start;
    for (let at = (h >>> 0) & mask; ; at = (at + 1) & mask) {
      const held = table[at]!;
      if (held === t + 1) break;
      if (held === 0) throw corrupt(`term ${t} is not where the table puts it`);
      const other = starts[held - 1]!;
      if (starts[held]! - 1 - other === length && sameBytes(bytes, other, bytes, start, length)) {
        throw corrupt(`term ${t} is listed twice`);
      }
    }
  }
}

// FNV-1a over bytes [start, end).
function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

function sameBytes(a: Uint8Array, at: number, b: Uint8Array, bt: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[at + i] !== b[bt + i]) return false;
  return true;
}
