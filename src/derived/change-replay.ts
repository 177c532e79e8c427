// Replaying the change log onto the derived indexes: which changes a side must replay, the keys and
// records they touch, and the vectors each change put in (a replay applies them change by change, as
// the live commits did). The coordinator (derived-indexes.ts) drives the replay; the sides apply it.

import type { FullStore } from '../store/full-store.js';
import type { ChangeRecord, VectorRecord } from '../store/store.js';
import type { DerivedSide, SideName } from './derived-side.js';

/** The sides a replay brings up to date, and what it tells the coordinator that holds them. */
export interface ReplayHost {
  readonly sides: readonly DerivedSide[];
  /**
   * The last change each side includes, and the last that altered it (a change that lists none of a
   * side's keys moves only `applied`): the replay moves them on.
   */
  readonly state: Readonly<Record<SideName, { applied: number; altered: number }>>;
  /** Rebuilds a side from the stored records, and sets its state to the seq it was built at. */
  rebuild(side: DerivedSide): Promise<void>;
  /** The changes about to be applied, in the same task as they are (nothing awaits between). */
  applying(changes: readonly ChangeRecord[]): void;
  /** A replay applied changes to every side. */
  applied(): void;
  /** Told about a side that failed to apply changes, which is then rebuilt. */
  report(error: unknown): void;
}

/** The change sequence every side includes. */
export function sidesApplied(host: ReplayHost): number {
  return Math.min(...host.sides.map((side) => host.state[side.name].applied));
}

/**
 * Replays the changes after the sides' seqs, each side from its own; a side the log no longer reaches
 * back to, or that fails to apply them, is rebuilt. `committed`: the seq of a commit just made through
 * the indexes' store, which is then the last to apply. Resolves with the seq every side includes.
 */
export async function replayChanges(store: FullStore, host: ReplayHost, committed?: number): Promise<number> {
  const { sides, state } = host;
  const from = sidesApplied(host);
  // Our own commit right after the last one applied: no need to ask the store how far it is.
  const last = committed === from + 1 ? committed : (await store.meta()).seq;
  if (last <= from) return from;
  // One commit behind, and it was ours: its records are at hand, with no need to read them back.
  const own = last === from + 1 ? store.committed?.(last) : undefined;
  const changes = own ? [own.change] : await store.changesSince(from);
  const pending = sides.map((side) => replayable(changes, state[side.name].applied, last));
  // A side whose changes were pruned past it (another writer, or a snapshot it never saw) rebuilds.
  const behind = sides.filter((_, i) => !pending[i]);
  if (behind.length > 0) {
    for (const side of behind) await host.rebuild(side);
    return replayChanges(store, host);
  }
  // The records as they are now: a later change may have replaced or removed them, and replaying
  // that change again later is harmless.
  const records: unknown[] = [];
  for (const [i, side] of sides.entries()) records.push(await side.read(store, pending[i]!, own));
  // From here on nothing awaits, so a snapshot never sees half a replay.
  const reached = changes.at(-1)?.seq ?? last;
  host.applying(changes);
  const failed = sides.filter((side, i) => {
    const held = state[side.name];
    try {
      const altered = side.apply(pending[i]!, records[i]);
      held.applied = Math.max(held.applied, reached);
      if (altered) held.altered = held.applied;
      return false;
    } catch (error) {
      // Out of WASM memory, say: the index may be damaged, so it is built again from the store.
      host.report(error);
      return true;
    }
  });
  if (failed.length > 0) {
    for (const side of failed) await host.rebuild(side);
    return replayChanges(store, host);
  }
  host.applied();
  return sidesApplied(host);
}

/** The records a change touched, each a step of its replay. */
export function recordsOf(change: ChangeRecord): number {
  return (
    change.addedNodeKeys.length +
    change.removedNodeKeys.length +
    change.addedVectorKeys.length +
    change.removedVectorKeys.length +
    change.addedPostingKeys.length +
    change.removedPostingKeys.length
  );
}

/**
 * The changes a side at `applied` must replay, or undefined when the log has a gap after it
 * (pruned, or never reaching `last`).
 */
export function replayable(
  changes: readonly ChangeRecord[],
  applied: number,
  last: number,
): ChangeRecord[] | undefined {
  const after = changes.filter((c) => c.seq > applied);
  if (after.length === 0) return applied >= last ? [] : undefined;
  if (after.some((c, i) => c.seq !== applied + 1 + i)) return undefined;
  return after;
}

export type KeyField = Exclude<keyof ChangeRecord, 'seq' | 'removedVectors'>;

export function keysOf(changes: readonly ChangeRecord[], ...fields: KeyField[]): Set<number> {
  const keys = new Set<number>();
  for (const change of changes) for (const field of fields) for (const key of change[field]) keys.add(key);
  return keys;
}

/**
 * The vector each change's additions put in, change by change, for a replay in the live order. Where
 * a later change removed or replaced a vector it logged it as it was; otherwise the store (`current`)
 * holds it still. A key missing from a change's map cannot be replayed (a log from before removed
 * vectors were kept).
 */
export function vectorsAdded(
  changes: readonly ChangeRecord[],
  current: ReadonlyMap<number, VectorRecord>,
): Array<Map<number, VectorRecord>> {
  // Walking back from now: `then` holds each key's vector as it was after the change at hand.
  const then = new Map(current);
  const added: Array<Map<number, VectorRecord>> = [];
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i]!;
    const put = new Map<number, VectorRecord>();
    for (const key of change.addedVectorKeys) {
      const record = then.get(key);
      if (record) put.set(key, record);
    }
    added[i] = put;
    const logged = new Map(change.removedVectors?.map((record) => [record.key, record]));
    for (const key of change.removedVectorKeys) {
      const before = logged.get(key);
      if (before) then.set(key, before);
      else then.delete(key);
    }
  }
  return added;
}

/**
 * The records `changes` added to one table, as they are now: those of our own commit just made
 * (`own`), or else read from the store by key (`read`).
 */
export async function addedRecords<T extends { key: number }>(
  changes: readonly ChangeRecord[],
  field: KeyField,
  own: T[] | undefined,
  read: (key: number) => Promise<T | undefined>,
): Promise<(T | undefined)[]> {
  if (own) return changes.length > 0 ? inKeyOrder(own) : [];
  return Promise.all([...keysOf(changes, field)].map(read));
}

/** Our own commit's records in key order, as reads from the store give them (sorts them in place). */
export function inKeyOrder<T extends { key: number }>(records: T[]): T[] {
  return records.sort((a, b) => a.key - b.key);
}
