// context() in bench:rag (docs/guide/context.md): each question's block at 1,000, 2,000 and 4,000 tokens,
// scored with check_recall over the parts' texts, beside the baseline of the same ranked hits (find()
// top 10, read as OpenViking reads them) joined and cut at the same number of o200k_base tokens.
// Latency: context() less the time spent embedding the query (embedded beforehand).
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { defaultCandidates } from '../../src/assemble/assemble.js';
import type { MatchedContext } from '../../src/retrieve/results.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { quantile, round } from '../lib/stats.js';
import { type Retrieved, recallIn, retrieved } from './check-recall.js';
import type { RagQuestion } from './dataset.js';
import type { Subject } from './measure.js';

export const contextBudgets = [1000, 2000, 4000] as const;

/** One budget's figures, means over the questions. */
export interface ContextRow {
  tokens: number;
  /** Recall of the evidence in the block's parts. */
  recall: number;
  /** Recall of the top hits joined and cut at `tokens` tokens. */
  cutRecall: number;
  /** Tokens of the block (≤ `tokens`), and its parts, by layer (`excerpts`: of L2, in `L2`). */
  usedTokens: number;
  parts: number;
  layers: { L2: number; L1: number; L0: number; excerpts: number };
  /** Blocks over the budget: must be 0. */
  overBudget: number;
  p50Ms: number;
  p95Ms: number;
}

export interface ContextResult {
  /** Hits considered by context() and cut for the baseline. */
  candidates: number;
  tokenizer: string;
  rows: ContextRow[];
}

/** The hits' texts joined with spaces in rank order, cut at `budget` tokens, prepared for matching. */
function cutAtTokens(parts: readonly Retrieved[], budget: number): Retrieved {
  const joined = parts.map((part) => part.combined).join(' ');
  const tokens = encode(joined, { disallowedSpecial: new Set() });
  return retrieved([tokens.length <= budget ? joined : decode(tokens.slice(0, budget))]);
}

export async function measureContext(
  subject: Subject,
  questions: readonly RagQuestion[],
  read: (hit: MatchedContext) => Promise<Retrieved>,
): Promise<ContextResult> {
  const { longship } = subject;
  const targetUri = 'viking://resources';
  // The tokenizer loads on the first call: not a question's time.
  await longship.context('warm up', { budget: { tokens: 10 }, targetUri });
  const rows: ContextRow[] = [];
  for (const budget of contextBudgets) {
    const scored: { recall: number; cut: number; used: number; parts: number; ms: number }[] = [];
    const layers = { L2: 0, L1: 0, L0: 0, excerpts: 0 };
    let overBudget = 0;
    for (const question of questions) {
      const embedBefore = subject.embedMs();
      const started = performance.now();
      const result = await longship.context(question.question, { budget: { tokens: budget }, targetUri });
      const ms = performance.now() - started - (subject.embedMs() - embedBefore);
      const hits = (await longship.find(question.question, { limit: defaultCandidates, targetUri }))
        .resources;
      const cut = cutAtTokens(await Promise.all(hits.map(read)), budget);
      for (const part of result.parts) {
        layers[part.layer]++;
        if (part.excerpt) layers.excerpts++;
      }
      if (result.tokens > budget) overBudget++;
      scored.push({
        recall: recallIn(retrieved(result.parts.map((part) => part.text)), question.evidence),
        cut: recallIn(cut, question.evidence),
        used: result.tokens,
        parts: result.parts.length,
        ms,
      });
    }
    const mean = (pick: (s: (typeof scored)[number]) => number) =>
      scored.length === 0 ? 0 : scored.reduce((sum, s) => sum + pick(s), 0) / scored.length;
    const n = Math.max(1, scored.length);
    const r = (x: number, digits: number) => round(x, digits) ?? 0;
    const ms = scored.map((s) => s.ms);
    rows.push({
      tokens: budget,
      recall: r(
        mean((s) => s.recall),
        4,
      ),
      cutRecall: r(
        mean((s) => s.cut),
        4,
      ),
      usedTokens: Math.round(mean((s) => s.used)),
      parts: r(
        mean((s) => s.parts),
        2,
      ),
      layers: {
        L2: r(layers.L2 / n, 2),
        L1: r(layers.L1 / n, 2),
        L0: r(layers.L0 / n, 2),
        excerpts: r(layers.excerpts / n, 2),
      },
      overBudget,
      p50Ms: r(quantile(ms, 0.5), 2),
      p95Ms: r(quantile(ms, 0.95), 2),
    });
  }
  return { candidates: defaultCandidates, tokenizer: 'o200k_base', rows };
}

/** The report's section on context(). */
export function renderContext(result: ContextResult): string[] {
  return [
    `context() at three budgets: recall of the evidence in its block, beside the same top ${result.candidates} ` +
      `hits joined in rank order and cut at the same number of ${result.tokenizer} tokens. The block's count ` +
      "includes its framing (tags and URIs); recall reads the parts' texts. Latency: context() less the query embedding.",
    '',
    markdownTable(
      [
        'tokens',
        'context() recall',
        'cut recall',
        'tokens used',
        'parts',
        'L2 (excerpts) / L1 / L0',
        'over budget',
        'p50 ms',
        'p95 ms',
      ],
      result.rows.map((row) => [
        String(row.tokens),
        cell(row.recall, 3),
        cell(row.cutRecall, 3),
        String(row.usedTokens),
        cell(row.parts, 1),
        `${cell(row.layers.L2, 1)} (${cell(row.layers.excerpts, 1)}) / ${cell(row.layers.L1, 1)} / ${cell(row.layers.L0, 1)}`,
        String(row.overBudget),
        cell(row.p50Ms, 1),
        cell(row.p95Ms, 1),
      ]),
    ),
    '',
  ];
}
