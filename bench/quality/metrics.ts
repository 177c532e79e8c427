// Ranking metrics as BEIR computes them (pytrec_eval): nDCG with linear gains, Recall and MRR at a
// cutoff. A document id counts once: a second copy of a relevant passage gains nothing.

/** One query's metrics, from the ranked document ids (best first) and the graded judgements. */
export function rankingMetrics(
  ranked: readonly (string | undefined)[],
  relevant: ReadonlyMap<string, number>,
): { ndcg10: number; recall10: number; recall100: number; mrr10: number } {
  const seen = new Set<string>();
  let dcg = 0;
  let found10 = 0;
  let found100 = 0;
  let mrr = 0;
  ranked.slice(0, 100).forEach((id, rank) => {
    const grade = id === undefined || seen.has(id) ? 0 : (relevant.get(id) ?? 0);
    if (grade <= 0) return;
    seen.add(id!);
    found100++;
    if (rank >= 10) return;
    found10++;
    dcg += grade / Math.log2(rank + 2);
    if (mrr === 0) mrr = 1 / (rank + 1);
  });
  const ideal = [...relevant.values()]
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, grade, rank) => sum + grade / Math.log2(rank + 2), 0);
  return {
    ndcg10: ideal > 0 ? dcg / ideal : 0,
    recall10: found10 / relevant.size,
    recall100: found100 / relevant.size,
    mrr10: mrr,
  };
}
