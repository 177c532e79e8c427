// A result's score, taken apart into steps a newcomer can read: how well its words matched, how
// close its meaning is, the blend of both, its folder's share, recent use and the search's
// confidence, ending on the number the result list shows. The steps come from the result's
// `matchReason` (docs/guide/retrieval.md, "What a score means"), the one place that records them all.
import type { FindTrace } from '../../src/retrieve/trace.js';

export interface ScoreParts {
  /** BM25, as found; and scaled to [0, 1] the way the blend used it (minmax only). */
  words: { raw: number; scaled?: number };
  /** Similarity of the best passage (1 − cosine distance), and scaled like `words`. */
  meaning?: { raw: number; scaled?: number };
  /** Both sides blended. */
  blended: number;
  /** The folder the result takes a share of: its score, and the result's score after. */
  folder?: { uri: string; score: number; after: number };
  hotness?: { value: number; after: number };
  confidence?: { value: number; after: number };
  /** The score the result list shows. */
  final: number;
}

const num = String.raw`(-?[\d.]+(?:e-?\d+)?)`;
const patterns = {
  sides: new RegExp(`^bm25 ${num}(?:, similarity ${num})? → fused ${num}`),
  folder: new RegExp(String.raw`; under (\S+) \(${num}\) → ${num}`),
  hotness: new RegExp(`; hotness ${num} → ${num}`),
  confidence: new RegExp(`; confidence ${num} → ${num}`),
};

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * The parts of one result's score, or undefined when its `matchReason` is not in the form
 * `src/retrieve/results.ts` writes. `final` is the list's score itself, so the two always agree.
 */
export function scoreParts(
  reason: string,
  final: number,
  isLeaf: boolean,
  fusion: FindTrace['fusion'],
): ScoreParts | undefined {
  const sides = patterns.sides.exec(reason);
  if (!sides) return undefined;
  const reference = fusion[isLeaf ? 'file' : 'dir'];
  const minmax = fusion.method === 'minmax';
  const lexical = Number(sides[1]);
  const parts: ScoreParts = {
    words: { raw: lexical },
    blended: Number(sides[3]),
    final,
  };
  const [, lexHi] = reference.lexical;
  if (minmax) parts.words.scaled = lexHi > 0 ? clamp01(lexical / lexHi) : 0;
  if (sides[2] !== undefined) {
    const similarity = Number(sides[2]);
    const [lo, hi] = reference.vector;
    parts.meaning = { raw: similarity };
    if (minmax && hi - lo > 1e-9) parts.meaning.scaled = clamp01((similarity - lo) / (hi - lo));
  }
  const folder = patterns.folder.exec(reason);
  if (folder) parts.folder = { uri: folder[1]!, score: Number(folder[2]), after: Number(folder[3]) };
  const hotness = patterns.hotness.exec(reason);
  if (hotness) parts.hotness = { value: Number(hotness[1]), after: Number(hotness[2]) };
  const confidence = patterns.confidence.exec(reason);
  if (confidence) parts.confidence = { value: Number(confidence[1]), after: Number(confidence[2]) };
  return parts;
}
