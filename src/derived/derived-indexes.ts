// The HNSW graph, the BM25 index and the node catalogue are derived from the Store (src/store/
// store.ts gives the protocol): each is opened from its newest snapshot plus the changes after it,
// or rebuilt from the stored records, and caught up after every commit. Each side keeps its own
// applied sequence number, because its snapshot may be older than the others' or missing.

import { placeProblems } from '../context/tree-checks.js';
import { LongshipError } from '../errors.js';
import { createLexicalIndex, loadLexicalIndex } from '../lexical/bm25-index.js';
import { postingsSection } from '../lexical/bm25-snapshot.js';
import type { LexicalIndex, LexicalIndexOptions } from '../lexical/lexical-index.js';
import type { ChangeRecord, Store, VectorRecord, VerifyReport, WriteBatch } from '../store/store.js';
import { allocateIndexBytes, createVectorIndex } from '../vector/usearch-index.js';
import type { UsearchModule } from '../vector/usearch-module.js';
import type { VectorIndex, VectorIndexOptions } from '../vector/vector-index.js';
import { catchingUpStore, type EarlyWork } from './catching-up-store.js';
import { addVectors, keysOf, ownRecords, recordsOf, replayable, vectorsAdded } from './change-replay.js';
import { CommitGate } from './commit-gate.js';
import { type EarlyBatch, EarlyVectors } from './early-vectors.js';
import { catalogueProblems, lexicalIndexProblems, vectorIndexProblems } from './index-checks.js';
import { LazySnapshotSink } from './lazy-snapshot-sink.js';
import { NodeCatalogue, type NodeCatalogueView } from './node-catalogue.js';
import { postingDoc } from './posting-doc.js';
import { VectorOwners } from './vector-owners.js';

/** The snapshot names in the store. */
export const snapshotNames = { vector: 'hnsw', lexical: 'bm25', nodes: 'nodes' } as const;
/** Beside the graph, at the same seq: which node owns each vector key. */
const OWNERS_SNAPSHOT = 'hnsw-owners';

/**
 * The graph's expansions in a store: half the usual while inserting, twice while searching. At 100k
 * the graph then finds more of its own exact top 10 (recall@10 0.99 against 0.97 with 128 and 64), an
 * insert, which ingestion pays for every chunk, costs a fifth less, and a search ~0.05 ms more, in a
 * find() of several ms (docs/benchmarks.md, "Store reopen").
 */
export const STORE_EXPANSION = { expansionAdd: 64, expansionSearch: 128 } as const;

type Side = keyof typeof snapshotNames;
const sides: readonly Side[] = ['vector', 'lexical', 'nodes'];

/** How a side was last brought up: from its snapshot, or rebuilt from the stored records. */
export type OpenedFrom = 'snapshot' | 'rebuild';

export interface DerivedIndexesOptions {
  store: Store;
  usearch: UsearchModule;
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
   * vectors), but an open with changes to replay takes longer (docs/snapshots.md, "When snapshots
   * are written").
   */
  snapshotAfterChanges?: number;
  /** Told about failures that do not fail a call: a snapshot write, a catch-up after a commit. */
  onError?: (error: unknown) => void;
}

export interface DerivedIndexes {
  /**
   * The store to write through: its commit() resolves once both indexes include the batch.
   * Writes made on the underlying store directly show up at the next {@link DerivedIndexes.catchUp}.
   */
  readonly store: Store;
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
  readonly openedFrom: Readonly<Record<Side, OpenedFrom>>;
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

const SCAN_BATCH = 1024;

interface Held {
  vectors: VectorIndex;
  lexical: LexicalIndex;
  nodes: NodeCatalogue;
}
const MAX_RETRY_MS = 60_000;
/** How many times verify() reads again when another writer commits while it reads. */
const VERIFY_ATTEMPTS = 3;

/**
 * Opens the vector and lexical indexes of a store: from their snapshots when those are valid and
 * the change log still reaches back to them, otherwise rebuilt from the stored records.
 *
 * @example
 * const indexes = await openDerivedIndexes({ store, usearch: await loadUsearch(), dimensions: 512 });
 * await indexes.store.commit(batch); // the indexes now include the batch
 * indexes.vectors.search(query, 10);
 */
export async function openDerivedIndexes(options: DerivedIndexesOptions): Promise<DerivedIndexes> {
  const indexes = new StoreDerivedIndexes(options);
  await indexes.open();
  return indexes;
}

class StoreDerivedIndexes implements DerivedIndexes {
  readonly store: Store;
  readonly openedFrom: Record<Side, OpenedFrom> = { vector: 'rebuild', lexical: 'rebuild', nodes: 'rebuild' };
  readonly #raw: Store;
  readonly #options: DerivedIndexesOptions;
  readonly #delayMs: number;
  readonly #maxDelayMs: number;
  readonly #afterChanges: number;
  /** The records each change applied since the oldest snapshot touched: what an open would replay. */
  #unsaved: { seq: number; records: number }[] = [];
  /** Sides rebuilt since their last snapshot: an open would rebuild them again. */
  readonly #rebuilt = new Set<Side>();
  #vectors: VectorIndex | undefined;
  #lexical: LexicalIndex | undefined;
  /** The file the loaded BM25 index reads its postings from, until it has read them all. */
  #lexicalFile: LazySnapshotSink | undefined;
  #nodes: NodeCatalogue | undefined;
  /** Kept in step with #vectors: replaced with it, changed with it. */
  #owners = new VectorOwners();
  /** Vectors in #vectors whose commits are still under way: no owners yet. */
  readonly #early = new EarlyVectors();
  /** The last change each side includes. */
  readonly #applied: Record<Side, number> = { vector: 0, lexical: 0, nodes: 0 };
  /**
   * The last change that altered each side. A change that lists none of a side's keys (a relation,
   * a use recorded) moves `#applied` but not this: that side's snapshot still holds all it has, and
   * is not written again (a use recorded would otherwise rewrite a 200 MB graph).
   */
  readonly #altered: Record<Side, number> = { vector: 0, lexical: 0, nodes: 0 };
  /** The seq of each side's stored snapshot, if it has one. */
  readonly #saved: Record<Side, number | undefined> = {
    vector: undefined,
    lexical: undefined,
    nodes: undefined,
  };
  /** Catch-ups, rebuilds and verify run one at a time. */
  #queue: Promise<unknown> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the pending snapshot is due at the latest (Date.now()), set by the change that made it pending. */
  #deadline: number | undefined;
  #saving: Promise<void> | undefined;
  #failures = 0;
  #closed = false;
  /** Commits through {@link store} under way; verify() holds new ones back while it reads. */
  readonly #gate = new CommitGate();

  constructor(options: DerivedIndexesOptions) {
    this.#options = {
      ...options,
      vectorIndex: { quantization: 'i8', ...STORE_EXPANSION, ...options.vectorIndex },
    };
    this.#raw = options.store;
    this.#delayMs = options.snapshotDelayMs ?? 2000;
    this.#maxDelayMs = options.snapshotMaxDelayMs ?? 30_000;
    this.#afterChanges = options.snapshotAfterChanges ?? 0;
    const store = catchingUpStore(
      options.store,
      (seq) => this.#afterCommit(seq),
      (batch) => this.#earlyWork(batch),
    );
    this.store = {
      ...store,
      commit: (batch, signal, onIssued) => this.#gate.commit(() => store.commit(batch, signal, onIssued)),
    };
  }

  get vectors(): VectorIndex {
    return this.#live().vectors;
  }

  get lexical(): LexicalIndex {
    return this.#live().lexical;
  }

  get nodes(): NodeCatalogueView {
    return this.#live().nodes;
  }

  nodeOfVector(vectorKey: number): number | undefined {
    return this.#owners.nodeOf(vectorKey);
  }

  vectorKeysOfNode(nodeKey: number): readonly number[] {
    return this.#owners.keysOf(nodeKey);
  }

  vectorCountOfNode(nodeKey: number): number {
    return this.#owners.countOf(nodeKey);
  }

  get appliedSeq(): number {
    return Math.min(this.#applied.vector, this.#applied.lexical, this.#applied.nodes);
  }

  async open(): Promise<void> {
    try {
      await Promise.all(sides.map((side) => this.#openSide(side)));
      await this.#catchUpNow();
      // A rebuilt side (or one far behind its snapshot) is worth a snapshot before the next open.
      this.#schedule();
    } catch (error) {
      this.#dispose();
      throw error;
    }
  }

  catchUp(): Promise<number> {
    this.#live();
    return this.#exclusive(() => this.#catchUpNow());
  }

  async flush(): Promise<void> {
    this.#live();
    await this.catchUp();
    await this.#save();
  }

  async verify(): Promise<VerifyReport> {
    this.#live();
    // Our own commits under way finish first, and new ones wait: the store is read at one instant.
    // (Outside the queue: a commit under way settles only after its catch-up, which queues.)
    return this.#gate.hold(async () => {
      for (let attempt = 1; ; attempt++) {
        await this.#early.quiet();
        const report = await this.#exclusive(() => this.#verifyNow());
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
    const report = await this.#raw.verify();
    const problems = [
      ...report.problems,
      ...(await vectorIndexProblems(this.#raw, this.#held().vectors, this.#owners)),
      ...(await lexicalIndexProblems(this.#raw, this.#held().lexical, this.#options.lexicalIndex)),
      ...(await catalogueProblems(this.#raw, this.#held().nodes)),
      ...(await placeProblems(this.#raw)),
    ];
    if ((await this.#raw.meta()).seq !== seq) return undefined;
    return { ok: problems.length === 0, problems };
  }

  async close(options: { snapshot?: boolean } = {}): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#queue.catch(() => undefined);
    await this.#saving?.catch(() => undefined);
    if (options.snapshot ?? true) await this.#save().catch((error) => this.#report(error));
    this.#dispose();
  }

  /** For the public methods: refuses once close() has begun. */
  #live(): Held {
    if (this.#closed) throw new LongshipError('DISPOSED', 'the derived indexes were closed');
    return this.#held();
  }

  /** For the work close() still finishes: refuses only once the indexes are freed. */
  #held(): Held {
    if (!this.#vectors || !this.#lexical || !this.#nodes)
      throw new LongshipError('DISPOSED', 'the derived indexes were closed');
    return { vectors: this.#vectors, lexical: this.#lexical, nodes: this.#nodes };
  }

  #exclusive<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #report(error: unknown): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // A failing error handler must not turn a background failure into a foreground one.
    }
  }

  /**
   * Puts a batch's vectors into the graph while its commit is under way, so that the inserts and the
   * wait for the disk overlap; what the catch-up does not claim comes out again when it settles.
   */
  #earlyWork(batch: WriteBatch): EarlyWork | undefined {
    const records = batch.putVectors;
    if (!records?.length) return undefined;
    let inserted: EarlyBatch | undefined;
    return {
      issued: () => {
        if (this.#closed || !this.#vectors) return;
        try {
          inserted = this.#early.insert(this.#writableVectors(), records);
        } catch (error) {
          // Nothing went in early: the catch-up inserts them as ever.
          this.#report(error);
        }
      },
      settled: () => {
        if (inserted) this.#early.settle(inserted, this.#vectors);
      },
    };
  }

  async #afterCommit(seq: number): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.appliedSeq < seq) {
        this.#live();
        await this.#exclusive(() => this.#catchUpNow(seq));
      }
    } catch (error) {
      // The batch is committed whatever happens here; the next catch-up replays it.
      this.#report(error);
    }
  }

  async #openSide(side: Side): Promise<void> {
    const loaded = await this.#loadSnapshot(side).catch((error: unknown) => {
      this.#report(error);
      return undefined;
    });
    if (loaded) {
      this.#applied[side] = loaded.seq;
      this.#altered[side] = loaded.seq;
      this.#saved[side] = loaded.seq;
      this.openedFrom[side] = 'snapshot';
      return;
    }
    await this.#rebuild(side);
  }

  async #loadSnapshot(side: Side): Promise<{ seq: number } | undefined> {
    if (side === 'vector') {
      const ownersSnapshot = await this.#raw.snapshot(OWNERS_SNAPSHOT);
      if (!ownersSnapshot) return undefined;
      const owners = VectorOwners.load(ownersSnapshot.bytes);
      // The graph's bytes go straight onto the WASM heap as they are read, and are searched where
      // they lie (a view, until the first write): no buffer of their whole length is made first.
      const { usearch } = this.#options;
      const graph = await this.#raw.snapshotInto(snapshotNames.vector, (length) =>
        allocateIndexBytes(usearch, length),
      );
      if (!graph) return undefined;
      // Owners from another seq (a crash between the two writes) cannot be trusted: rebuild.
      if (graph.seq !== ownersSnapshot.seq) {
        graph.sink.dispose();
        return undefined;
      }
      const index = graph.sink.open({ view: true });
      const expected = { dimensions: this.#options.dimensions, ...this.#options.vectorIndex };
      if (
        index.dimensions !== expected.dimensions ||
        index.metric !== (expected.metric ?? 'cos') ||
        index.quantization !== (expected.quantization ?? 'f32')
      ) {
        index.dispose();
        return undefined;
      }
      // A snapshot does not keep the expansions: the view takes ours.
      const { expansionAdd, expansionSearch } = this.#options.vectorIndex ?? {};
      index.changeExpansion({
        ...(expansionAdd ? { add: expansionAdd } : {}),
        ...(expansionSearch ? { search: expansionSearch } : {}),
      });
      if (owners.size !== index.size) {
        index.dispose();
        return undefined;
      }
      this.#replace('vector', index, owners);
      return { seq: graph.seq };
    }
    if (side === 'lexical') {
      const read = await this.#raw.snapshotInto(
        snapshotNames.lexical,
        (length, ranged) => new LazySnapshotSink(length, ranged ? postingsSection : undefined),
      );
      if (!read) return undefined;
      const { sink } = read;
      const { k1, b } = this.#options.lexicalIndex ?? {};
      let index: LexicalIndex;
      try {
        // The store checked the bytes against the checksum it took when they were written.
        index = loadLexicalIndex(sink.bytes, { k1, b, verified: true, postings: sink.unread() });
      } catch (error) {
        sink.dispose();
        throw error;
      }
      this.#replace('lexical', index, sink);
      return { seq: read.seq };
    }
    const snapshot = await this.#raw.snapshot(snapshotNames.nodes);
    if (!snapshot) return undefined;
    const { catalogue, readBack } = NodeCatalogue.load(snapshot.bytes);
    // The few nodes whose metadata JSON could not carry come from the store as they are now.
    for (const key of readBack) {
      const node = await this.#raw.nodeByKey(key);
      if (node) catalogue.set(node);
    }
    this.#replace('nodes', catalogue);
    return { seq: snapshot.seq };
  }

  /**
   * The graph, writable: one opened from its snapshot is a view (its searches take no locks) until its
   * first write, which makes it writable where it lies, copying nothing.
   */
  #writableVectors(): VectorIndex {
    const view = this.#held().vectors;
    const writable = view.writable();
    this.#vectors = writable;
    return writable;
  }

  #replace(side: 'vector', index: VectorIndex, owners: VectorOwners): void;
  /** `file`: what the index reads its postings from later, let go when the index is. */
  #replace(side: 'lexical', index: LexicalIndex, file?: LazySnapshotSink): void;
  #replace(side: 'nodes', catalogue: NodeCatalogue): void;
  #replace(
    side: Side,
    index: VectorIndex | LexicalIndex | NodeCatalogue,
    beside?: VectorOwners | LazySnapshotSink,
  ): void {
    if (side === 'vector') {
      this.#vectors?.dispose();
      this.#vectors = index as VectorIndex;
      this.#owners = (beside as VectorOwners | undefined) ?? new VectorOwners();
      this.#early.clear();
    } else if (side === 'lexical') {
      this.#lexicalFile?.dispose();
      this.#lexical = index as LexicalIndex;
      this.#lexicalFile = beside as LazySnapshotSink | undefined;
    } else {
      this.#nodes = index as NodeCatalogue;
    }
  }

  /** Rebuilds one side from the stored records as of `seq`; the changes after it are replayed next. */
  async #rebuild(side: Side): Promise<void> {
    const { seq } = await this.#raw.meta();
    if (side === 'vector') {
      const { dimensions, vectorIndex } = this.#options;
      const index = createVectorIndex(this.#options.usearch, { ...vectorIndex, dimensions });
      const owners = new VectorOwners();
      try {
        index.reserve((await this.#raw.stats()).vectors);
        for await (const rows of this.#raw.scan('vectors', SCAN_BATCH))
          addVectors(index, owners, rows, (error) => this.#report(error));
      } catch (error) {
        index.dispose();
        throw error;
      }
      this.#replace('vector', index, owners);
    } else if (side === 'lexical') {
      const index = createLexicalIndex(this.#options.lexicalIndex);
      for await (const rows of this.#raw.scan('postings', SCAN_BATCH)) {
        for (const posting of rows) index.replace(postingDoc(posting));
      }
      this.#replace('lexical', index);
    } else {
      const catalogue = new NodeCatalogue();
      for await (const rows of this.#raw.scan('nodes', SCAN_BATCH))
        for (const node of rows) catalogue.set(node);
      this.#replace('nodes', catalogue);
    }
    this.#applied[side] = seq;
    this.#altered[side] = seq;
    this.openedFrom[side] = 'rebuild';
    this.#rebuilt.add(side);
  }

  /** `committed`: the seq of a commit just made through this.store, which is then the last to apply. */
  async #catchUpNow(committed?: number): Promise<number> {
    const from = this.appliedSeq;
    // Our own commit right after the last one applied: no need to ask the store how far it is.
    const last = committed === from + 1 ? committed : (await this.#raw.meta()).seq;
    if (last <= from) return from;
    // One commit behind, and it was ours: its records are at hand, with no need to read them back.
    const own = last === from + 1 ? this.#raw.committed?.(last) : undefined;
    const changes = own ? [own.change] : await this.#raw.changesSince(from);
    const pending = {
      vector: replayable(changes, this.#applied.vector, last),
      lexical: replayable(changes, this.#applied.lexical, last),
      nodes: replayable(changes, this.#applied.nodes, last),
    };
    if (!pending.vector || !pending.lexical || !pending.nodes) {
      // A side whose changes were pruned past it (another writer, or a snapshot it never saw) rebuilds.
      for (const side of sides) if (!pending[side]) await this.#rebuild(side);
      return this.#catchUpNow();
    }
    const vectorChanges = pending.vector;
    const lexicalChanges = pending.lexical;
    const nodeChanges = pending.nodes;
    const touchedVectors = keysOf(vectorChanges, 'removedVectorKeys', 'addedVectorKeys');
    const touchedPostings = keysOf(lexicalChanges, 'removedPostingKeys', 'addedPostingKeys');
    const touchedNodes = keysOf(nodeChanges, 'removedNodeKeys', 'addedNodeKeys');
    // The records as they are now: a later change may have replaced or removed them, and replaying
    // that change again later is harmless.
    const { vectors, postings, nodes } = own
      ? ownRecords(own, { vectorChanges, lexicalChanges, nodeChanges })
      : {
          vectors: await this.#raw.vectors([...keysOf(vectorChanges, 'addedVectorKeys')]),
          postings: await Promise.all(
            [...keysOf(lexicalChanges, 'addedPostingKeys')].map((key) => this.#raw.posting(key)),
          ),
          nodes: await Promise.all(
            [...keysOf(nodeChanges, 'addedNodeKeys')].map((key) => this.#raw.nodeByKey(key)),
          ),
        };
    // From here on nothing awaits, so a snapshot never sees half a replay.
    const { lexical, nodes: catalogue } = this.#held();
    const reached = changes.at(-1)?.seq ?? last;
    if (this.#afterChanges > 0)
      for (const change of changes) this.#unsaved.push({ seq: change.seq, records: recordsOf(change) });
    // Nodes still there are set over their old selves, so the catalogue sees what changed in place.
    const current = new Set<number>();
    for (const node of nodes) if (node) current.add(node.key);
    for (const key of touchedNodes) if (!current.has(key)) catalogue.delete(key);
    for (const node of nodes) if (node) catalogue.set(node);
    this.#applied.nodes = Math.max(this.#applied.nodes, reached);
    if (touchedNodes.size > 0) this.#altered.nodes = this.#applied.nodes;
    for (const key of touchedPostings) lexical.remove(key);
    for (const posting of postings) if (posting) lexical.replace(postingDoc(posting));
    this.#applied.lexical = Math.max(this.#applied.lexical, reached);
    if (touchedPostings.size > 0) this.#altered.lexical = this.#applied.lexical;
    try {
      const vectorIndex = touchedVectors.size > 0 ? this.#writableVectors() : this.#held().vectors;
      const added = vectorsAdded(vectorChanges, new Map(vectors.map((record) => [record.key, record])));
      vectorChanges.forEach((change, i) => {
        this.#applyVectors(vectorIndex, change, added[i]!);
      });
      this.#applied.vector = Math.max(this.#applied.vector, reached);
      if (touchedVectors.size > 0) this.#altered.vector = this.#applied.vector;
    } catch (error) {
      // Out of WASM memory, say: the graph may be damaged, so it is built again from the store.
      this.#report(error);
      await this.#rebuild('vector');
      return this.#catchUpNow();
    }
    this.#schedule();
    return this.appliedSeq;
  }

  /**
   * One change's vectors, in the order a live commit applies them: its new vectors first (they go in
   * early, while the commit is under way, in key order), then its old ones out. A replay after a crash
   * applies each change the same way, so that it builds the graph the live writes built (HNSW's graph
   * depends on the order of insertions and removals, and a removed node's slot is reused by the next);
   * `added` holds the vectors this change put in, also those gone again since (docs/reliability-core.md).
   */
  #applyVectors(index: VectorIndex, change: ChangeRecord, added: ReadonlyMap<number, VectorRecord>): void {
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
    addVectors(index, this.#owners, fresh, (error) => this.#report(error));
    for (const key of change.removedVectorKeys) {
      if (added.has(key)) continue;
      this.#early.claim(key);
      if (index.contains(key)) index.remove(key);
      this.#owners.delete(key);
    }
  }

  /** Whether a side has changes its snapshot does not hold. */
  #stale(side: Side): boolean {
    const saved = this.#saved[side];
    return saved === undefined || this.#altered[side] > saved;
  }

  #dirty(): boolean {
    return sides.some((side) => this.#stale(side));
  }

  /** Whether the changes since the snapshots are worth new ones: too many to replay, or a side has none. */
  #due(): boolean {
    if (this.#rebuilt.size > 0) return true;
    let records = 0;
    for (const { records: count } of this.#unsaved) records += count;
    return records >= this.#afterChanges;
  }

  /**
   * (Re)starts the wait for the next snapshot: debounced, each change pushes it back `delayMs`, but
   * never past the deadline the first unsaved change set. After failures, further apart each time.
   */
  #schedule(): void {
    const delayMs =
      this.#failures === 0 ? this.#delayMs : Math.min(this.#delayMs * 2 ** this.#failures, MAX_RETRY_MS);
    if (this.#closed || this.#saving || !Number.isFinite(delayMs)) return;
    if (!this.#dirty() || !this.#due()) return;
    const now = Date.now();
    this.#deadline ??= now + Math.max(delayMs, this.#maxDelayMs);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => this.#save().catch((error) => this.#report(error)),
      Math.min(delayMs, this.#deadline - now),
    );
    // Node: a pending snapshot must not keep the process alive. Elsewhere timers have no unref.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /**
   * Serializes the sides that changed and writes them, one save at a time. A failure leaves the
   * previous snapshots in place; the next try comes later, further apart after each failure.
   */
  async #save(): Promise<void> {
    // A flush takes the place of the pending save; the changes after it schedule the next.
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#deadline = undefined;
    while (this.#saving) await this.#saving.catch(() => undefined);
    const saving = this.#writeSnapshots();
    this.#saving = saving;
    try {
      await saving;
      this.#failures = 0;
    } catch (error) {
      this.#failures++;
      throw error;
    } finally {
      this.#saving = undefined;
      this.#schedule();
    }
  }

  async #writeSnapshots(): Promise<void> {
    // One side at a time, serialized at the seq it includes, then written: each side replays from its
    // own seq, so a find or a commit may run between them, and the longest the worker is held is one
    // side's serialization, not all of them together.
    for (const side of sides) {
      if (!this.#stale(side)) continue;
      // A store's writes may settle without a task boundary (a sync access handle, memory): let
      // whatever waits run first.
      await nextTask();
      // A graph with vectors whose commits are still under way must not be kept.
      if (side === 'vector') await this.#early.quiet();
      const held = this.#held();
      const seq = this.#applied[side];
      const bytes = side === 'vector' ? held.vectors.serialize() : held[side].serialize();
      if (side === 'vector') {
        // The owners go first: a crash between the two writes leaves their seqs apart, and the
        // next open rebuilds rather than trust a graph with the wrong owners.
        await this.#raw.putSnapshot({ name: OWNERS_SNAPSHOT, seq, bytes: this.#owners.serialize() });
      }
      await this.#raw.putSnapshot({ name: snapshotNames[side], seq, bytes });
      this.#saved[side] = seq;
      this.#rebuilt.delete(side);
    }
    const oldest = Math.min(...sides.map((side) => this.#saved[side] ?? 0));
    this.#unsaved = this.#unsaved.filter((change) => change.seq > oldest);
    await this.#prune();
  }

  /** Forgets the changes every stored snapshot already includes. A side without one rebuilds anyway. */
  async #prune(): Promise<void> {
    const needed = sides.map((side) => this.#saved[side]).filter((seq) => seq !== undefined);
    if (needed.length === 0) return;
    const through = Math.min(...needed);
    if (through > 0) await this.#raw.pruneChanges(through);
  }

  #dispose(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#vectors?.dispose();
    this.#vectors = undefined;
    this.#lexicalFile?.dispose();
    this.#lexicalFile = undefined;
    this.#lexical = undefined;
    this.#nodes = undefined;
  }
}

/**
 * Resolves in a new task of the event loop, after what is queued now. A message, not a timer: a
 * caller's fake timers (a test's) must not hold up a snapshot, nor close() with it. workerd with an
 * older compatibility date (2025-01-01) has no MessageChannel: a timer there.
 */
function nextTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
