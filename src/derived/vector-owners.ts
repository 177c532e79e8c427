// Which node owns each vector key. The HNSW index answers with vector keys (one per chunk);
// retrieval needs the node. The store has this too, but reading it back costs a scan of every
// vector, so the derived indexes keep it in memory and snapshot it beside the graph.

import { LongshipError } from '../errors.js';
import { KeyIndex } from './key-index.js';

// Snapshot layout: four u32 words (magic "LSVO", format version, pair count, 0), then the vector
// keys and the node keys as two float64 columns (keys are safe integers, not always 32-bit). A
// node's keys lie together, in the order they were added. Format 1 (bare pairs) reads as corrupt.
const MAGIC = 0x4f56534c;
const FORMAT = 2;
const HEADER_BYTES = 16;

/**
 * A two-way map between vector keys and the node keys that own them. A loaded one reads its
 * snapshot's columns in place through two typed hash tables; what changes afterwards goes into
 * maps over them (a node's keys, once changed, are all in the map).
 */
export class VectorOwners {
  // The snapshot: vectorKeys[i] belongs to nodeKeys[i]; `moved[i]` once it was deleted or reassigned.
  #vectorKeys: Float64Array = new Float64Array(0);
  #nodeKeys: Float64Array = new Float64Array(0);
  #moved = new Uint8Array(0);
  #byVector = new KeyIndex(this.#vectorKeys);
  /** Node key → the first position of its keys. */
  #byNode = new KeyIndex(this.#nodeKeys);
  /** Vector keys set since the load. */
  readonly #nodeOf = new Map<number, number>();
  /**
   * The keys of the nodes changed since the load: one vector key, or an array for several (most
   * nodes have one, and 100k arrays cost); [] for a node of the snapshot that has none left.
   */
  readonly #keysOf = new Map<number, number | number[]>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The node that owns `vectorKey`, or undefined. */
  nodeOf(vectorKey: number): number | undefined {
    const nodeKey = this.#nodeOf.get(vectorKey);
    if (nodeKey !== undefined) return nodeKey;
    const at = this.#byVector.find(vectorKey);
    return at < 0 || this.#moved[at] ? undefined : this.#nodeKeys[at];
  }

  /** How many vector keys a node has: {@link keysOf}'s length, with no list made. */
  countOf(nodeKey: number): number {
    const keys = this.#keysOf.get(nodeKey);
    if (keys !== undefined) return typeof keys === 'number' ? 1 : keys.length;
    const first = this.#byNode.find(nodeKey);
    return first < 0 ? 0 : this.#runEnd(first) - first;
  }

  /** The vector keys of a node, in the order they were added. */
  keysOf(nodeKey: number): readonly number[] {
    const keys = this.#keysOf.get(nodeKey);
    if (keys !== undefined) return typeof keys === 'number' ? [keys] : keys;
    const first = this.#byNode.find(nodeKey);
    if (first < 0) return [];
    const end = this.#runEnd(first);
    return end === first + 1 ? [this.#vectorKeys[first]!] : Array.from(this.#vectorKeys.subarray(first, end));
  }

  /**
   * The end of the snapshot's run of keys of the node listed at `first` (a node's keys lie
   * together). A node of the snapshot that is not in #keysOf is unchanged: all its keys are there.
   */
  #runEnd(first: number): number {
    const nodeKeys = this.#nodeKeys;
    const nodeKey = nodeKeys[first];
    let end = first + 1;
    while (end < nodeKeys.length && nodeKeys[end] === nodeKey) end++;
    return end;
  }

  set(vectorKey: number, nodeKey: number): void {
    const previous = this.nodeOf(vectorKey);
    if (previous === nodeKey) return;
    if (previous !== undefined) this.delete(vectorKey);
    this.#nodeOf.set(vectorKey, nodeKey);
    const keys = this.#keysOf.get(nodeKey) ?? this.#snapshotKeysOf(nodeKey);
    if (keys === undefined || (typeof keys !== 'number' && keys.length === 0)) {
      this.#keysOf.set(nodeKey, vectorKey);
    } else if (typeof keys === 'number') {
      this.#keysOf.set(nodeKey, [keys, vectorKey]);
    } else {
      keys.push(vectorKey);
      this.#keysOf.set(nodeKey, keys);
    }
    this.#size++;
  }

  delete(vectorKey: number): void {
    const nodeKey = this.nodeOf(vectorKey);
    if (nodeKey === undefined) return;
    if (!this.#nodeOf.delete(vectorKey)) this.#moved[this.#byVector.find(vectorKey)] = 1;
    const rest = this.keysOf(nodeKey).filter((key) => key !== vectorKey);
    if (rest.length > 0) this.#keysOf.set(nodeKey, rest.length === 1 ? rest[0]! : rest);
    else if (this.#byNode.find(nodeKey) >= 0) this.#keysOf.set(nodeKey, []);
    else this.#keysOf.delete(nodeKey);
    this.#size--;
  }

  /** The snapshot's keys of an unchanged node as #keysOf holds them; undefined for none. */
  #snapshotKeysOf(nodeKey: number): number | number[] | undefined {
    const keys = this.keysOf(nodeKey);
    return keys.length === 0 ? undefined : keys.length === 1 ? keys[0] : [...keys];
  }

  /** The layout above: a node's keys together, as {@link VectorOwners.keysOf} lists them. */
  serialize(): Uint8Array {
    const out = new ArrayBuffer(HEADER_BYTES + 16 * this.#size);
    new Uint32Array(out, 0, 4).set([MAGIC, FORMAT, this.#size, 0]);
    const vectorKeys = new Float64Array(out, HEADER_BYTES, this.#size);
    const nodeKeys = new Float64Array(out, HEADER_BYTES + 8 * this.#size, this.#size);
    let n = 0;
    const put = (vectorKey: number, nodeKey: number) => {
      vectorKeys[n] = vectorKey;
      nodeKeys[n++] = nodeKey;
    };
    // Unchanged nodes of the snapshot keep their place; changed ones and new ones follow.
    for (let i = 0; i < this.#vectorKeys.length; i++) {
      const nodeKey = this.#nodeKeys[i]!;
      if (!this.#keysOf.has(nodeKey)) put(this.#vectorKeys[i]!, nodeKey);
    }
    for (const [nodeKey, keys] of this.#keysOf) {
      if (typeof keys === 'number') put(keys, nodeKey);
      else for (const key of keys) put(key, nodeKey);
    }
    return new Uint8Array(out);
  }

  /**
   * Reads what {@link VectorOwners.serialize} wrote, using `bytes` in place when they are 8-byte
   * aligned (they must not change afterwards). CORRUPT_INDEX for bytes it cannot have written,
   * older formats included.
   */
  static load(bytes: Uint8Array): VectorOwners {
    if (bytes.byteLength < HEADER_BYTES) throw corrupt('too short for its header');
    // Typed views need aligned offsets: a misaligned input is copied once.
    const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    const [magic, format, count] = new Uint32Array(
      aligned.buffer,
      aligned.byteOffset,
      3,
    ) as unknown as number[];
    if (magic !== MAGIC || format !== FORMAT) throw corrupt(`not a format ${FORMAT} snapshot`);
    if (aligned.byteLength !== HEADER_BYTES + 16 * count!) {
      throw corrupt(`${aligned.byteLength} bytes do not hold the ${count} pairs it lists`);
    }
    const owners = new VectorOwners();
    const vectorKeys = new Float64Array(aligned.buffer, aligned.byteOffset + HEADER_BYTES, count);
    const nodeKeys = new Float64Array(aligned.buffer, aligned.byteOffset + HEADER_BYTES + 8 * count!, count);
    const byVector = new KeyIndex(vectorKeys);
    const byNode = new KeyIndex(nodeKeys);
    for (let i = 0; i < count!; i++) {
      const nodeKey = nodeKeys[i]!;
      if (
        !Number.isSafeInteger(vectorKeys[i]) ||
        !Number.isSafeInteger(nodeKey) ||
        byVector.add(i) >= 0 ||
        // A node's keys lie together: a node seen before, and not just before, is listed twice.
        (nodeKeys[i - 1] !== nodeKey && byNode.add(i) >= 0)
      ) {
        throw corrupt(`pair ${i} is not a valid, unique key pair`);
      }
    }
    owners.#vectorKeys = vectorKeys;
    owners.#nodeKeys = nodeKeys;
    owners.#moved = new Uint8Array(count!);
    owners.#byVector = byVector;
    owners.#byNode = byNode;
    owners.#size = count!;
    return owners;
  }
}

function corrupt(reason: string): LongshipError {
  return new LongshipError('CORRUPT_INDEX', `vector owners: ${reason}`);
}
