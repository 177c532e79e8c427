// One query's scoring: the query embedded once, its BM25 side (lexical-matches.ts) and vector side
// (vector-matches.ts), the global searches that set each side's reference, and exact scoring of any
// set of nodes.
import { LongshipError } from '../../errors.js';
import type { NodeKind, NodeRecord } from '../../store/store.js';
import type { Scope } from '../scope.js';
import type { RetrievalSources } from '../sources.js';
import { createFuser, type Fuser, type FusionSettings, type RawScores, ranksOf } from './fusion.js';
import { LexicalMatches } from './lexical-matches.js';
import { VectorMatches } from './vector-matches.js';

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
  /** Every search scans the vectors instead of walking the graph (`hybrid.exact`). */
  exactVectors: boolean;
}

/** Oversampling of vector hits: a node with several chunks takes several of the top hits. */
export const CHUNK_OVERSAMPLE = 2;

export async function createQueryScorer(
  sources: RetrievalSources,
  scope: Scope,
  query: string,
  settings: ScorerSettings,
  signal: AbortSignal | undefined,
): Promise<QueryScorer> {
  let queryVector: Float32Array | undefined;
  if (settings.useVector) {
    const [vector] = await sources.embedder.embed([query], signal ? { signal } : {});
    if (!vector) throw new LongshipError('INVALID_ARGUMENT', 'the embedder returned no vector for the query');
    queryVector = vector;
  }
  const lexical = new LexicalMatches(sources, scope, query, settings.useLexical);
  const vectors = new VectorMatches(sources, scope, queryVector, settings.exactVectors);
  const fuserOf = fusersOf(scope, settings, lexical, vectors);

  const score = (nodes: readonly NodeRecord[]): ScoredNode[] => {
    // Exact below the limit (few keys: exact is faster than a graph that rejects most candidates,
    // and right); above it, a search for the best, the rest without a similarity.
    const similarity = vectors.search(
      nodes,
      keySet(nodes),
      settings.candidates * CHUNK_OVERSAMPLE,
      settings.exactBelow,
    );
    return nodes.map((node) => {
      const raw = { lexical: lexical.score(node.key), vector: similarity.get(node.key) };
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
    const picked = new Set<number>(lexical.best(count, allowed));
    const vectorHits = vectors.search(nodes, allowed, count * CHUNK_OVERSAMPLE);
    for (const key of vectorHits.keys()) picked.add(key);
    const candidates = [...picked].map((key) => scope.byKey.get(key)!).filter(Boolean);
    return score(candidates)
      .sort((a, b) => b.fused - a.fused || a.node.key - b.node.key)
      .slice(0, count);
  };

  return { fuser: fuserOf, best, score };
}

function keySet(nodes: readonly NodeRecord[]): (nodeKey: number) => boolean {
  const keys = new Set(nodes.map((node) => node.key));
  return (nodeKey) => keys.has(nodeKey);
}

/**
 * The fusion of each kind of node, from the references the global searches set: one per kind of
 * node (directories are long, or summaries, and score unlike files on both sides), or one for all
 * nodes together.
 */
function fusersOf(
  scope: Scope,
  settings: ScorerSettings,
  lexical: LexicalMatches,
  vectors: VectorMatches,
): Record<NodeKind, Fuser> {
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
    const found = vectors.search(group.nodes, group.admits, settings.candidates * CHUNK_OVERSAMPLE);
    const vectorTop = [...found.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, settings.candidates);
    // RRF ranks every match; the blends only need the references.
    const lexicalTop = lexical.best(
      settings.method === 'rrf' ? lexical.hits.length : settings.candidates,
      // Every match is in scope already: only a group of one kind filters.
      settings.byKind ? group.admits : undefined,
    );
    const fuser = createFuser(settings, {
      lexical: lexicalTop.slice(0, settings.candidates).map((key) => lexical.score(key)),
      vector: vectorTop.map(([, similarity]) => similarity),
      // Ranks only matter to RRF, and a map of every BM25 match costs a few ms a query.
      lexicalRank: settings.method === 'rrf' ? ranksOf(lexicalTop) : new Map(),
      vectorRank: ranksOf(vectorTop.map(([key]) => key)),
    });
    for (const kind of group.kinds) fuserOf[kind] = fuser;
  }
  return fuserOf;
}
