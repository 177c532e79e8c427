/**
 * Every term's posting list in two typed arrays: a read-only `base` (a loaded snapshot's postings,
 * used in place) and a growable `data`. Term t's (document slot, frequency) pairs start at
 * `start[t]` in `base` when that is below `base.length`, else at `start[t] − base.length` in `data`,
 * and run for `used[t]` entries. One arena rather than an array per term, so a snapshot loads with
 * no object per term and no copy, and a small list costs no object header. A list that outgrows its
 * capacity moves to the end of `data` with twice the room; the space it leaves is reclaimed when the
 * arena is rewritten (compaction).
 */
export class PostingArena {
  readonly base: Uint32Array;
  data: Uint32Array;
  /** Entries of `data` in use, including space abandoned by moved lists. */
  end: number;
  start: Uint32Array;
  used: Uint32Array;
  capacity: Uint32Array;
  terms = 0;

  constructor(
    base: Uint32Array = new Uint32Array(0),
    start: Uint32Array = new Uint32Array(256),
    used: Uint32Array = new Uint32Array(256),
  ) {
    this.base = base;
    this.data = new Uint32Array(1024);
    this.end = 0;
    this.start = start;
    this.used = used;
    this.capacity = used.slice();
  }

  /** Lists laid end to end, as a snapshot stores them: term t's pairs are pairs offsets[t] to offsets[t + 1]. */
  static packed(postings: Uint32Array, offsets: Uint32Array): PostingArena {
    const terms = offsets.length - 1;
    const start = new Uint32Array(Math.max(terms, 256));
    const used = new Uint32Array(start.length);
    for (let t = 0; t < terms; t++) {
      start[t] = offsets[t]! * 2;
      used[t] = (offsets[t + 1]! - offsets[t]!) * 2;
    }
    const arena = new PostingArena(postings, start, used);
    arena.terms = terms;
    return arena;
  }

  /** The array holding term t's list, and where in it the list starts. */
  listOf(term: number): [Uint32Array, number] {
    const at = this.start[term]!;
    return at < this.base.length ? [this.base, at] : [this.data, at - this.base.length];
  }

  /** A new, empty list; returns its term id. */
  addTerm(): number {
    const term = this.terms++;
    if (term >= this.start.length) {
      this.start = grown(this.start, term + 1);
      this.used = grown(this.used, term + 1);
      this.capacity = grown(this.capacity, term + 1);
    }
    this.start[term] = this.base.length;
    this.used[term] = 0;
    this.capacity[term] = 0;
    return term;
  }

  append(term: number, slot: number, tf: number): void {
    let [list, at] = this.listOf(term);
    const used = this.used[term]!;
    const capacity = this.capacity[term]!;
    if (used + 2 > capacity || list === this.base) {
      const room = Math.max(4, capacity * 2);
      if (this.end + room > this.data.length) {
        this.data = grown(this.data, this.end + room);
        if (list !== this.base) list = this.data;
      }
      this.data.set(list.subarray(at, at + used), this.end);
      at = this.end;
      this.start[term] = this.base.length + at;
      this.capacity[term] = room;
      this.end += room;
    }
    this.data[at + used] = slot;
    this.data[at + used + 1] = tf;
    this.used[term] = used + 2;
  }

  /**
   * The lists rewritten end to end: slots renumbered by `newSlot` (-1 drops the entry), terms kept
   * where `newTerm` is ≥ 0 and renumbered by it.
   */
  rewritten(newSlot: Int32Array, newTerm: Int32Array, keptTerms: number, keptPairs: number): PostingArena {
    const data = new Uint32Array(Math.max(keptPairs * 2, 1024));
    const start = new Uint32Array(Math.max(keptTerms, 256));
    const used = new Uint32Array(start.length);
    let end = 0;
    for (let t = 0; t < this.terms; t++) {
      const to = newTerm[t]!;
      if (to < 0) continue;
      start[to] = end;
      const [list, from] = this.listOf(t);
      for (let i = from; i < from + this.used[t]!; i += 2) {
        const slot = newSlot[list[i]!]!;
        if (slot < 0) continue;
        data[end++] = slot;
        data[end++] = list[i + 1]!;
      }
      used[to] = end - start[to]!;
    }
    const arena = new PostingArena(data.subarray(0, end), start, used);
    arena.terms = keptTerms;
    return arena;
  }

  /** Offsets (in pairs) and the pairs end to end, for a snapshot. */
  packed(): { offsets: Uint32Array; postings: Uint32Array } {
    const offsets = new Uint32Array(this.terms + 1);
    for (let t = 0; t < this.terms; t++) offsets[t + 1] = offsets[t]! + this.used[t]! / 2;
    const postings = new Uint32Array(offsets[this.terms]! * 2);
    for (let t = 0; t < this.terms; t++) {
      const [list, from] = this.listOf(t);
      postings.set(list.subarray(from, from + this.used[t]!), offsets[t]! * 2);
    }
    return { offsets, postings };
  }
}

export function grown<A extends Float64Array | Uint32Array | Uint8Array>(array: A, needed: number): A {
  if (needed <= array.length) return array;
  const next = new (array.constructor as new (length: number) => A)(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}
