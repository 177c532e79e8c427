// Replaying the change log onto the derived indexes: which changes a side must replay, the keys and
// records they touch, and how vectors go into the graph.

import { LongshipError } from '../errors.js';
import type {
  ChangeRecord,
  CommittedChange,
  NodeRecord,
  PostingRecord,
  VectorRecord,
} from '../store/store.js';
import type { VectorIndex } from '../vector/vector-index.js';
import type { VectorOwners } from './vector-owners.js';

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

/** Our own commit's records, for the sides that have it still to apply, in key order as reads give them. */
export function ownRecords(
  own: CommittedChange,
  pending: Record<'vectorChanges' | 'lexicalChanges' | 'nodeChanges', readonly ChangeRecord[]>,
): { vectors: VectorRecord[]; postings: PostingRecord[]; nodes: NodeRecord[] } {
  const byKey = <T extends { key: number }>(records: T[]) => records.sort((a, b) => a.key - b.key);
  return {
    vectors: pending.vectorChanges.length > 0 ? byKey(own.vectors) : [],
    postings: pending.lexicalChanges.length > 0 ? byKey(own.postings) : [],
    nodes: pending.nodeChanges.length > 0 ? byKey(own.nodes) : [],
  };
}

/**
 * Adds the records to the graph and their owners. A stored vector the graph refuses (NaN, written
 * before the store checked for it, or the wrong length) is left out and reported: the store opens
 * still, and verify() names the vector missing from the graph.
 */
export function addVectors(
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
