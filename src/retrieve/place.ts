// What a directory's place says about a query: the names and titles on its path from the scope's
// roots down to it (a filing's `3M_2018_10K.md`, a syllabus's file name, `Part II › Item 8`),
// matched term by term and weighted by how rare each term is among the scope's directories. A
// passage rarely repeats what its ancestors say (a cash-flow table never names its company and
// year), so the walk and the flat search both lend a node part of its directory's place score
// (docs/guide/retrieval.md, "Where a node sits").
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

/** The name (its extension and separators dropped) and the recorded title of a node. */
function ownWords(node: NodeRecord): string {
  const name = node.name.replace(/\.[A-Za-z0-9]{1,8}$/, '').replace(/[_.]+/g, ' ');
  const title = typeof node.meta.title === 'string' ? node.meta.title : '';
  return `${name} ${title}`;
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
 * Each directory's place score for `query`, in [0, 1]: the summed inverse document frequency (as
 * BM25's) of the query terms on its path, over the best directory's. Directories that match no
 * term are absent (0).
 *
 * @example
 * placeScores(placeIndex(scope), 'FY2018 capital expenditure for 3M').get('viking://resources/pdfs/3M_2018_10K.md'); // 1
 */
export function placeScores(index: PlaceIndex, query: string): Map<string, number> {
  const { directories, byTerm } = index;
  const scores = new Map<string, number>();
  const n = directories.size;
  for (const term of new Set(analyze(query))) {
    const holders = byTerm.get(term);
    if (!holders) continue;
    const idf = Math.log(1 + (n - holders.length + 0.5) / (holders.length + 0.5));
    for (const uri of holders) scores.set(uri, (scores.get(uri) ?? 0) + idf);
  }
  let best = 0;
  for (const score of scores.values()) best = Math.max(best, score);
  if (best > 0) for (const [uri, score] of scores) scores.set(uri, score / best);
  return scores;
}
