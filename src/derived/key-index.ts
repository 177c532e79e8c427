// A hash table over the positions of a Float64Array of keys, itself two typed arrays: loading a
// snapshot of 100k keys builds one in a few ms with nothing for the garbage collector, where a Map
// of 100k entries costs tens of ms and as much again in collection.

/**
 * Finds a key's position in `keys` (safe integers), by open addressing. Positions are added once and
 * never removed: it indexes a snapshot's keys, which do not change.
 */
export class KeyIndex {
  readonly #keys: Float64Array;
  /** Position + 1 of the key hashed here (or probed on to), 0 for none. */
  readonly #slots: Int32Array;
  readonly #mask: number;

  /** Room for `capacity` positions of `keys`, at most half full. */
  constructor(keys: Float64Array, capacity = keys.length) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.#keys = keys;
    this.#slots = new Int32Array(size);
    this.#mask = size - 1;
  }

  /** Adds position `at`; returns the position that already holds its key (nothing added), or -1. */
  add(at: number): number {
    const keys = this.#keys;
    const key = keys[at]!;
    const slots = this.#slots;
    for (let s = hash(key) & this.#mask; ; s = (s + 1) & this.#mask) {
      const held = slots[s]!;
      if (held === 0) {
        slots[s] = at + 1;
        return -1;
      }
      if (keys[held - 1] === key) return held - 1;
    }
  }

  /** The position of `key`, or -1. */
  find(key: number): number {
    const keys = this.#keys;
    const slots = this.#slots;
    for (let s = hash(key) & this.#mask; ; s = (s + 1) & this.#mask) {
      const held = slots[s]!;
      if (held === 0) return -1;
      if (keys[held - 1] === key) return held - 1;
    }
  }
}

/** Mixes both 32-bit halves of a safe integer (keys often differ only in their low bits). */
function hash(key: number): number {
  const h = Math.imul((key >>> 0) ^ Math.imul((key / 0x100000000) >>> 0, 0x9e3779b1), 0x85ebca6b);
  return Math.imul(h ^ (h >>> 15), 0xc2b2ae35) ^ (h >>> 13);
}
