// What a directory's place says about a query: the names and titles on its path from the scope's
// roots down to it (a filing's `3M_2018_10K.md`, a syllabus's file name, `Part II › Item 8`),
// matched term by term and weighted by how rare each term is among the scope's directories. A
// passage rarely repeats what its ancestors say (a cash-flow table never names its company and
// year), so the walk and the flat search both lend a node part of its directory's place score
// (docs/guide/retrieval.md, "Where a node sits").
import { periodWords } from '../context/period.js';
import { analyze } from '../lexical/analyzer.js';
import type { NodeRecord } from '../store/store.js';
import type { Scope } from './scope.js';

/** A scope's directories by URI (roots included), and which directories hold a term on their path. */
export interface PlaceIndex {
  directories: Map<string, NodeRecord>;
  byTerm: Map<string, string[]>;
}

// Kept with the scope, which lives until the store changes: building it reads every directory once.
const indexes = new WeakMap<Scope, PlaceIndex>();

/**
 * The name (its extension and separators dropped), the recorded title and, for a document, what
 * its own front says it is about (`meta.identity`: entity, kind, period; docs/guide/retrieval.md,
 * "What a document is about"), so that a document is found by what it is, whatever its file's name.
 */
function ownWords(node: NodeRecord): string {
  const name = node.name.replace(/\.[A-Za-z0-9]{1,8}$/, '').replace(/[_.]+/g, ' ');
  const title = typeof node.meta.title === 'string' ? node.meta.title : '';
  const identity = typeof node.meta.identity === 'string' ? node.meta.identity : '';
  return `${name} ${title} ${identity}`;
}

/**
 * A query's place terms: its own, and the periods it names in the words documents are given for
 * theirs ("fiscal 2018" and "FY 2018" meet a filing's `FY2018`; "Q22023" its `Q2`).
 */
function queryTerms(query: string): Set<string> {
  return new Set([...analyze(query), ...analyze(periodWords(query).join(' '))]);
}

/** The terms a directory's own name and title give its place (a root's whole place: it has no parent in scope). */
export function ownTerms(node: NodeRecord): Set<string> {
  return new Set(analyze(ownWords(node)));
}

export function placeIndex(scope: Scope): PlaceIndex {
  const known = indexes.get(scope);
  if (known) return known;
  const directories = new Map<string, NodeRecord>();
  for (const node of [...scope.roots, ...scope.nodes]) {
    if (node.kind === 'dir') directories.set(node.uri, node);
  }
  const terms = new Map<string, Set<string>>();
  const termsOf = (uri: string): Set<string> => {
    const done = terms.get(uri);
    if (done) return done;
    const node = directories.get(uri)!;
    const parent = node.parent === null ? undefined : directories.get(node.parent);
    const own = new Set(parent ? termsOf(parent.uri) : []);
    for (const term of analyze(ownWords(node))) own.add(term);
    terms.set(uri, own);
    return own;
  };
  const byTerm = new Map<string, string[]>();
  for (const uri of directories.keys()) {
    for (const term of termsOf(uri)) {
      const list = byTerm.get(term);
      if (list) list.push(uri);
      else byTerm.set(term, [uri]);
    }
  }
  const index = { directories, byTerm };
  indexes.set(scope, index);
  return index;
}

/**
 * How many directories a place index holds and how many hold each of `query`'s terms on their path:
 * what a place's inverse document frequency is made of. A corpus split over shards sums its shards'.
 */
export interface PlaceStatistics {
  directories: number;
  holders: Readonly<Record<string, number>>;
}

/** The place statistics of an index for `query`'s terms. */
export function placeStatistics(index: PlaceIndex, query: string): PlaceStatistics {
  const holders: Record<string, number> = {};
  for (const term of queryTerms(query)) {
    const list = index.byTerm.get(term);
    if (list) holders[term] = list.length;
  }
  return { directories: index.directories.size, holders };
}

/**
 * Each directory's summed inverse document frequency (as BM25's) of the query terms on its path,
 * with the given statistics (the index's own by default). Directories that match no term are absent.
 */
export function placeSums(
  index: PlaceIndex,
  query: string,
  statistics: PlaceStatistics = placeStatistics(index, query),
): Map<string, number> {
  const sums = new Map<string, number>();
  const n = statistics.directories;
  for (const term of queryTerms(query)) {
    const holders = index.byTerm.get(term);
    const count = statistics.holders[term] ?? 0;
    if (!holders || count === 0) continue;
    const idf = Math.log(1 + (n - count + 0.5) / (count + 0.5));
    for (const uri of holders) sums.set(uri, (sums.get(uri) ?? 0) + idf);
  }
  return sums;
}

/**
 * Each directory's place score for `query`, in [0, 1]: its {@link placeSums} over the best
 * directory's. Directories that match no term are absent (0).
 *
 * @example
 * placeScores(placeIndex(scope), 'FY2018 capital expenditure for 3M').get('viking://resources/pdfs/3M_2018_10K.md'); // 1
 */
export function placeScores(index: PlaceIndex, query: string): Map<string, number> {
  const scores = placeSums(index, query);
  let best = 0;
  for (const score of scores.values()) best = Math.max(best, score);
  if (best > 0) for (const [uri, score] of scores) scores.set(uri, score / best);
  return scores;
}
