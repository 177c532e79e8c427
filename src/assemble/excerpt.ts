/**
 * The passages of a file that bear on the query, when the whole file does not fit what is left of
 * the budget (docs/guide/context.md, "Excerpts"). Paragraphs are scored by the query's terms they hold
 * (BM25's analyzer: stemmed, stopwords out; a term rare across the file's paragraphs weighs more),
 * the best are taken while they fit, then what follows them while it fits, and they are shown in
 * the file's order with `…` where text was skipped. Cutting a long file at its start, as a plain token cut does, keeps whatever came
 * first; an excerpt keeps what the question is about.
 */
import { analyze } from '../lexical/analyzer.js';
import { countTokens, type Tokenizer } from './tokenizer.js';

/** What marks skipped text between two passages. */
export const gap = '…';
/** Paragraphs longer than this many characters are split into lines, then sentences. */
const maxParagraphChars = 1200;

/** The file's text in passages: paragraphs, with long ones split at lines and then at sentences. */
export function passagesOf(text: string): string[] {
  const passages: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const trimmed = paragraph.trim();
    if (trimmed === '') continue;
    if (trimmed.length <= maxParagraphChars) {
      passages.push(trimmed);
      continue;
    }
    for (const line of trimmed.split('\n')) {
      const pieces = line.length <= maxParagraphChars ? [line] : line.split(/(?<=[.!?])\s+/);
      for (const piece of pieces) if (piece.trim() !== '') passages.push(piece.trim());
    }
  }
  return passages;
}

/**
 * What follows a chosen passage often completes it: a caption's table, a heading's text, a
 * question's answer. The budget left goes to the passage right after each run of chosen ones, the
 * best-ranked run first, round after round while any fits. Adds to `chosen`; returns what is left.
 */
async function followOn(
  chosen: number[],
  count: number,
  left: number,
  cost: (i: number) => Promise<number>,
): Promise<number> {
  const taken = new Set(chosen);
  for (let grew = true; grew; ) {
    grew = false;
    for (const i of [...chosen]) {
      let next = i + 1;
      while (taken.has(next)) next++;
      if (next >= count) continue;
      const tokens = await cost(next);
      if (tokens > left) continue;
      chosen.push(next);
      taken.add(next);
      left -= tokens;
      grew = true;
    }
  }
  return left;
}

/**
 * The passages of `text` that hold the most of `queryTerms`, in the text's order, within `budget`
 * tokens by `tokenizer` (joined as they will be shown); `''` when no passage holds a query term
 * or none fits.
 */
export async function excerptOf(
  text: string,
  queryTerms: ReadonlySet<string>,
  budget: number,
  tokenizer: Tokenizer,
): Promise<string> {
  if (queryTerms.size === 0 || budget <= 0) return '';
  const passages = passagesOf(text);
  const terms = passages.map((passage) => new Set(analyze(passage).filter((term) => queryTerms.has(term))));
  const frequency = new Map<string, number>();
  for (const set of terms) for (const term of set) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const weight = (term: string) => Math.log(1 + passages.length / frequency.get(term)!);
  const scored = passages
    .map((_, i) => ({ i, score: [...terms[i]!].reduce((sum, term) => sum + weight(term), 0) }))
    .filter((passage) => passage.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const chosen: number[] = [];
  let left = budget;
  // +2: the newlines (or a gap line) that join a passage to its neighbours.
  const cost = async (i: number) => (await countTokens(tokenizer, passages[i]!)) + 2;
  for (const { i } of scored) {
    const tokens = await cost(i);
    if (tokens > left) continue;
    chosen.push(i);
    left -= tokens;
  }
  left = await followOn(chosen, passages.length, left, cost);
  chosen.sort((a, b) => a - b);
  const parts: string[] = [];
  chosen.forEach((i, k) => {
    if (k === 0 ? i > 0 : i > chosen[k - 1]! + 1) parts.push(gap);
    parts.push(passages[i]!);
  });
  if (chosen.length > 0 && chosen.at(-1)! < passages.length - 1) parts.push(gap);
  return parts.join('\n\n');
}
