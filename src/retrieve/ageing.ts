// The hook through which memories age in find() (docs/guide/memory-lifecycle.md): expired memories
// leave the candidates before the ranking, and decayed ones carry a lower score into it.
import type { Candidate } from './results.js';
import type { RetrievalSources } from './sources.js';

/** The candidates the sources' ageing keeps, each decayed one with its factor; how many expired. */
export function aged(
  candidates: readonly Candidate[],
  sources: Pick<RetrievalSources, 'ageing'>,
): { candidates: Candidate[]; expired: number } {
  const judge = sources.ageing?.();
  if (!judge) return { candidates: [...candidates], expired: 0 };
  const kept: Candidate[] = [];
  let expired = 0;
  for (const candidate of candidates) {
    const verdict = judge(candidate.node);
    if (verdict === 'expired') expired++;
    else if (verdict === undefined) kept.push(candidate);
    else kept.push({ ...candidate, score: candidate.score * verdict, decay: verdict });
  }
  return { candidates: kept, expired };
}
