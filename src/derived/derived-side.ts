// One derived index kept in step with the store: the graph of vectors, the BM25 index of postings,
// or the catalogue of nodes. The coordinator (derived-indexes.ts) opens, catches up, snapshots and
// checks each side through this interface alone; each keeps its own applied seq there, because its
// snapshot may be older than the others' or missing.

import type { FullStore } from '../store/full-store.js';
import type { ChangeRecord, CommittedChange } from '../store/store.js';

/** The sides, by the snapshot each keeps in the store. */
export const snapshotNames = { vector: 'hnsw', lexical: 'bm25', nodes: 'nodes' } as const;

export type SideName = keyof typeof snapshotNames;

/** How many records a side reads from the store at a time when it rebuilds. */
export const SCAN_BATCH = 1024;

/** What the coordinator knows of a side, beside its index (derived-indexes.ts). */
export interface SideState {
  /** The last change the side includes. */
  applied: number;
  /**
   * The last change that altered it. A change that lists none of the side's keys (a relation, a use
   * recorded) moves `applied` but not this: its snapshot still holds all it has, and is not written
   * again (a use recorded would otherwise rewrite a 200 MB graph).
   */
  altered: number;
  /** The seq of its stored snapshot, if it has one. */
  saved: number | undefined;
  /** Rebuilt since its last snapshot: an open would rebuild it again. */
  rebuilt: boolean;
}

/** A snapshot a side writes: the coordinator stores each at the seq the side includes. */
export interface SideSnapshot {
  name: string;
  bytes: Uint8Array;
}

/**
 * A derived index. `R` is what a replay reads from the store before it applies a run of changes: the
 * reading awaits, the applying does not, so that a snapshot never sees half a replay.
 */
export interface DerivedSide<R = unknown> {
  readonly name: SideName;
  /**
   * Replaces the index with the one in the side's snapshot; the seq it includes, or undefined when
   * there is no snapshot it can use (the caller rebuilds). May throw: the caller reports and rebuilds.
   */
  load(store: FullStore): Promise<number | undefined>;
  /** Replaces the index with one built from every stored record. */
  rebuild(store: FullStore): Promise<void>;
  /**
   * The records `changes` added that this side indexes, as they are now (a later change may have
   * replaced or removed them): from `own`, our own commit just made, when given, else from the store.
   */
  read(store: FullStore, changes: readonly ChangeRecord[], own: CommittedChange | undefined): Promise<R>;
  /**
   * Applies `changes` in order, with what {@link read} gave for them; whether any of this side's
   * keys changed. Synchronous. A throw leaves the index in doubt: the caller rebuilds it.
   */
  apply(changes: readonly ChangeRecord[], records: R): boolean;
  /** Resolves once the index holds only committed records, ready for {@link serialize}. */
  settled(): Promise<void>;
  /** The snapshots that restore the index, to be written in this order. */
  serialize(): SideSnapshot[];
  /** How the index disagrees with the stored records (for verify(): reads every record). */
  problems(store: FullStore): Promise<string[]>;
  /** Frees the index; any later use throws DISPOSED. */
  dispose(): void;
}
