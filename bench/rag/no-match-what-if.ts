// What other calibrations would have done on the same runs (`npm run bench:no-match`): each scales a
// query's uncalibrated scores by its own confidence, computed from the signals recorded (the best
// cosine similarity among the top 5 and the share of the query's terms in the first result's text),
// and its threshold is chosen on the tuning halves like the measured one. A guide for the next change
// to the calibration (docs/guide/retrieval.md, "What a score means"), not a measurement of it: the
// term share here is counted over the text as read, close to but not the calibration's own count.
import type { Half } from '../lib/halves.js';
import { round } from '../lib/stats.js';
import {
  bestThreshold,
  curve,
  type ForeignQuestion,
  inHalf,
  meets,
  type OwnQuestion,
  type Point,
  pointAt,
} from './no-match-curves.js';

interface Signals {
  similarity: number | null;
  termShare: number | null;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
/** The bundled model's mapping: 0.3 unrelated, 0.6 related. */
const semantic = (q: Signals) => (q.similarity === null ? 0 : clamp01((q.similarity - 0.3) / 0.3));
const lexical = (q: Signals) => (q.termShare === null ? 0 : clamp01((q.termShare - 0.5) / 0.5));
const share = (q: Signals) => q.termShare ?? 0;

/** The confidences tried, by name. */
export const alternatives: Record<string, (q: Signals) => number> = {
  '√(similarity × max(term share, 0.2)) (today’s, recomputed)': (q) =>
    Math.sqrt(semantic(q) * Math.max(share(q), 0.2)),
  '√(similarity × term share)': (q) => Math.sqrt(semantic(q) * share(q)),
  '√(similarity × max(term share, 0.3))': (q) => Math.sqrt(semantic(q) * Math.max(share(q), 0.3)),
  'max(similarity, term share) (before issue 40)': (q) => Math.max(semantic(q), lexical(q)),
  'similarity alone': semantic,
  'similarity × term share': (q) => semantic(q) * share(q),
  'min(similarity, term share / 0.6)': (q) => Math.min(semantic(q), clamp01(share(q) / 0.6)),
};

/** The questions rescored with `confidence`. */
function rescored<T extends OwnQuestion | ForeignQuestion>(
  questions: readonly T[],
  confidence: (q: Signals) => number,
): T[] {
  return questions.map((q) => {
    const c = confidence(q);
    const scores = q.uncalibrated.map((s) => s * c);
    if (!('evidenceAt' in q)) return { ...q, scores };
    const at = (k: number | null) => (k === null ? null : scores[k - 1]!);
    return { ...q, scores, anyAbove: at(q.evidenceAt), allAbove: at(q.allEvidenceAt) };
  });
}

export interface WhatIf {
  name: string;
  t: number;
  meetsAllTuning: boolean;
  meetsAllReporting: boolean;
  /** Kept and dropped at t on each dataset's reporting half. */
  reporting: Record<string, { kept: number; dropped: number }>;
}

/** Each alternative's threshold (chosen on the tuning halves) and its figures on the reporting halves. */
export function whatIfs(
  measured: readonly { dataset: string; own: OwnQuestion[]; foreign: ForeignQuestion[] }[],
): WhatIf[] {
  return Object.entries(alternatives).map(([name, confidence]) => {
    const sets = measured.map((m) => ({
      dataset: m.dataset,
      own: rescored(m.own, confidence),
      foreign: rescored(m.foreign, confidence),
    }));
    const on = (half: Half, t: number) =>
      sets.map((m) => ({
        dataset: m.dataset,
        point: pointAt(inHalf(m.own, half), inHalf(m.foreign, half), t),
      }));
    const { t } = bestThreshold(sets.map((m) => curve(inHalf(m.own, 'tuning'), inHalf(m.foreign, 'tuning'))));
    const all = (points: { point: Point }[]) => points.every(({ point }) => meets(point));
    return {
      name,
      t,
      meetsAllTuning: all(on('tuning', t)),
      meetsAllReporting: all(on('reporting', t)),
      reporting: Object.fromEntries(
        on('reporting', t).map(({ dataset, point }) => [
          dataset,
          { kept: round(point.kept, 4)!, dropped: round(point.dropped, 4)! },
        ]),
      ),
    };
  });
}
