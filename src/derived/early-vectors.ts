// Vectors put into the graph while their commit is still on its way to disk. In Chromium the wait
// for a commit (durable, flushed) and the graph's inserts took about as long as each other, one after
// the other; done at once, a document costs the store and index ~10-20 % less. Until the commit is
// done such a vector has no owner, so a search skips it; the catch-up that applies the commit keeps
// it rather than inserting it again, and a commit that fails (or is not applied: the indexes were
// closed) takes it out again.

import type { VectorRecord } from '../store/store.js';
import type { VectorIndex } from '../vector/vector-index.js';

/** The vectors one batch put in early, until its commit settles. */
export interface EarlyBatch {
  readonly index: VectorIndex;
  readonly keys: readonly number[];
}

/**
 * @example
 * const early = new EarlyVectors();
 * const batch = early.insert(index, records);      // while the commit is under way
 * if (early.claim(record.key, record.vector)) ...  // in the catch-up: already in the graph
 * early.settle(batch, index);                      // once the commit is done or failed
 */
export class EarlyVectors {
  readonly #vectors = new Map<number, Float32Array>();
  #pending = 0;
  #quiet: Promise<void> = Promise.resolve();
  #wake: () => void = () => {};

  /**
   * Adds the records whose keys the graph lacks; undefined when none were added. On a failure
   * (out of memory) it takes back what it added and adds nothing: the catch-up inserts them then.
   */
  insert(index: VectorIndex, records: readonly VectorRecord[]): EarlyBatch | undefined {
    // In key order, as a replay of the change inserts them: the graph depends on the order.
    const fresh = records
      .filter(
        (r) => r.vector.length === index.dimensions && !this.#vectors.has(r.key) && !index.contains(r.key),
      )
      .sort((a, b) => a.key - b.key);
    if (fresh.length === 0) return undefined;
    const flat = new Float32Array(fresh.length * index.dimensions);
    fresh.forEach((record, i) => {
      flat.set(record.vector, i * index.dimensions);
    });
    const keys = fresh.map((r) => r.key);
    try {
      index.addBatch(keys, flat);
    } catch {
      for (const key of keys) if (index.contains(key)) index.remove(key);
      return undefined;
    }
    for (const record of fresh) this.#vectors.set(record.key, record.vector);
    if (this.#pending++ === 0) {
      this.#quiet = new Promise((resolve) => {
        this.#wake = resolve;
      });
    }
    return { index, keys };
  }

  /**
   * Whether `key` went in early with this very vector: then it is in the graph as committed. Either
   * way it is early no longer; the caller applies any other vector of that key itself.
   */
  claim(key: number, vector?: Float32Array): boolean {
    const early = this.#vectors.get(key);
    if (!early) return false;
    this.#vectors.delete(key);
    return vector !== undefined && sameVector(early, vector);
  }

  /** The batch's commit is over: takes out of `current` what no catch-up claimed. */
  settle(batch: EarlyBatch, current: VectorIndex | undefined): void {
    for (const key of batch.keys) {
      if (!this.#vectors.delete(key)) continue;
      if (current === batch.index && current.contains(key)) current.remove(key);
    }
    if (--this.#pending === 0) this.#wake();
  }

  /** Resolves once no batch's vectors are in early: a snapshot taken then holds only committed ones. */
  async quiet(): Promise<void> {
    while (this.#pending > 0) await this.#quiet;
  }

  /** Forgets every early vector: the graph they were in was replaced. */
  clear(): void {
    this.#vectors.clear();
  }
}

function sameVector(a: Float32Array, b: Float32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
