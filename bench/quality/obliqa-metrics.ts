// nDCG@10 and Recall@10 with binary relevance; each relevant passage counts once (ObliQA lists a
// few passages twice under the same ID, and both copies are files of their own here).
import type { FindResult } from '../../src/retrieve/retriever.js';
import type { Question } from './obliqa-data.js';

export interface Measured {
  ndcg10: number;
  recall10: number;
  /** THINKING: the share of questions for which the walk scored at least one relevant passage. */
  goldScored: number | null;
  msPerQuery: number;
  questions: number;
}

const discount = (rank: number) => 1 / Math.log2(rank + 2);

export async function evaluate(
  questions: readonly Question[],
  goldOf: ReadonlyMap<string, string | undefined>,
  search: (query: string, trace: boolean) => Promise<FindResult>,
  options: { traceGold: boolean },
): Promise<Measured> {
  let ndcg = 0;
  let recall = 0;
  let scored = 0;
  let elapsed = 0;
  for (const question of questions) {
    const gold = new Set(question.gold);
    const started = performance.now();
    const result = await search(question.text, options.traceGold);
    elapsed += performance.now() - started;
    const found = new Set<string>();
    let dcg = 0;
    result.resources.slice(0, 10).forEach((item, rank) => {
      const key = goldOf.get(item.uri);
      if (key !== undefined && gold.has(key) && !found.has(key)) {
        found.add(key);
        dcg += discount(rank);
      }
    });
    let ideal = 0;
    for (let rank = 0; rank < Math.min(gold.size, 10); rank++) ideal += discount(rank);
    ndcg += dcg / ideal;
    recall += found.size / gold.size;
    if (options.traceGold && result.trace) {
      const seen = result.trace.steps.some((step) =>
        step.children.some((child) => gold.has(goldOf.get(child.uri) ?? '')),
      );
      if (seen) scored++;
    }
  }
  const n = questions.length;
  return {
    ndcg10: ndcg / n,
    recall10: recall / n,
    goldScored: options.traceGold ? scored / n : null,
    msPerQuery: elapsed / n,
    questions: n,
  };
}
