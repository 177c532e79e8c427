// The corpus's statistics from its shards': BM25's and the places' counts add up over disjoint
// parts. The roots are in every shard: each is counted once, by its URI.
import type { CorpusStatistics } from '../lexical/lexical-index.js';
import type { PlaceStatistics } from '../retrieve/place.js';
import type { ShardStatistics } from './shard-protocol.js';

/**
 * The sums of the shards' statistics.
 *
 * @example
 * const { lexical, place } = sumStatistics([a, b]); // lexical.documents === a.lexical.documents + b.lexical.documents
 */
export function sumStatistics(parts: readonly ShardStatistics[]): {
  lexical: CorpusStatistics;
  place: PlaceStatistics;
} {
  const terms: Record<string, number> = {};
  const holders: Record<string, number> = {};
  const roots = new Map<string, readonly string[]>();
  let documents = 0;
  let length = 0;
  let directories = 0;
  for (const part of parts) {
    documents += part.lexical.documents;
    length += part.lexical.length;
    add(terms, part.lexical.terms);
    directories += part.place.directories;
    add(holders, part.place.holders);
    for (const [uri, held] of Object.entries(part.roots)) roots.set(uri, held);
  }
  for (const held of roots.values()) for (const term of held) holders[term] = (holders[term] ?? 0) + 1;
  return {
    lexical: { documents, length, terms },
    place: { directories: directories + roots.size, holders },
  };
}

function add(into: Record<string, number>, counts: Readonly<Record<string, number>>): void {
  for (const [term, count] of Object.entries(counts)) into[term] = (into[term] ?? 0) + count;
}
