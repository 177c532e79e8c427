// QUICK mode: one flat search over every node in scope. BM25's best and the vector index's best
// (a filtered search restricted to the scope's vector keys, best chunk per node) are pooled, each
// scored exactly on both sides and fused; those above the threshold are the candidates.
import { type FindFilter, filterPredicate } from './scope.js';
import type { SearchContext, SearchOutcome } from './search-context.js';
import { traceScore } from './search-context.js';

export function quickSearch(context: SearchContext, filter: FindFilter | undefined): SearchOutcome {
  const { scope, scorer, settings, trace } = context;
  const matches = filterPredicate(filter);
  const eligible = scope.nodes.filter(matches);
  const admits = (key: number) => {
    const node = scope.byKey.get(key);
    return node !== undefined && matches(node);
  };
  const pool = scorer.best(eligible, Math.max(settings.candidates, settings.limit), admits);
  const candidates = [];
  for (const scored of pool) {
    const kept = scored.fused > settings.scoreThreshold;
    if (kept) candidates.push({ ...scored, score: scored.fused });
    trace?.scored.push(traceScore(scored, scored.fused, kept ? 'kept' : 'below-threshold'));
  }
  return { candidates, stop: { reason: 'flat', rounds: 0, directoriesVisited: 0 } };
}
