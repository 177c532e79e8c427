// Where the hierarchy enters a score (docs/guide/retrieval.md, "Where a node sits"): a node keeps `α` of
// its own fused score and takes the rest from its directory, whose score is what its place says
// (place.ts) blended with its best content. The best content is the best fused score of a file
// below it among the candidates, so a directory can lift its children but never sink the best of
// them below what a directory that holds nothing better would give: the file that is plainly the
// best match in a poorly named directory still carries that directory's share at its own score.
import { type PlaceIndex, placeIndex, placeScores } from './place.js';
import type { Candidate } from './results.js';
import type { Scope } from './scope.js';
import type { Settings } from './settings.js';

/**
 * The candidates rescored: `α · fused + (1 − α) · directory`. A node whose parent is outside the
 * scope (a root) keeps its fused score, as every node does at α 1.
 *
 * @example
 * const rescored = propagate(outcome.candidates, scope, 'FY2018 capex for 3M', settings);
 */
export function propagate(
  candidates: readonly Candidate[],
  scope: Scope,
  query: string,
  settings: Pick<Settings, 'alpha' | 'placeWeight'>,
): Candidate[] {
  const { alpha, placeWeight } = settings;
  // The flat search: nothing to take from directories, so no place index to build.
  if (alpha === 1) return candidates.map((candidate) => ({ ...candidate, score: candidate.fused }));
  const index = placeIndex(scope);
  const place = placeScores(index, query);
  const best = bestBelow(candidates, index);
  const rescored: Candidate[] = [];
  for (const candidate of candidates) {
    const parent = candidate.node.parent;
    let score = candidate.fused;
    let via: Candidate['via'];
    if (parent !== null && index.directories.has(parent)) {
      const directory = placeWeight * (place.get(parent) ?? 0) + (1 - placeWeight) * (best.get(parent) ?? 0);
      score = alpha * candidate.fused + (1 - alpha) * directory;
      via = { uri: parent, score: directory };
    }
    rescored.push({ ...candidate, score, ...(via ? { via } : {}) });
  }
  return rescored;
}

/** The best fused score of a file candidate below each directory. */
function bestBelow(candidates: readonly Candidate[], index: PlaceIndex): Map<string, number> {
  const best = new Map<string, number>();
  for (const { node, fused } of candidates) {
    if (node.kind !== 'file') continue;
    let uri = node.parent;
    while (uri !== null) {
      const directory = index.directories.get(uri);
      if (!directory || (best.get(uri) ?? -1) >= fused) break;
      best.set(uri, fused);
      uri = directory.parent;
    }
  }
  return best;
}
