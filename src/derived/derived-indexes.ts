// The derived indexes (docs/internals/derived.md): the HNSW graph, the BM25 index and the node catalogue,
// derived from the Store (src/store/store.ts gives the protocol). Each is a side (derived-side.ts),
// opened from its newest snapshot plus the changes after it, or rebuilt from the stored records, and
// caught up after every commit (change-replay.ts); their snapshots are written on a schedule
// (snapshot-schedule.ts). This file holds the sides and what each includes, and nothing of any one.

import { LongshipError } from '../errors.js';
import type { LexicalIndex, LexicalIndexFactory, LexicalIndexOptions } from '../lexical/lexical-index.js';
import { SerialQueue } from '../serial-queue.js';
import { type FullStore, fullStore, keepsChangeLog } from '../store/full-store.js';
import type { Store, VerifyReport } from '../store/store.js';
import type { VectorIndex, VectorIndexFactory, VectorIndexOptions } from '../vector/vector-index.js';
import { CatalogueSide } from './catalogue-side.js';
import { catchingUpStore } from './catching-up-store.js';
import { type ReplayHost, replayChanges, sidesApplied } from './change-replay.js';
import { CommitGate } from './commit-gate.js';
import type { DerivedSide, SideName, SideState } from './derived-side.js';
import { LexicalSide } from './lexical-side.js';
import type { NodeCatalogueView } from './node-catalogue.js';
import { SnapshotSchedule } from './snapshot-schedule.js';
import { stale, writeSnapshots } from './snapshot-writer.js';
import { VectorSide } from './vector-side.js';

export { snapshotNames } from './derived-side.js';

/**
 * The graph's expansions in a store: half the usual while inserting, twice while searching. At 100k
 * the graph then finds more of its own exact top 10 (recall@10 0.99 against 0.97 with 128 and 64), an
 * insert, which ingestion pays for every chunk, costs a fifth less, and a search ~0.05 ms more, in a
 * find() of several ms (docs/benchmarks.md, "Store reopen").
 */
export const STORE_EXPANSION = { expansionAdd: 64, expansionSearch: 128 } as const;

/** How a side was last brought up: from its snapshot, or rebuilt from the stored records. */
export type OpenedFrom = 'snapshot' | 'rebuild';

export interface DerivedIndexesOptions {
  /**
   * The store they derive from. One without a change log of its own is read whole at every open,
   * and no snapshots are written (docs/guide/custom-store.md, "Without a change log").
   */
  store: Store;
  /** How the indexes are made: the engine chooses (usearchIndexes, bm25Indexes). */
  factories: { vector: VectorIndexFactory; lexical: LexicalIndexFactory };
  /** The embedder's dimensions. */
  dimensions: number;
  /**
   * The HNSW index's settings. Unlike a bare VectorIndex's, the defaults are `'i8'` (a quarter of
   * f32's memory and snapshot, and fused with BM25 it ranks as well: docs/benchmarks.md, "Vectors are
   * `i8` by default") and {@link STORE_EXPANSION}.
   */
  vectorIndex?: Omit<VectorIndexOptions, 'dimensions'>;
  /** Used when the BM25 index is built from scratch; a snapshot keeps the options it was built with. */
  lexicalIndex?: LexicalIndexOptions;
  /**
   * How long the indexes must go unchanged before their snapshots are written (default 2,000 ms), so
   * that a job of many commits is not slowed by snapshots between them. `Infinity`: only on flush/close.
   */
  snapshotDelayMs?: number;
  /**
   * The longest a change waits for its snapshot while changes keep coming (default 30,000 ms): what
   * an open after a crash has to replay stays bounded.
   */
  snapshotMaxDelayMs?: number;
  /**
   * How many records (nodes, vectors, postings) may change after the last snapshots before new ones
   * are due (default 0: every change). Fewer wait for flush() or close(), and an open replays them from
   * the change log instead: a large store is not written again for every note (~100 MB at 100k
   * vectors), but an open with changes to replay takes longer (docs/internals/snapshots.md, "When snapshots
   * are written").
   */
  snapshotAfterChanges?: number;
  /** Told about failures that do not fail a call: a snapshot write, a catch-up after a commit. */
  onError?: (error: unknown) => void;
  /** More checks verify() runs on the store, read at the same instant (the tree's: nodes in their roots). */
  checks?: readonly ((store: FullStore) => Promise<string[]>)[];
}

export interface DerivedIndexes {
  /**
   * The store to write through: its commit() resolves once both indexes include the batch.
   * Writes made on the underlying store directly show up at the next {@link DerivedIndexes.catchUp}.
   */
  readonly store: FullStore;
  /**
   * The HNSW index over every stored vector. It is replaced when it has to be rebuilt, and, opened
   * from a snapshot as a read-only view, at its first write: read it each time, never across an await.
   */
  readonly vectors: VectorIndex;
  /** The BM25 index over every stored posting, keyed by node key. Replaced on a rebuild, as `vectors`. */
  readonly lexical: LexicalIndex;
  /** Every stored node without its L1/L2, for retrieval's scopes. Replaced on a rebuild, as `vectors`. */
  readonly nodes: NodeCatalogueView;
  /** The node that owns a vector key of {@link DerivedIndexes.vectors}, or undefined. */
  nodeOfVector(vectorKey: number): number | undefined;
  /** The vector keys (chunks) of a node. */
  vectorKeysOfNode(nodeKey: number): readonly number[];
  /** How many vectors the node has (as many as vectorKeysOfNode lists, with no list made). */
  vectorCountOfNode(nodeKey: number): number;
  /** How each side was last opened or rebuilt. */
  readonly openedFrom: Readonly<Record<SideName, OpenedFrom>>;
  /** The change sequence every side includes. */
  readonly appliedSeq: number;
  /** Replays the changes committed since the last catch-up; rebuilds a side that cannot replay them. */
  catchUp(): Promise<number>;
  /** Writes the snapshots now (of the sides that changed since their last one) and prunes the change log. */
  flush(): Promise<void>;
  /** `store.verify()`, plus: the indexes hold exactly the stored keys, and agree on vectors and scores. */
  verify(): Promise<VerifyReport>;
  /** Writes a last snapshot unless `snapshot: false`, then frees the indexes. Leaves the store open. */
  close(options?: { snapshot?: boolean }): Promise<void>;
}

/** How many times verify() reads again when another writer commits while it reads. */
const VERIFY_ATTEMPTS = 3;

/**
 * Opens the derived indexes of a store: each from its snapshot when that is valid and the change
 * log still reaches back to it, otherwise rebuilt from the stored records.
 *
 * @example
 * const factories = { vector: usearchIndexes(await loadUsearch()), lexical: bm25Indexes };
 * const indexes = await openDerivedIndexes({ store, factories, dimensions: 512 });
 * await indexes.store.commit(batch); // the indexes now include the batch
 * indexes.vectors.search(query, 10);
 */
export async function openDerivedIndexes(options: DerivedIndexesOptions): Promise<DerivedIndexes> {
  const indexes = new StoreDerivedIndexes(options);
  await indexes.open();
  return indexes;
}

/** Holds the three sides; replays the change log onto them, schedules their snapshots, checks them. */
class StoreDerivedIndexes implements DerivedIndexes {
  readonly store: FullStore;
  readonly openedFrom: Record<SideName, OpenedFrom> = {
    vector: 'rebuild',
    lexical: 'rebuild',
    nodes: 'rebuild',
  };
  readonly #raw: FullStore;
  /** Whether the store keeps the change log and snapshots; else the sides rebuild at every open. */
  readonly #keepsLog: boolean;
  readonly #options: DerivedIndexesOptions;
  readonly #vector: VectorSide;
  readonly #lexical: LexicalSide;
  readonly #catalogue = new CatalogueSide();
  /** In the order they are read, applied and snapshotted. */
  readonly #sides: readonly DerivedSide[];
  readonly #state: Record<SideName, SideState>;
  readonly #snapshots: SnapshotSchedule;
  readonly #replay: ReplayHost;
  /** Catch-ups, rebuilds and verify run one at a time. */
  readonly #queue = new SerialQueue();
  #closed = false;
  /** Commits through {@link store} under way; verify() holds new ones back while it reads. */
  readonly #gate = new CommitGate();

  constructor(options: DerivedIndexesOptions) {
    this.#options = options;
    this.#raw = fullStore(options.store);
    this.#keepsLog = keepsChangeLog(this.#raw);
    const report = (error: unknown) => this.#report(error);
    this.#vector = new VectorSide({
      factory: options.factories.vector,
      dimensions: options.dimensions,
      settings: { quantization: 'i8', ...STORE_EXPANSION, ...options.vectorIndex },
      report,
    });
    this.#lexical = new LexicalSide(options.factories.lexical, options.lexicalIndex);
    this.#sides = [this.#vector, this.#lexical, this.#catalogue];
    const initial = (): SideState => ({ applied: 0, altered: 0, saved: undefined, rebuilt: false });
    this.#state = { vector: initial(), lexical: initial(), nodes: initial() };
    this.#snapshots = new SnapshotSchedule(
      {
        delayMs: options.snapshotDelayMs ?? 2000,
        maxDelayMs: options.snapshotMaxDelayMs ?? 30_000,
        afterChanges: options.snapshotAfterChanges ?? 0,
      },
      {
        // A log in memory dies with this object: a snapshot would never be read.
        dirty: () => this.#keepsLog && this.#sides.some((side) => stale(this.#state[side.name])),
        rebuilt: () => this.#sides.some((side) => this.#state[side.name].rebuilt),
        write: () => writeSnapshots(this.#raw, this.#sides, this.#state),
        report,
      },
    );
    this.#replay = {
      sides: this.#sides,
      state: this.#state,
      rebuild: (side) => this.#rebuild(side),
      applying: (changes) => this.#snapshots.changed(changes),
      applied: () => this.#snapshots.schedule(),
      report,
    };
    const store = catchingUpStore(
      this.#raw,
      (seq) => this.#afterCommit(seq),
      (batch) => this.#vector.earlyWork(batch, () => !this.#closed),
    );
    this.store = {
      ...store,
      commit: (batch, signal, onIssued) => this.#gate.commit(() => store.commit(batch, signal, onIssued)),
    };
  }

  get vectors(): VectorIndex {
    this.#live();
    return this.#vector.index;
  }

  get lexical(): LexicalIndex {
    this.#live();
    return this.#lexical.index;
  }

  get nodes(): NodeCatalogueView {
    this.#live();
    return this.#catalogue.catalogue;
  }

  nodeOfVector(vectorKey: number): number | undefined {
    return this.#vector.owners.nodeOf(vectorKey);
  }

  vectorKeysOfNode(nodeKey: number): readonly number[] {
    return this.#vector.owners.keysOf(nodeKey);
  }

  vectorCountOfNode(nodeKey: number): number {
    return this.#vector.owners.countOf(nodeKey);
  }

  get appliedSeq(): number {
    return sidesApplied(this.#replay);
  }

  async open(): Promise<void> {
    try {
      await Promise.all(this.#sides.map((side) => this.#openSide(side)));
      await this.#catchUpNow();
      // A rebuilt side (or one far behind its snapshot) is worth a snapshot before the next open.
      this.#snapshots.schedule();
    } catch (error) {
      this.#dispose();
      throw error;
    }
  }

  catchUp(): Promise<number> {
    this.#live();
    return this.#queue.run(() => this.#catchUpNow());
  }

  async flush(): Promise<void> {
    this.#live();
    await this.catchUp();
    if (this.#keepsLog) await this.#snapshots.save();
  }

  async verify(): Promise<VerifyReport> {
    this.#live();
    // Our own commits under way finish first, and new ones wait: the store is read at one instant.
    // (Outside the queue: a commit under way settles only after its catch-up, which queues.)
    return this.#gate.hold(async () => {
      for (let attempt = 1; ; attempt++) {
        await this.#vector.settled();
        const report = await this.#queue.run(() => this.#verifyNow());
        if (report) return report;
        // Another writer (a tab, a process) committed while we read: what we saw was no one instant.
        if (attempt === VERIFY_ATTEMPTS) {
          return {
            ok: false,
            problems: [
              `write in flight: another writer kept committing while verify() read the store; run it again`,
            ],
          };
        }
      }
    });
  }

  /** The problems, or undefined when the store changed while they were gathered. */
  async #verifyNow(): Promise<VerifyReport | undefined> {
    const { seq } = await this.#raw.meta();
    await this.#catchUpNow();
    const problems = [...(await this.#raw.verify()).problems];
    for (const side of this.#sides) problems.push(...(await side.problems(this.#raw)));
    for (const check of this.#options.checks ?? []) problems.push(...(await check(this.#raw)));
    if ((await this.#raw.meta()).seq !== seq) return undefined;
    return { ok: problems.length === 0, problems };
  }

  async close(options: { snapshot?: boolean } = {}): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#snapshots.stop();
    await this.#queue.idle();
    await this.#snapshots.idle();
    if (this.#keepsLog && (options.snapshot ?? true)) {
      await this.#snapshots.save().catch((error) => this.#report(error));
    }
    this.#dispose();
  }

  /** For the public methods: refuses once close() has begun. */
  #live(): void {
    if (this.#closed) throw new LongshipError('DISPOSED', 'the derived indexes were closed');
  }

  #report(error: unknown): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // A failing error handler must not turn a background failure into a foreground one.
    }
  }

  async #afterCommit(seq: number): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.appliedSeq < seq) {
        this.#live();
        await this.#queue.run(() => this.#catchUpNow(seq));
      }
    } catch (error) {
      // The batch is committed whatever happens here; the next catch-up replays it.
      this.#report(error);
    }
  }

  async #openSide(side: DerivedSide): Promise<void> {
    if (!this.#keepsLog) return this.#rebuild(side);
    const seq = await side.load(this.#raw).catch((error: unknown) => {
      this.#report(error);
      return undefined;
    });
    if (seq === undefined) return this.#rebuild(side);
    Object.assign(this.#state[side.name], { applied: seq, altered: seq, saved: seq });
    this.openedFrom[side.name] = 'snapshot';
  }

  /** Rebuilds one side from the stored records as of `seq`; the changes after it are replayed next. */
  async #rebuild(side: DerivedSide): Promise<void> {
    const { seq } = await this.#raw.meta();
    await side.rebuild(this.#raw);
    Object.assign(this.#state[side.name], { applied: seq, altered: seq, rebuilt: true });
    this.openedFrom[side.name] = 'rebuild';
  }

  /** `committed`: the seq of a commit just made through this.store, which is then the last to apply. */
  async #catchUpNow(committed?: number): Promise<number> {
    const seq = await replayChanges(this.#raw, this.#replay, committed);
    // No snapshot will ever need the changes the sides hold: the log in memory keeps none of them.
    if (!this.#keepsLog) await this.#raw.pruneChanges(seq);
    return seq;
  }

  #dispose(): void {
    this.#closed = true;
    this.#snapshots.stop();
    for (const side of this.#sides) side.dispose();
  }
}
