// What one IndexedDB transaction of an IdbStore reads and writes: the planner's point reads inside a
// commit's transaction, a lookup by field, and a commit's writes (idb-store.ts).

import { LongshipError } from '../../errors.js';
import type { PlanReader, StoreState } from '../plan/plan-reader.js';
import type { RecordTables, StoreLookups, StoreWrites } from '../store.js';
import { fire, stateOf, type Tx, under } from './idb-connection.js';
import { STATE_KEY } from './idb-schema.js';

/**
 * The planner's reads, inside the commit's own transaction.
 *
 * @example
 * const plan = await planCommit(batch, planReader(tx), () => signal?.throwIfAborted());
 */
export function planReader(tx: Tx<'readwrite'>): PlanReader {
  const nodes = tx.objectStore('nodes');
  const vectors = tx.objectStore('vectors');
  const relations = tx.objectStore('relations');
  return {
    state: () => stateOf(tx),
    node: (uri) => nodes.get(uri),
    nodeByKey: (key) => nodes.index('key').get(key),
    childUris: (uri) => nodes.index('parent').getAllKeys(uri),
    vector: (key) => vectors.get(key),
    vectorsOfNode: (nodeKey) => vectors.index('nodeKey').getAll(nodeKey),
    hasPosting: async (key) => (await tx.objectStore('postings').count(key)) > 0,
    keyRange: async (lo, hi) => {
      const range = IDBKeyRange.bound(lo, hi);
      // Each request behind an async boundary: one that throws as it is made (the transaction
      // aborting) must not leave the others' rejections unheard.
      const request = async <T>(make: () => Promise<T>) => make();
      const [nodesInRange, vectorsInRange, vectorsOfNodes, postingKeys] = await Promise.all([
        request(() => nodes.index('key').getAll(range)),
        request(() => vectors.getAll(range)),
        request(() => vectors.index('nodeKey').getAll(range)),
        request(() => tx.objectStore('postings').getAllKeys(range)),
      ]);
      return { nodes: nodesInRange, vectors: vectorsInRange, vectorsOfNodes, postingKeys };
    },
    relationKeysOf: async (uri) => {
      const keys = [
        ...(await relations.getAllKeys(under(uri))),
        ...(await relations.index('to').getAllKeys(uri)),
      ];
      return keys.map(([from, to]) => ({ from, to }));
    },
  };
}

/**
 * {@link Store.lookup} in `tx`: each field is an index of its object store, or a range of the
 * relations' primary key ([from, to]).
 *
 * @example
 * const children = await lookupIn(tx, 'nodes', 'parent', uri);
 */
export function lookupIn<T extends keyof StoreLookups, F extends keyof StoreLookups[T]>(
  tx: Tx<'readonly'>,
  table: T,
  field: F,
  value: StoreLookups[T][F],
): Promise<RecordTables[T][]> {
  switch (`${table}.${String(field)}`) {
    case 'nodes.key':
      return tx
        .objectStore('nodes')
        .index('key')
        .getAll(value as number) as Promise<RecordTables[T][]>;
    case 'nodes.parent':
      return tx
        .objectStore('nodes')
        .index('parent')
        .getAll(value as string) as Promise<RecordTables[T][]>;
    case 'vectors.nodeKey':
      return tx
        .objectStore('vectors')
        .index('nodeKey')
        .getAll(value as number) as Promise<RecordTables[T][]>;
    case 'relations.from':
      return tx.objectStore('relations').getAll(under(value as string)) as Promise<RecordTables[T][]>;
    case 'relations.to':
      return tx
        .objectStore('relations')
        .index('to')
        .getAll(value as string) as Promise<RecordTables[T][]>;
    default:
      throw new LongshipError('INVALID_ARGUMENT', `no lookup of ${table} by ${String(field)}`);
  }
}

/**
 * Issues the writes in `tx` (requests run in order, so the deletions land before the puts that may
 * replace them), the change, and `state` as the store's.
 *
 * @example
 * issueWrites(tx, plan, plan.state);
 */
export function issueWrites(tx: Tx<'readwrite'>, writes: StoreWrites, state: StoreState): void {
  const nodes = tx.objectStore('nodes');
  const vectors = tx.objectStore('vectors');
  const postings = tx.objectStore('postings');
  const relations = tx.objectStore('relations');
  for (const uri of writes.deleteNodes) fire(nodes.delete(uri));
  for (const key of writes.deleteVectors) fire(vectors.delete(key));
  for (const key of writes.deletePostings) fire(postings.delete(key));
  for (const r of writes.deleteRelations) fire(relations.delete([r.from, r.to]));
  for (const node of writes.putNodes) fire(nodes.put(node));
  for (const vector of writes.putVectors) fire(vectors.put(vector));
  for (const posting of writes.putPostings) fire(postings.put(posting));
  for (const relation of writes.putRelations) fire(relations.put(relation));
  fire(tx.objectStore('changes').put(writes.change));
  fire(tx.objectStore('meta').put(state, STATE_KEY));
}
