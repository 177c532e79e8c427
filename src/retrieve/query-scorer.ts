// One query's scoring: the query embedded once, BM25 over the whole scope computed once (a node's
// BM25 does not depend on which other nodes are allowed, so every later lookup is a read by key), the
// global vector search that sets the vector side's reference, and exact scoring of any set of nodes.
import { LongshipError } from '../errors.js';
import type { LexicalHit } from '../lexical/lexical-index.js';
import type { NodeKind, NodeRecord } from '../store/store.js';
import type { SearchHit } from '../vector/vector-index.js';
import { createFuser, type Fuser, type FusionSettings, type RawScores, ranksOf } from './fusion.js';
import { keyScores } from './key-scores.js';
import type { Scope } from './scope.js';
import type { RetrievalSources } from './sources.js';
import { topBy } from './top.js';

export interface ScoredNode {
  node: NodeRecord;
  raw: RawScores;
  fused: number;
}

export interface QueryScorer {
  /** The fusion of each kind of node (the same one unless `byKind`). */
  readonly fuser: Readonly<Record<NodeKind, Fuser>>;
  /**
   * The best-scoring nodes among `nodes` by the global searches (lexical ∪ vector), fused, best
   * first. `admits` may say which node keys are in `nodes` more cheaply than a set of them.
   */
  best(nodes: readonly NodeRecord[], count: number, admits?: (nodeKey: number) => boolean): ScoredNode[];
  /** Exact scores of `nodes`, in their order. */
  score(nodes: readonly NodeRecord[]): ScoredNode[];
}

export interface ScorerSettings extends FusionSettings {
  /** Nodes taken from each side's global search (and used as the normalisation reference). */
  candidates: number;
  /** Normalise directories and files against references of their own kind. */
  byKind: boolean;
  /** Sets of nodes with at most this many vectors are scored exactly. */
  exactBelow: number;
}

/** Sets of at most this many nodes have their vectors counted rather than estimated. */
const SMALL_SET = 2048;
/** Oversampling of vector hits: a node with several chunks takes several of the top hits. */
const CHUNK_OVERSAMPLE = 2;

export async function createQueryScorer(
  sources: RetrievalSources,
  scope: Scope,
  query: string,
  settings: ScorerSettings,
  signal: AbortSignal | undefined,
): Promise<QueryScorer> {
  // The indexes are read from `sources` where they are used, never kept across an await: a write
  // meanwhile may replace them (a graph opened as a view is copied at its first write).
  const toSimilarity = sources.vectors.metric === 'l2sq' ? (d: number) => -d : (d: number) => 1 - d;

  let queryVector: Float32Array | undefined;
  if (settings.useVector) {
    const [vector] = await sources.embedder.embed([query], signal ? { signal } : {});
    if (!vector) throw new LongshipError('INVALID_ARGUMENT', 'the embedder returned no vector for the query');
    queryVector = vector;
  }

  // Every match's score, unsorted: a long query matches most of a corpus, and only the order of
  // the first few hundred is ever read (see lexicalBest).
  let lexicalHits: readonly LexicalHit[] = [];
  if (settings.useLexical && scope.byKey.size > 0) {
    const allow = (key: number) => scope.byKey.has(key);
    lexicalHits = sources.lexical.search(query, { limit: Number.POSITIVE_INFINITY, allow, sorted: false });
  }
  const bm25 = keyScores(lexicalHits);
  /** The keys of the best `count` BM25 matches that `admits` allows, best first (ties: lower key). */
  const lexicalBest = (count: number, admits?: (key: number) => boolean): number[] => {
    // A selection keeps a few (asking `admits` only about contenders); asked for many (RRF ranks
    // them all), a sort is cheaper.
    const best =
      count * 8 >= lexicalHits.length
        ? (admits ? lexicalHits.filter((hit) => admits(hit.key)) : [...lexicalHits])
            .sort((a, b) => b.score - a.score || a.key - b.key)
            .slice(0, count)
        : topBy(
            lexicalHits,
            count,
            (a, b) => a.score > b.score || (a.score === b.score && a.key < b.key),
            admits && ((hit) => admits(hit.key)),
          );
    return best.map((hit) => hit.key);
  };

  // The unfiltered searches of one query share their hits: a longer list serves a shorter request.
  let unfiltered: readonly SearchHit[] = [];
  const searchAll = (vector: Float32Array, k: number): readonly SearchHit[] => {
    const vectors = sources.vectors;
    if (unfiltered.length < k && unfiltered.length < vectors.size) {
      // A little more than asked, so the next request (usually a bit longer) is served too.
      unfiltered = vectors.search(vector, Math.min(vectors.size, Math.ceil(k * 1.25)));
    }
    return unfiltered.length > k ? unfiltered.slice(0, k) : unfiltered;
  };
  /**
   * Best similarity per node of `nodes` (`admits` tells their keys), over their vectors: the top
   * `k` hits of a search, or, when they have at most `exactBelow` vectors, all scored exactly.
   */
  const vectorSearch = (
    nodes: readonly NodeRecord[],
    admits: (nodeKey: number) => boolean,
    k: number,
    exactBelow = 0,
  ): Map<number, number> => {
    const best = new Map<number, number>();
    // Counted for small sets; a large one is estimated from the scope's mean, which only steers
    // the choice between post-filtering and an allow-list (the allow-list path counts exactly).
    let count = 0;
    if (nodes.length <= Math.max(exactBelow, SMALL_SET)) {
      for (const node of nodes) count += scope.vectorKeys(node.key).length;
    } else {
      count = Math.round((nodes.length * scope.vectorCount) / Math.max(1, scope.nodes.length));
    }
    if (!queryVector || count === 0 || k === 0) return best;
    const take = (hits: readonly SearchHit[]) => {
      for (const hit of hits) {
        const nodeKey = sources.vectorKeyToNodeKey(hit.key);
        if (nodeKey === undefined || !admits(nodeKey)) continue;
        const similarity = toSimilarity(hit.distance);
        const seen = best.get(nodeKey);
        if (seen === undefined || similarity > seen) best.set(nodeKey, similarity);
      }
    };
    const vectors = sources.vectors;
    const exact = count <= exactBelow;
    const wanted = exact ? count : Math.min(k, count);
    // Most of the index allowed: search all of it, oversampled by the share that is not, and drop
    // the rest. An allow-list that long costs more to pass and sort than the search itself.
    if (!exact && count * 2 >= vectors.size) {
      const hits = searchAll(queryVector, Math.min(vectors.size, Math.ceil((wanted * vectors.size) / count)));
      const admitted = hits.filter((hit) => admits(sources.vectorKeyToNodeKey(hit.key) ?? -1));
      if (admitted.length >= wanted) {
        take(admitted.slice(0, wanted));
        return best;
      }
    }
    const keys: number[] = [];
    for (const node of nodes) for (const key of scope.vectorKeys(node.key)) keys.push(key);
    if (keys.length === 0) return best;
    take(
      vectors.search(queryVector, Math.min(wanted, keys.length), {
        allow: keys,
        ...(exact ? { exactBelow: keys.length } : {}),
      }),
    );
    return best;
  };
  const keySet = (nodes: readonly NodeRecord[]): ((nodeKey: number) => boolean) => {
    const keys = new Set(nodes.map((node) => node.key));
    return (nodeKey) => keys.has(nodeKey);
  };

  // The references: one per kind of node (directories are long, or summaries, and score unlike
  // files on both sides), or one for all nodes together.
  const kinds: readonly NodeKind[] = ['dir', 'file'];
  const groups: {
    kinds: readonly NodeKind[];
    nodes: readonly NodeRecord[];
    admits: (key: number) => boolean;
  }[] = settings.byKind
    ? kinds.map((kind) => ({
        kinds: [kind],
        nodes: scope.nodes.filter((node) => node.kind === kind),
        admits: (key: number) => scope.byKey.get(key)?.kind === kind,
      }))
    : [{ kinds, nodes: scope.nodes, admits: (key: number) => scope.byKey.has(key) }];
  const fuserOf = {} as Record<NodeKind, Fuser>;
  for (const group of groups) {
    const found = vectorSearch(group.nodes, group.admits, settings.candidates * CHUNK_OVERSAMPLE);
    const vectorTop = [...found.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, settings.candidates);
    // RRF ranks every match; the blends only need the references.
    const lexicalTop = lexicalBest(
      settings.method === 'rrf' ? lexicalHits.length : settings.candidates,
      // Every match is in scope already: only a group of one kind filters.
      settings.byKind ? group.admits : undefined,
    );
    const fuser = createFuser(settings, {
      lexical: lexicalTop.slice(0, settings.candidates).map((key) => bm25(key)),
      vector: vectorTop.map(([, similarity]) => similarity),
      // Ranks only matter to RRF, and a map of every BM25 match costs a few ms a query.
      lexicalRank: settings.method === 'rrf' ? ranksOf(lexicalTop) : new Map(),
      vectorRank: ranksOf(vectorTop.map(([key]) => key)),
    });
    for (const kind of group.kinds) fuserOf[kind] = fuser;
  }

  const score = (nodes: readonly NodeRecord[]): ScoredNode[] => {
    // Exact below the limit (few keys: exact is faster than a graph that rejects most candidates,
    // and right); above it, a search for the best, the rest without a similarity.
    const similarity = vectorSearch(
      nodes,
      keySet(nodes),
      settings.candidates * CHUNK_OVERSAMPLE,
      settings.exactBelow,
    );
    return nodes.map((node) => {
      const raw = { lexical: bm25(node.key), vector: similarity.get(node.key) };
      return { node, raw, fused: fuserOf[node.kind].fuse(node.key, raw) };
    });
  };

  const best = (
    nodes: readonly NodeRecord[],
    count: number,
    admits?: (nodeKey: number) => boolean,
  ): ScoredNode[] => {
    if (count <= 0 || nodes.length === 0) return [];
    const allowed = admits ?? keySet(nodes);
    const picked = new Set<number>(lexicalBest(count, allowed));
    const vectorHits = vectorSearch(nodes, allowed, count * CHUNK_OVERSAMPLE);
    for (const key of vectorHits.keys()) picked.add(key);
    const candidates = [...picked].map((key) => scope.byKey.get(key)!).filter(Boolean);
    return score(candidates)
      .sort((a, b) => b.fused - a.fused || a.node.key - b.node.key)
      .slice(0, count);
  };

  return { fuser: fuserOf, best, score };
}
