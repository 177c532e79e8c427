// Everyone who writes (the context tree, ingestion) writes through this store, so that when a
// commit resolves, the derived indexes already include it: a search right after a write finds it.

import type { FullStore } from '../store/full-store.js';
import type { WriteBatch } from '../store/store.js';

/** Work on a batch done while its commit is under way, undone if the commit fails. */
export interface EarlyWork {
  /** The batch's writes are issued and the commit is under way (Store.commit's `onIssued`). */
  issued(): void;
  /** The commit has failed, or has succeeded and `afterCommit` has run. */
  settled(): void;
}

/**
 * The same store, whose `commit` waits for `afterCommit(seq)` before it resolves. `afterCommit`
 * must not throw: the batch is committed by then, and the caller must not think otherwise.
 * `early(batch)`, where given, makes the work that overlaps each commit's wait; none of its
 * methods may throw.
 *
 * @example
 * const store = catchingUpStore(raw, async () => { await indexes.catchUp(); });
 */
export function catchingUpStore(
  store: FullStore,
  afterCommit: (seq: number) => Promise<void>,
  early?: (batch: WriteBatch) => EarlyWork | undefined,
): FullStore {
  return {
    persistent: store.persistent,
    async commit(batch, signal, onIssued) {
      const work = early?.(batch);
      let seq: number;
      try {
        seq = await store.commit(batch, signal, () => {
          work?.issued();
          onIssued?.();
        });
      } catch (error) {
        work?.settled();
        throw error;
      }
      try {
        await afterCommit(seq);
      } finally {
        work?.settled();
      }
      return seq;
    },
    async write(writes) {
      const written = await store.write(writes);
      if (written) await afterCommit(writes.change.seq);
      return written;
    },
    allocateKeys: (count) => store.allocateKeys(count),
    get: (table, keys) => store.get(table, keys),
    lookup: (table, field, value) => store.lookup(table, field, value),
    node: (uri) => store.node(uri),
    nodes: (uris) => store.nodes(uris),
    nodeByKey: (key) => store.nodeByKey(key),
    children: (uri) => store.children(uri),
    descendants: (uri) => store.descendants(uri),
    vectors: (keys) => store.vectors(keys),
    vectorsOfNode: (nodeKey) => store.vectorsOfNode(nodeKey),
    posting: (key) => store.posting(key),
    relations: (uri) => store.relations(uri),
    scan: (table, batchSize) => store.scan(table, batchSize),
    nodesNeedingVectors: () => store.nodesNeedingVectors(),
    changesSince: (seq) => store.changesSince(seq),
    committed: (seq) => store.committed?.(seq),
    pruneChanges: (throughSeq) => store.pruneChanges(throughSeq),
    meta: () => store.meta(),
    useEmbedder: (embedder, onMismatch) => store.useEmbedder(embedder, onMismatch),
    putSnapshot: (input, signal) => store.putSnapshot(input, signal),
    snapshot: (name) => store.snapshot(name),
    snapshotInto: (name, open) => store.snapshotInto(name, open),
    deleteSnapshot: (name) => store.deleteSnapshot(name),
    verify: () => store.verify(),
    stats: () => store.stats(),
    close: () => store.close(),
    destroy: () => store.destroy(),
  };
}
