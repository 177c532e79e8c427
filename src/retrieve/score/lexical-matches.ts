// One query's BM25 side: every match in the scope, computed once (a node's BM25 does not depend on
// which other nodes are allowed, so every later lookup is a read by key). BM25 scores with the
// statistics of the scope's documents, not the whole store's: a corpus split over shards then
// scores as one store would, its statistics summed (docs/guide/retrieval.md, "Hybrid scoring").
import type { CorpusStatistics, LexicalHit, LexicalIndex } from '../../lexical/lexical-index.js';
import type { Scope } from '../scope.js';
import type { RetrievalSources } from '../sources.js';
import { topBy } from './top.js';

export class LexicalMatches {
  /**
   * Every match's score, unsorted: a long query matches most of a corpus, and only the order of
   * the first few hundred is ever read (see {@link LexicalMatches.best}).
   */
  readonly hits: readonly LexicalHit[];
  /** A node key's BM25 score, 0 for a node that does not match. */
  readonly score: (key: number) => number;

  constructor(
    sources: RetrievalSources,
    scope: Scope,
    query: string,
    enabled: boolean,
    /** The corpus's statistics when the scope is part of one (a shard's); else the scope's own. */
    statistics?: CorpusStatistics,
  ) {
    const allow = (key: number) => scope.byKey.has(key);
    const lexical = sources.lexical;
    const searching = enabled && scope.byKey.size > 0;
    const stats = statistics ?? (searching ? scopeStatistics(lexical, scope, query) : undefined);
    this.hits = searching
      ? lexical.search(query, {
          limit: Number.POSITIVE_INFINITY,
          allow,
          sorted: false,
          ...(stats ? { statistics: stats } : {}),
        })
      : [];
    this.score = keyScores(this.hits);
  }

  /** The keys of the best `count` matches that `admits` allows, best first (ties: lower key). */
  best(count: number, admits?: (key: number) => boolean): number[] {
    const hits = this.hits;
    // A selection keeps a few (asking `admits` only about contenders); asked for many (RRF ranks
    // them all), a sort is cheaper.
    const best =
      count * 8 >= hits.length
        ? (admits ? hits.filter((hit) => admits(hit.key)) : [...hits])
            .sort((a, b) => b.score - a.score || a.key - b.key)
            .slice(0, count)
        : topBy(
            hits,
            count,
            (a, b) => a.score > b.score || (a.score === b.score && a.key < b.key),
            admits && ((hit) => admits(hit.key)),
          );
    return best.map((hit) => hit.key);
  }
}

// A query's BM25 score per node key. A long query matches thousands of nodes, and filling a Map
// with them took 3–5 ms of an ObliQA query (most of it); keys come from one counter, so when the
// matches are dense in their key range an array indexed by key is filled ~30× faster.

/** An array is used while it has at most this many slots per match (plus a small floor). */
const SLOTS_PER_HIT = 16;
const FLOOR = 1 << 16;

/** The score of each hit's key, 0 for a key without one. */
export function keyScores(hits: readonly LexicalHit[]): (key: number) => number {
  let max = -1;
  for (const hit of hits) if (hit.key > max) max = hit.key;
  if (max < hits.length * SLOTS_PER_HIT + FLOOR) {
    const byKey = new Float64Array(max + 1);
    for (const hit of hits) byKey[hit.key] = hit.score;
    return (key) => (key <= max ? byKey[key]! : 0);
  }
  const byKey = new Map<number, number>();
  for (const hit of hits) byKey.set(hit.key, hit.score);
  return (key) => byKey.get(key) ?? 0;
}

// A scope's document count and length, kept with it (it lives until the store changes) for the
// index they were counted in: counting reads every document.
const totalsByScope = new WeakMap<
  Scope,
  { index: object; totals: Pick<CorpusStatistics, 'documents' | 'length'> }
>();

/**
 * The statistics of the scope's documents for `query`'s terms, or undefined for an index that
 * cannot give them (it then scores with its own).
 */
export function scopeStatistics(
  lexical: Pick<LexicalIndex, 'statistics'>,
  scope: Scope,
  query: string,
): CorpusStatistics | undefined {
  if (!lexical.statistics) return undefined;
  const allow = (key: number) => scope.byKey.has(key);
  const held = totalsByScope.get(scope);
  const stats = lexical.statistics(query, allow, held?.index === lexical ? held.totals : undefined);
  if (held?.index !== lexical) {
    totalsByScope.set(scope, {
      index: lexical,
      totals: { documents: stats.documents, length: stats.length },
    });
  }
  return stats;
}
