// Which node owns each vector key. The HNSW index answers with vector keys (one per chunk);
// retrieval needs the node. The store has this too, but reading it back costs a scan of every
// vector, so the derived indexes keep it in memory and snapshot it beside the graph.

import { LongshipError } from '../errors.js';

/** A two-way map between vector keys and the node keys that own them. */
export class VectorOwners {
  readonly #nodeOf = new Map<number, number>();
  /** A node's one vector key, or its keys when it has several: most nodes have one, and 100k arrays cost. */
  readonly #keysOf = new Map<number, number | number[]>();

  get size(): number {
    return this.#nodeOf.size;
  }

  /** The node that owns `vectorKey`, or undefined. */
  nodeOf(vectorKey: number): number | undefined {
    return this.#nodeOf.get(vectorKey);
  }

  /** The vector keys of a node, in the order they were added. */
  keysOf(nodeKey: number): readonly number[] {
    const keys = this.#keysOf.get(nodeKey);
    return keys === undefined ? [] : typeof keys === 'number' ? [keys] : keys;
  }

  set(vectorKey: number, nodeKey: number): void {
    const previous = this.#nodeOf.get(vectorKey);
    if (previous === nodeKey) return;
    if (previous !== undefined) this.delete(vectorKey);
    this.#nodeOf.set(vectorKey, nodeKey);
    const keys = this.#keysOf.get(nodeKey);
    if (keys === undefined) this.#keysOf.set(nodeKey, vectorKey);
    else if (typeof keys === 'number') this.#keysOf.set(nodeKey, [keys, vectorKey]);
    else keys.push(vectorKey);
  }

  delete(vectorKey: number): void {
    const nodeKey = this.#nodeOf.get(vectorKey);
    if (nodeKey === undefined) return;
    this.#nodeOf.delete(vectorKey);
    const rest = this.keysOf(nodeKey).filter((key) => key !== vectorKey);
    if (rest.length === 0) this.#keysOf.delete(nodeKey);
    else this.#keysOf.set(nodeKey, rest.length === 1 ? rest[0]! : rest);
  }

  /** `[vectorKey, nodeKey]` pairs as float64s: keys are safe integers, not always 32-bit. */
  serialize(): Uint8Array {
    const pairs = new Float64Array(this.#nodeOf.size * 2);
    let i = 0;
    for (const [vectorKey, nodeKey] of this.#nodeOf) {
      pairs[i++] = vectorKey;
      pairs[i++] = nodeKey;
    }
    return new Uint8Array(pairs.buffer);
  }

  /** Reads what {@link VectorOwners.serialize} wrote; CORRUPT_INDEX for bytes it cannot have written. */
  static load(bytes: Uint8Array): VectorOwners {
    if (bytes.byteLength % 16 !== 0) {
      throw new LongshipError(
        'CORRUPT_INDEX',
        `vector owners: ${bytes.byteLength} bytes is not a whole number of pairs`,
      );
    }
    // Copied, because a Float64Array view needs an 8-byte-aligned offset.
    const pairs = new Float64Array(bytes.slice().buffer);
    const owners = new VectorOwners();
    for (let i = 0; i < pairs.length; i += 2) {
      const vectorKey = pairs[i]!;
      const nodeKey = pairs[i + 1]!;
      if (
        !Number.isSafeInteger(vectorKey) ||
        !Number.isSafeInteger(nodeKey) ||
        owners.#nodeOf.has(vectorKey)
      ) {
        throw new LongshipError(
          'CORRUPT_INDEX',
          `vector owners: pair ${i / 2} is not a valid, unique key pair`,
        );
      }
      owners.set(vectorKey, nodeKey);
    }
    return owners;
  }
}
