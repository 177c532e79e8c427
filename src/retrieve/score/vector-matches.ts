// One query's vector side: the query's vector against the vectors of any set of nodes in the
// scope, by a search of the index or, for a small set, exactly.
import type { NodeRecord } from '../../store/store.js';
import type { SearchHit } from '../../vector/vector-index.js';
import type { Scope } from '../scope.js';
import type { RetrievalSources } from '../sources.js';

/** Sets of at most this many nodes have their vectors counted rather than estimated. */
const SMALL_SET = 2048;

export class VectorMatches {
  /** The unfiltered searches of one query share their hits: a longer list serves a shorter request. */
  #unfiltered: readonly SearchHit[] = [];
  readonly #toSimilarity: (distance: number) => number;

  // The index is read from `sources` where it is used, never kept across an await: a write
  // meanwhile may replace it (a graph opened as a view is copied at its first write).
  constructor(
    private readonly sources: RetrievalSources,
    private readonly scope: Scope,
    /** Undefined when the vector side is off: every search finds nothing. */
    private readonly query: Float32Array | undefined,
    /** Scan the vectors rather than walk the graph (`hybrid.exact`). */
    private readonly exact = false,
  ) {
    this.#toSimilarity = sources.vectors.metric === 'l2sq' ? (d) => -d : (d) => 1 - d;
  }

  /**
   * Best similarity per node of `nodes` (`admits` tells their keys), over their vectors: the top
   * `k` hits of a search, or, when they have at most `exactBelow` vectors, all scored exactly.
   */
  search(
    nodes: readonly NodeRecord[],
    admits: (nodeKey: number) => boolean,
    k: number,
    exactBelow = 0,
  ): Map<number, number> {
    const best = new Map<number, number>();
    for (const { nodeKey, similarity } of this.chunks(nodes, admits, k, exactBelow)) {
      const seen = best.get(nodeKey);
      if (seen === undefined || similarity > seen) best.set(nodeKey, similarity);
    }
    return best;
  }

  /**
   * The hits {@link VectorMatches.search} keeps the best of, chunk by chunk, best first: what a
   * shard of a corpus sends, so that the best of all shards' chunks is the corpus's.
   */
  chunks(
    nodes: readonly NodeRecord[],
    admits: (nodeKey: number) => boolean,
    k: number,
    exactBelow = 0,
  ): { nodeKey: number; similarity: number }[] {
    const count = this.#vectorCount(nodes, exactBelow);
    const query = this.query;
    if (!query || count === 0 || k === 0) return [];
    const vectors = this.sources.vectors;
    const scoreAll = count <= exactBelow;
    const wanted = scoreAll ? count : Math.min(k, count);
    // Most of the index allowed: search all of it, oversampled by the share that is not, and drop
    // the rest. An allow-list that long costs more to pass and sort than the search itself.
    if (!scoreAll && count * 2 >= vectors.size) {
      const hits = this.#searchAll(query, Math.min(vectors.size, Math.ceil((wanted * vectors.size) / count)));
      const admitted = this.#admitted(hits, admits);
      if (admitted.length >= wanted) return admitted.slice(0, wanted);
    }
    const keys: number[] = [];
    for (const node of nodes) for (const key of this.scope.vectorKeys(node.key)) keys.push(key);
    if (keys.length === 0) return [];
    const hits = vectors.search(query, Math.min(wanted, keys.length), {
      allow: keys,
      ...(scoreAll || this.exact ? { exactBelow: keys.length } : {}),
    });
    return this.#admitted(hits, admits);
  }

  /**
   * How many vectors `nodes` have: counted for small sets; a large one is estimated from the
   * scope's mean, which only steers the choice between post-filtering and an allow-list (the
   * allow-list path counts exactly).
   */
  #vectorCount(nodes: readonly NodeRecord[], exactBelow: number): number {
    const { scope } = this;
    if (nodes.length > Math.max(exactBelow, SMALL_SET)) {
      return Math.round((nodes.length * scope.vectorCount) / Math.max(1, scope.nodes.length));
    }
    let count = 0;
    for (const node of nodes) count += scope.vectorKeys(node.key).length;
    return count;
  }

  /** The hits whose node `admits` allows, with their node and similarity. */
  #admitted(
    hits: readonly SearchHit[],
    admits: (nodeKey: number) => boolean,
  ): { nodeKey: number; similarity: number }[] {
    const admitted: { nodeKey: number; similarity: number }[] = [];
    for (const hit of hits) {
      const nodeKey = this.sources.vectorKeyToNodeKey(hit.key);
      if (nodeKey === undefined || !admits(nodeKey)) continue;
      admitted.push({ nodeKey, similarity: this.#toSimilarity(hit.distance) });
    }
    return admitted;
  }

  #searchAll(vector: Float32Array, k: number): readonly SearchHit[] {
    const vectors = this.sources.vectors;
    if (this.#unfiltered.length < k && this.#unfiltered.length < vectors.size) {
      // A little more than asked, so the next request (usually a bit longer) is served too.
      this.#unfiltered = vectors.search(
        vector,
        Math.min(vectors.size, Math.ceil(k * 1.25)),
        this.exact ? { exact: true } : {},
      );
    }
    return this.#unfiltered.length > k ? this.#unfiltered.slice(0, k) : this.#unfiltered;
  }
}
