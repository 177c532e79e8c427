// What the retriever reads. The engine implements this over its Store and the derived indexes it
// keeps in step with it; tests build it by hand. Nothing here writes.
import type { VikingUri } from '../context/uri.js';
import type { NodeCatalogueView } from '../derived/node-catalogue.js';
import type { Embedder } from '../embed/embedder.js';
import type { LexicalIndex } from '../lexical/lexical-index.js';
import type { FullStore } from '../store/full-store.js';
import type { ContextType, NodeRecord } from '../store/store.js';
import type { VectorIndex } from '../vector/vector-index.js';

/** The store methods retrieval calls: reads only. */
export type RetrievalStore = Pick<FullStore, 'meta' | 'node' | 'descendants' | 'vectorsOfNode' | 'relations'>;

/**
 * Everything {@link find} needs. `vectors` holds one entry per {@link VectorRecord} (a chunk of a
 * node), keyed by the record's key; `lexical` one document per node, keyed by the node's key.
 *
 * @example
 * const sources: RetrievalSources = {
 *   store, vectors, lexical, embedder,
 *   vectorKeyToNodeKey: (key) => nodeKeyOfVector.get(key),
 *   vectorKeysOfNode: (nodeKey) => vectorKeysByNode.get(nodeKey) ?? [],
 * };
 */
export interface RetrievalSources {
  store: RetrievalStore;
  vectors: Pick<VectorIndex, 'search' | 'metric' | 'size'>;
  /** Without `statistics`, BM25 scores with the whole index's statistics rather than the scope's. */
  lexical: Pick<LexicalIndex, 'search' | 'statistics'>;
  embedder: Pick<Embedder, 'embed'>;
  /** The node that owns a vector key, or undefined for a key the index should not hold. */
  vectorKeyToNodeKey(vectorKey: number): number | undefined;
  /**
   * The vector keys of a node (its chunks). Optional: without it they are read from the store,
   * one `vectorsOfNode` call per node in scope, which copies every vector — a derived index keeps
   * this map anyway and should pass it.
   */
  vectorKeysOfNode?(nodeKey: number): readonly number[];
  /**
   * How many vectors a node has: vectorKeysOfNode's length without the list (a scope counts the
   * vectors of every node in it, 100k at once after an open). Optional: the lists are counted.
   */
  vectorCountOfNode?(nodeKey: number): number;
  /**
   * Every node of the store without its L1/L2, kept in step with it. Optional: without it each
   * scope is read from the store (`node`, `descendants`) — at 100k nodes, seconds.
   */
  readonly nodes?: NodeCatalogueView;
  /** Where each context type is searched without a `targetUri`; default the default namespace's. */
  readonly roots?: Readonly<Record<ContextType, readonly VikingUri[]>>;
  /**
   * How memories age (docs/guide/memory-lifecycle.md): called once per find(), it gives the judge of
   * each candidate at that moment. Optional: without it nothing expires or decays.
   */
  ageing?(): AgeJudge;
}

/** A candidate's age: `'expired'` drops it, a number multiplies its score, undefined leaves it be. */
export type AgeJudge = (node: NodeRecord) => 'expired' | number | undefined;

/**
 * A lookup of the vector keys of the given nodes: the sources' own map when they have one,
 * otherwise one read from the store per node, made now.
 */
export async function vectorKeysOf(
  sources: RetrievalSources,
  nodes: readonly { key: number }[],
): Promise<(nodeKey: number) => readonly number[]> {
  if (sources.vectorKeysOfNode) {
    const fromMap = sources.vectorKeysOfNode.bind(sources);
    return (nodeKey) => fromMap(nodeKey);
  }
  const keys = new Map<number, readonly number[]>();
  for (const { key: nodeKey } of nodes) {
    if (!keys.has(nodeKey))
      keys.set(
        nodeKey,
        (await sources.store.vectorsOfNode(nodeKey)).map((v) => v.key),
      );
  }
  return (nodeKey) => keys.get(nodeKey) ?? [];
}
