// Everyone who writes (the context tree, ingestion) writes through this store, so that when a
// commit resolves, the derived indexes already include it: a search right after a write finds it.

import type { Store } from '../store/store.js';

/**
 * The same store, whose `commit` waits for `afterCommit(seq)` before it resolves. `afterCommit`
 * must not throw: the batch is committed by then, and the caller must not think otherwise.
 *
 * @example
 * const store = catchingUpStore(raw, async () => { await indexes.catchUp(); });
 */
export function catchingUpStore(store: Store, afterCommit: (seq: number) => Promise<void>): Store {
  return {
    async commit(batch, signal) {
      const seq = await store.commit(batch, signal);
      await afterCommit(seq);
      return seq;
    },
    allocateKeys: (count) => store.allocateKeys(count),
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
