// Scores that mean the same across queries (docs/guide/retrieval.md, "What a score means"). Fusion
// normalises each side against the query's own best matches, so the best hit of any query scores
// near 1, however poor it is. The calibration scales a query's scores by how good its best hit is
// in absolute terms: the cosine similarity of its best-matching chunk, mapped from what the
// embedder gives unrelated text (0) to what it gives a relevant passage (1), or, for a query the
// embedder reads poorly (an error code), the share of the query's terms the hit contains. The
// order of a query's results never changes; a `scoreThreshold` can then say "no good match".
import { analyze } from '../lexical/analyzer.js';
import type { Ranked } from './results.js';
import type { Calibration } from './settings.js';
import type { RetrievalSources } from './sources.js';

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * How good the best of `ranked` is, in [0, 1]: the mapped similarity of the best similarity among
 * them, or the share of the query's terms in the first result's text, whichever is higher. The
 * term share counts from one half: a hit that has half of a long question's words is common.
 *
 * @example
 * const confidence = await confidenceOf(sources, 'what does the user like?', ranked, findDefaults.calibration);
 */
export async function confidenceOf(
  sources: RetrievalSources,
  query: string,
  ranked: readonly Ranked[],
  calibration: Calibration,
): Promise<number> {
  const first = ranked[0];
  if (!first) return 0;
  let similarity = Number.NEGATIVE_INFINITY;
  for (const item of ranked)
    if (item.raw.vector !== undefined) similarity = Math.max(similarity, item.raw.vector);
  const span = calibration.related - calibration.unrelated;
  const semantic =
    similarity === Number.NEGATIVE_INFINITY ? 0 : clamp01((similarity - calibration.unrelated) / span);
  if (semantic >= 1) return 1;
  const terms = new Set(analyze(query));
  if (terms.size === 0) return semantic;
  const node = await sources.store.node(first.node.uri);
  const title = typeof node?.meta.title === 'string' ? node.meta.title : '';
  const words = new Set(
    analyze(`${node?.name ?? ''} ${title} ${node?.l0 ?? ''} ${node?.l2 ?? node?.l1 ?? ''}`),
  );
  let found = 0;
  for (const term of terms) if (words.has(term)) found++;
  const lexical = clamp01((found / terms.size - 0.5) / 0.5);
  return Math.max(semantic, lexical);
}

/**
 * The ranked items with their final scores scaled by `confidence`, those at or under a threshold
 * above 0 dropped: at the default 0, a query without a good match still gets its best tries,
 * scored 0 when they are no better than unrelated text. The order stays.
 */
export function calibrated(ranked: readonly Ranked[], confidence: number, threshold: number): Ranked[] {
  const scaled = ranked.map((item) => ({ ...item, confidence, final: item.final * confidence }));
  return threshold > 0 ? scaled.filter((item) => item.final > threshold) : scaled;
}
