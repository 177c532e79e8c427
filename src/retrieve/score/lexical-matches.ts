// One query's BM25 side: every match in the scope, computed once (a node's BM25 does not depend on
// which other nodes are allowed, so every later lookup is a read by key).
import type { LexicalHit } from '../../lexical/lexical-index.js';
import type { Scope } from '../scope.js';
import type { RetrievalSources } from '../sources.js';
import { keyScores } from './key-scores.js';
import { topBy } from './top.js';

export class LexicalMatches {
  /**
   * Every match's score, unsorted: a long query matches most of a corpus, and only the order of
   * the first few hundred is ever read (see {@link LexicalMatches.best}).
   */
  readonly hits: readonly LexicalHit[];
  /** A node key's BM25 score, 0 for a node that does not match. */
  readonly score: (key: number) => number;

  constructor(sources: RetrievalSources, scope: Scope, query: string, enabled: boolean) {
    const allow = (key: number) => scope.byKey.has(key);
    this.hits =
      enabled && scope.byKey.size > 0
        ? sources.lexical.search(query, { limit: Number.POSITIVE_INFINITY, allow, sorted: false })
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
