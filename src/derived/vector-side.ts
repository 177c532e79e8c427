// The graph side: an HNSW index over every stored vector, with which node owns each vector key
// (snapshotted beside the graph, at the same seq) and the vectors put in early, while their commit
// is still on its way to disk (early-vectors.ts).

import { LongshipError } from '../errors.js';
import type { FullStore } from '../store/full-store.js';
import type { ChangeRecord, CommittedChange, VectorRecord, WriteBatch } from '../store/store.js';
import type { VectorIndex, VectorIndexFactory, VectorIndexOptions } from '../vector/vector-index.js';
import type { EarlyWork } from './catching-up-store.js';
import { inKeyOrder, keysOf, vectorsAdded } from './change-replay.js';
import { type DerivedSide, SCAN_BATCH, type SideSnapshot, snapshotNames } from './derived-side.js';
import { type EarlyBatch, EarlyVectors } from './early-vectors.js';
import { vectorIndexProblems } from './index-checks.js';
import { VectorOwners } from './vector-owners.js';

/** Beside the graph, at the same seq: which node owns each vector key. */
const OWNERS_SNAPSHOT = 'hnsw-owners';

export interface VectorSideOptions {
  factory: VectorIndexFactory;
  dimensions: number;
  /** The index's settings, the defaults already filled in. */
  settings: Omit<VectorIndexOptions, 'dimensions'>;
  /** Told about a stored vector the graph refuses, or an early insert that failed. */
  report: (error: unknown) => void;
}

export class VectorSide implements DerivedSide<VectorRecord[]> {
  readonly name = 'vector';
  readonly #options: VectorSideOptions;
  #index: VectorIndex | undefined;
  /** Kept in step with #index: replaced with it, changed with it. */
  #owners = new VectorOwners();
  /** Vectors in #index whose commits are still under way: no owners yet. */
  readonly #early = new EarlyVectors();

  constructor(options: VectorSideOptions) {
    this.#options = options;
  }

  /**
   * The graph. Replaced when it has to be rebuilt and, opened from a snapshot as a read-only view, at
   * its first write: read it each time, never across an await.
   */
  get index(): VectorIndex {
    if (!this.#index) throw new LongshipError('DISPOSED', 'the derived indexes were closed');
    return this.#index;
  }

  /** Which node owns each vector key of the graph. */
  get owners(): Pick<VectorOwners, 'nodeOf' | 'keysOf' | 'countOf'> {
    return this.#owners;
  }

  /**
   * Puts a batch's vectors into the graph while its commit is under way, so that the inserts and the
   * wait for the disk overlap; what the catch-up does not claim comes out again when it settles.
   * `open`: whether the indexes still take work when the writes are issued.
   */
  earlyWork(batch: WriteBatch, open: () => boolean): EarlyWork | undefined {
    const records = batch.putVectors;
    if (!records?.length) return undefined;
    let inserted: EarlyBatch | undefined;
    return {
      issued: () => {
        if (!open() || !this.#index) return;
        try {
          inserted = this.#early.insert(this.#writable(), records);
        } catch (error) {
          // Nothing went in early: the catch-up inserts them as ever.
          this.#options.report(error);
        }
      },
      settled: () => {
        if (inserted) this.#early.settle(inserted, this.#index);
      },
    };
  }

  async load(store: FullStore): Promise<number | undefined> {
    const ownersSnapshot = await store.snapshot(OWNERS_SNAPSHOT);
    if (!ownersSnapshot) return undefined;
    const owners = VectorOwners.load(ownersSnapshot.bytes);
    // The graph's bytes go straight into the index's memory as they are read, and are searched where
    // they lie (a view, until the first write): no buffer of their whole length is made first.
    const { factory, dimensions, settings } = this.#options;
    const graph = await store.snapshotInto(snapshotNames.vector, (length) => factory.allocate(length));
    if (!graph) return undefined;
    // Owners from another seq (a crash between the two writes) cannot be trusted: rebuild.
    if (graph.seq !== ownersSnapshot.seq) {
      graph.sink.dispose();
      return undefined;
    }
    const index = graph.sink.open({ view: true });
    if (
      index.dimensions !== dimensions ||
      index.metric !== (settings.metric ?? 'cos') ||
      index.quantization !== (settings.quantization ?? 'f32')
    ) {
      index.dispose();
      return undefined;
    }
    // A snapshot does not keep the expansions: the view takes ours.
    const { expansionAdd, expansionSearch } = settings;
    index.changeExpansion({
      ...(expansionAdd ? { add: expansionAdd } : {}),
      ...(expansionSearch ? { search: expansionSearch } : {}),
    });
    if (owners.size !== index.size) {
      index.dispose();
      return undefined;
    }
    this.#replace(index, owners);
    return graph.seq;
  }

  async rebuild(store: FullStore): Promise<void> {
    const { factory, dimensions, settings, report } = this.#options;
    const index = factory.create({ ...settings, dimensions });
    const owners = new VectorOwners();
    try {
      index.reserve((await store.stats()).vectors);
      for await (const rows of store.scan('vectors', SCAN_BATCH)) addVectors(index, owners, rows, report);
    } catch (error) {
      index.dispose();
      throw error;
    }
    this.#replace(index, owners);
  }

  async read(
    store: FullStore,
    changes: readonly ChangeRecord[],
    own: CommittedChange | undefined,
  ): Promise<VectorRecord[]> {
    if (own) return changes.length > 0 ? inKeyOrder(own.vectors) : [];
    return store.vectors([...keysOf(changes, 'addedVectorKeys')]);
  }

  apply(changes: readonly ChangeRecord[], vectors: VectorRecord[]): boolean {
    const touched = keysOf(changes, 'removedVectorKeys', 'addedVectorKeys').size > 0;
    const index = touched ? this.#writable() : this.index;
    const added = vectorsAdded(changes, new Map(vectors.map((record) => [record.key, record])));
    changes.forEach((change, i) => {
      this.#applyChange(index, change, added[i]!);
    });
    return touched;
  }

  /**
   * One change's vectors, in the order a live commit applies them: its new vectors first (they go in
   * early, while the commit is under way, in key order), then its old ones out. A replay after a crash
   * applies each change the same way, so that it builds the graph the live writes built (HNSW's graph
   * depends on the order of insertions and removals, and a removed node's slot is reused by the next);
   * `added` holds the vectors this change put in, also those gone again since (docs/internals/reliability-core.md).
   */
  #applyChange(index: VectorIndex, change: ChangeRecord, added: ReadonlyMap<number, VectorRecord>): void {
    const fresh: VectorRecord[] = [];
    for (const record of added.values()) {
      // Put in while its commit was under way, exactly as committed: only its owner is new.
      if (this.#early.claim(record.key, record.vector)) this.#owners.set(record.key, record.nodeKey);
      else fresh.push(record);
    }
    // A key given a new vector in place comes out before it goes in again.
    for (const record of fresh) {
      if (index.contains(record.key)) index.remove(record.key);
      this.#owners.delete(record.key);
    }
    addVectors(index, this.#owners, fresh, this.#options.report);
    for (const key of change.removedVectorKeys) {
      if (added.has(key)) continue;
      this.#early.claim(key);
      if (index.contains(key)) index.remove(key);
      this.#owners.delete(key);
    }
  }

  /** A graph with vectors whose commits are still under way must not be kept. */
  settled(): Promise<void> {
    return this.#early.quiet();
  }

  serialize(): SideSnapshot[] {
    const bytes = this.index.serialize();
    // The owners go first: a crash between the two writes leaves their seqs apart, and the next open
    // rebuilds rather than trust a graph with the wrong owners.
    return [
      { name: OWNERS_SNAPSHOT, bytes: this.#owners.serialize() },
      { name: snapshotNames.vector, bytes },
    ];
  }

  problems(store: FullStore): Promise<string[]> {
    return vectorIndexProblems(store, this.index, this.#owners);
  }

  dispose(): void {
    this.#index?.dispose();
    this.#index = undefined;
  }

  /**
   * The graph, writable: one opened from its snapshot is a view (its searches take no locks) until its
   * first write, which makes it writable where it lies, copying nothing.
   */
  #writable(): VectorIndex {
    const writable = this.index.writable();
    this.#index = writable;
    return writable;
  }

  #replace(index: VectorIndex, owners: VectorOwners): void {
    this.#index?.dispose();
    this.#index = index;
    this.#owners = owners;
    this.#early.clear();
  }
}

/**
 * Adds the records to the graph and their owners. A stored vector the graph refuses (NaN, written
 * before the store checked for it, or the wrong length) is left out and reported: the store opens
 * still, and verify() names the vector missing from the graph.
 */
function addVectors(
  index: VectorIndex,
  owners: VectorOwners,
  records: readonly VectorRecord[],
  report: (error: unknown) => void,
): void {
  const sound = records.filter((record) => {
    const ok = record.vector.length === index.dimensions && record.vector.every(Number.isFinite);
    if (!ok)
      report(
        new LongshipError(
          'INVALID_ARGUMENT',
          `stored vector ${record.key} cannot be indexed: not ${index.dimensions} finite numbers`,
        ),
      );
    return ok;
  });
  if (sound.length === 0) return;
  const flat = new Float32Array(sound.length * index.dimensions);
  sound.forEach((record, i) => {
    flat.set(record.vector, i * index.dimensions);
  });
  index.addBatch(
    sound.map((r) => r.key),
    flat,
  );
  for (const record of sound) owners.set(record.key, record.nodeKey);
}
