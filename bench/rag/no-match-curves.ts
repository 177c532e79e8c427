// The figures of `npm run bench:no-match` (bench/rag/no-match.ts) from what find() returned: for a
// score threshold t, the share of answered questions that keep their evidence among the results
// scored above t, and the share of another dataset's results (and whole questions) dropped at t.
import { type Half, halves } from '../lib/halves.js';
import { quantile, round } from '../lib/stats.js';

/** A question asked of its own dataset's corpus. */
export interface OwnQuestion {
  half: Half;
  /** The top-5 scores, in find()'s order. */
  scores: number[];
  /** The same before the calibration scaled them. */
  uncalibrated: number[];
  /** The top-5 hits' check_recall. */
  recall5: number;
  /** How many of the top hits it takes to hold some evidence; null where the top 5 hold none. */
  evidenceAt: number | null;
  /** The same for all of it. */
  allEvidenceAt: number | null;
  /**
   * The lowest score a threshold must stay under for some of that evidence to remain (the score of
   * the shortest top-scored prefix holding any); null where the top 5 hold none.
   */
  anyAbove: number | null;
  /** The same for all of it (the recall of the top 5 unchanged). */
  allAbove: number | null;
  /** The best cosine similarity among the results and the query's calibration factor, from matchReason. */
  similarity: number | null;
  /** The best raw BM25 among the results, from matchReason. */
  bm25: number | null;
  confidence: number | null;
  /** The share of the query's terms in the first result's text. */
  termShare: number | null;
}

/** A question of another dataset asked of this corpus: nothing in it answers it. */
export interface ForeignQuestion {
  half: Half;
  from: string;
  scores: number[];
  uncalibrated: number[];
  similarity: number | null;
  /** The best raw BM25 among the results, from matchReason. */
  bm25: number | null;
  confidence: number | null;
  /** The share of the query's terms in the first result's text. */
  termShare: number | null;
}

export const thresholds = Array.from({ length: 101 }, (_, i) => round(i / 100, 2)!);

/** At a threshold: answered questions kept (some evidence, all of it), foreign results and questions dropped. */
export interface Point {
  t: number;
  kept: number;
  keptAll: number;
  dropped: number;
  droppedQuestions: number;
}

/** The length of the shortest prefix of `n` hits of which `holds` is true; null if none. */
export function prefixHolding(n: number, holds: (prefix: number) => boolean): number | null {
  for (let k = 1; k <= n; k++) if (holds(k)) return k;
  return null;
}

/** The figures at `t` (results at or under t are dropped, as find()'s scoreThreshold drops them). */
export function pointAt(own: readonly OwnQuestion[], foreign: readonly ForeignQuestion[], t: number): Point {
  const answered = own.filter((q) => q.anyAbove !== null);
  const share = (n: number, of: number) => (of === 0 ? 0 : n / of);
  const results = foreign.flatMap((q) => q.scores);
  return {
    t,
    kept: share(answered.filter((q) => q.anyAbove! > t).length, answered.length),
    keptAll: share(answered.filter((q) => q.allAbove! > t).length, answered.length),
    dropped: share(results.filter((s) => s <= t).length, results.length),
    droppedQuestions: share(foreign.filter((q) => Math.max(0, ...q.scores) <= t).length, foreign.length),
  };
}

export interface Target {
  kept: number;
  dropped: number;
}

/** Issue 40's target: keep ≥ 95 % of answered questions, drop ≥ 50 % of foreign results. */
export const target: Target = { kept: 0.95, dropped: 0.5 };

export const meets = (point: Point, goal: Target = target) =>
  point.kept >= goal.kept && point.dropped >= goal.dropped;

/** Each threshold's figures over one dataset's questions. */
export function curve(own: readonly OwnQuestion[], foreign: readonly ForeignQuestion[]): Point[] {
  return thresholds.map((t) => pointAt(own, foreign, t));
}

/**
 * The threshold for all datasets at once: the one with the widest margin on the worst of them, the
 * margin being how far kept is above 95 % or dropped above 50 %, whichever is less. A margin of 0 or
 * more on every dataset meets the target; a negative one is the least shortfall.
 */
export function bestThreshold(curves: readonly (readonly Point[])[], goal: Target = target) {
  let best = { t: 0, margin: Number.NEGATIVE_INFINITY };
  thresholds.forEach((t, i) => {
    const margin = Math.min(
      ...curves.map((c) => Math.min(c[i]!.kept - goal.kept, c[i]!.dropped - goal.dropped)),
    );
    if (margin > best.margin) best = { t, margin };
  });
  return { t: best.t, meetsAll: best.margin >= 0, margin: best.margin };
}

/** p10, p50, p90 of some values, rounded; nulls where there are none. */
export function spread(values: readonly (number | null)[]) {
  const present = values.filter((v): v is number => v !== null);
  const at = (q: number) => (present.length === 0 ? null : round(quantile(present, q), 3));
  return { n: present.length, p10: at(0.1), p50: at(0.5), p90: at(0.9) };
}

/** The signals of one side's questions. */
function signals(questions: readonly (OwnQuestion | ForeignQuestion)[]) {
  return {
    questions: questions.length,
    topScore: spread(questions.map((q) => Math.max(0, ...q.scores))),
    similarity: spread(questions.map((q) => q.similarity)),
    bm25: spread(questions.map((q) => q.bm25)),
    termShare: spread(questions.map((q) => q.termShare)),
    confidence: spread(questions.map((q) => q.confidence)),
  };
}

/** What separates the two sides: the answered questions' signals against the foreign ones, by source. */
export function separation(own: readonly OwnQuestion[], foreign: readonly ForeignQuestion[]) {
  const answered = own.filter((q) => q.anyAbove !== null);
  const sources = [...new Set(foreign.map((q) => q.from))];
  return {
    ownEvidenceScore: spread(answered.map((q) => q.anyAbove)),
    foreignScore: spread(foreign.flatMap((q) => q.scores)),
    own: signals(answered),
    foreign: signals(foreign),
    foreignBySource: Object.fromEntries(
      sources.map((source) => [source, signals(foreign.filter((q) => q.from === source))]),
    ),
  };
}

/** The questions of one half. */
export function inHalf<T extends { half: Half }>(questions: readonly T[], half: Half): T[] {
  return questions.filter((q) => q.half === half);
}

export { halves };
