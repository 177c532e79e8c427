// A loaded snapshot's posting lists not read yet (see LexicalLoadOptions.postings): each is read
// into its own place in the snapshot's postings section when first needed, so that an index opened
// to search puts in memory the lists of the terms it searched, not all of them.
import type { UnreadPostingsSource } from './lexical-index.js';

export class UnreadPostings {
  readonly #source: UnreadPostingsSource;
  /** The postings section, as bytes: where the lists are read into. */
  readonly #section: Uint8Array;
  /** Where that section starts in the snapshot. */
  readonly #at: number;
  readonly #pairBytes: number;
  /** Term t's pairs are pairs offsets[t] to offsets[t + 1] of the section. */
  readonly #offsets: Uint32Array;
  /** 1 for each list read. */
  readonly #read: Uint8Array;

  /** `postings`: the section as the index reads it, `at` bytes into the snapshot, `step` words a pair. */
  constructor(
    source: UnreadPostingsSource,
    postings: Uint32Array,
    at: number,
    step: number,
    offsets: Uint32Array,
  ) {
    this.#source = source;
    this.#section = new Uint8Array(postings.buffer, postings.byteOffset, postings.byteLength);
    this.#at = at;
    this.#pairBytes = 4 * step;
    this.#offsets = offsets;
    this.#read = new Uint8Array(offsets.length - 1);
  }

  /** Reads term t's list, if the snapshot has one and it is not read yet. */
  need(term: number): void {
    if (term < this.#read.length && this.#read[term] === 0) this.#readTerms(term, term + 1);
  }

  /** Reads every list not read yet, neighbours in one read, then lets the source go. */
  needAll(): void {
    const read = this.#read;
    for (let from = 0; from < read.length; ) {
      if (read[from] === 1) {
        from++;
        continue;
      }
      let to = from + 1;
      while (to < read.length && read[to] === 0) to++;
      this.#readTerms(from, to);
      from = to;
    }
    this.#source.done();
  }

  #readTerms(from: number, to: number): void {
    const start = this.#offsets[from]! * this.#pairBytes;
    const end = this.#offsets[to]! * this.#pairBytes;
    this.#source.read(this.#section.subarray(start, end), this.#at + start);
    this.#read.fill(1, from, to);
  }
}
