/**
 * Every term's posting list in two typed arrays: a read-only `base` (a loaded snapshot's postings,
 * used in place) and a growable `data` for the pairs added since. Term t's (document slot,
 * frequency) pairs are two runs: `baseUsed[t]` entries from `baseStart[t]` in `base`, then
 * `used[t]` entries from `start[t]` in `data`. One arena rather than an array per term, so a
 * snapshot loads with no object per term and no copy, and a small list costs no object header.
 * A document added to a term that the snapshot lists often costs two entries, not a copy of its
 * long list (at 100k documents the first commit after an open used to copy ~100 MB that way).
 * A run in `data` that outgrows its capacity moves to the end with twice the room; the space it
 * leaves is reclaimed when the arena is rewritten (compaction), which folds both runs into a new base.
 * A snapshot's base may hold each pair in one word (see {@link RunLayout}): half the bytes to read.
 */
/** A term's two runs of pairs: the loaded snapshot's (0), then those added since (1). */
export const RUNS = [0, 1] as const;

/**
 * How a run's entries are read: each takes `step` words from i, its slot is `list[i] & mask` and
 * its frequency `list[i + tfAt] >>> shift`. Pairs are two words; a packed snapshot puts the
 * frequency above the slot's `shift` bits in one word. One formula for both, so the hot loops
 * stay branch-free.
 */
export interface RunLayout {
  readonly step: 1 | 2;
  readonly mask: number;
  readonly tfAt: 0 | 1;
  readonly shift: number;
}

/** (slot, frequency) in two words; `& -1` keeps any slot below 2^31. */
const PAIRS: RunLayout = { step: 2, mask: -1, tfAt: 1, shift: 0 };

/** The layout of pairs packed with the slot in the low `slotBits` bits (0: not packed, pairs). */
export function packedLayout(slotBits: number): RunLayout {
  return slotBits === 0 ? PAIRS : { step: 1, mask: 2 ** slotBits - 1, tfAt: 0, shift: slotBits };
}

export class PostingArena {
  readonly base: Uint32Array;
  /** Where each term's base run starts and how many words it takes, in `base`. */
  readonly baseStart: Uint32Array;
  readonly baseUsed: Uint32Array;
  readonly baseLayout: RunLayout;
  data = new Uint32Array(1024);
  /** Entries of `data` in use, including space abandoned by moved runs. */
  end = 0;
  start: Uint32Array;
  used: Uint32Array;
  capacity: Uint32Array;
  terms = 0;

  constructor(
    base: Uint32Array = new Uint32Array(0),
    baseStart: Uint32Array = new Uint32Array(0),
    baseUsed: Uint32Array = new Uint32Array(0),
    baseLayout: RunLayout = PAIRS,
  ) {
    this.base = base;
    this.baseStart = baseStart;
    this.baseUsed = baseUsed;
    this.baseLayout = baseLayout;
    const terms = Math.max(baseStart.length, 256);
    this.start = new Uint32Array(terms);
    this.used = new Uint32Array(terms);
    this.capacity = new Uint32Array(terms);
  }

  /**
   * Lists laid end to end, as a snapshot stores them: term t's pairs are pairs offsets[t] to
   * offsets[t + 1], read as `layout` says.
   */
  static packed(postings: Uint32Array, offsets: Uint32Array, layout: RunLayout = PAIRS): PostingArena {
    const terms = offsets.length - 1;
    const baseStart = new Uint32Array(terms);
    const baseUsed = new Uint32Array(terms);
    for (let t = 0; t < terms; t++) {
      baseStart[t] = offsets[t]! * layout.step;
      baseUsed[t] = (offsets[t + 1]! - offsets[t]!) * layout.step;
    }
    const arena = new PostingArena(postings, baseStart, baseUsed, layout);
    arena.terms = terms;
    return arena;
  }

  /** Where term t's run `run` (0: the snapshot's, 1: added since) starts, in `runList(run)`. */
  runStart(term: number, run: 0 | 1): number {
    return run === 0 ? (term < this.baseStart.length ? this.baseStart[term]! : 0) : this.start[term]!;
  }

  /** Where that run ends. */
  runEnd(term: number, run: 0 | 1): number {
    return run === 0
      ? term < this.baseUsed.length
        ? this.baseStart[term]! + this.baseUsed[term]!
        : 0
      : this.start[term]! + this.used[term]!;
  }

  runList(run: 0 | 1): Uint32Array {
    return run === 0 ? this.base : this.data;
  }

  runLayout(run: 0 | 1): RunLayout {
    return run === 0 ? this.baseLayout : PAIRS;
  }

  /** How many pairs term t's list holds. */
  pairs(term: number): number {
    return (
      (term < this.baseUsed.length ? this.baseUsed[term]! / this.baseLayout.step : 0) + this.used[term]! / 2
    );
  }

  /** A new, empty list; returns its term id. */
  addTerm(): number {
    const term = this.terms++;
    if (term >= this.start.length) {
      this.start = grown(this.start, term + 1);
      this.used = grown(this.used, term + 1);
      this.capacity = grown(this.capacity, term + 1);
    }
    this.start[term] = 0;
    this.used[term] = 0;
    this.capacity[term] = 0;
    return term;
  }

  append(term: number, slot: number, tf: number): void {
    let at = this.start[term]!;
    const used = this.used[term]!;
    const capacity = this.capacity[term]!;
    if (used + 2 > capacity) {
      const room = Math.max(4, capacity * 2);
      if (this.end + room > this.data.length) this.data = grown(this.data, this.end + room);
      this.data.copyWithin(this.end, at, at + used);
      at = this.end;
      this.start[term] = at;
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
    const start = new Uint32Array(keptTerms);
    const used = new Uint32Array(keptTerms);
    let end = 0;
    for (let t = 0; t < this.terms; t++) {
      const to = newTerm[t]!;
      if (to < 0) continue;
      start[to] = end;
      for (const run of RUNS) {
        const list = this.runList(run);
        const runEnd = this.runEnd(t, run);
        const { step, mask, tfAt, shift } = this.runLayout(run);
        for (let i = this.runStart(t, run); i < runEnd; i += step) {
          const slot = newSlot[list[i]! & mask]!;
          if (slot < 0) continue;
          data[end++] = slot;
          data[end++] = list[i + tfAt]! >>> shift;
        }
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
    for (let t = 0; t < this.terms; t++) offsets[t + 1] = offsets[t]! + this.pairs(t);
    const postings = new Uint32Array(offsets[this.terms]! * 2);
    let at = 0;
    for (let t = 0; t < this.terms; t++) {
      // The runs are walked inline, as Bm25Index.search() walks them, rather than through a
      // callback per posting.
      for (const run of RUNS) {
        const list = this.runList(run);
        const end = this.runEnd(t, run);
        const { step, mask, tfAt, shift } = this.runLayout(run);
        for (let i = this.runStart(t, run); i < end; i += step) {
          postings[at++] = list[i]! & mask;
          postings[at++] = list[i + tfAt]! >>> shift;
        }
      }
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
