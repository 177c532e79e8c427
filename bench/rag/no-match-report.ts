// The JSON and markdown of `npm run bench:no-match` (bench/rag/no-match.ts).
import { findDefaults } from '../../src/retrieve/settings.js';
import type { Half } from '../lib/halves.js';
import type { MachineFigures } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { round } from '../lib/stats.js';
import {
  bestThreshold,
  curve,
  type ForeignQuestion,
  halves,
  inHalf,
  meets,
  type OwnQuestion,
  type Point,
  pointAt,
  separation,
  target,
  thresholds,
} from './no-match-curves.js';
import { type WhatIf, whatIfs } from './no-match-what-if.js';

/** The threshold the README, the demo and context() use for "no good match". */
export const suggested = findDefaults.noGoodMatch;

type Side = Half | 'all';
const sides: readonly Side[] = [...halves, 'all'];

export interface MeasuredDataset {
  dataset: string;
  documents: number;
  questions: { measured: number; total: number };
  /** How many questions of each other dataset the corpus was asked. */
  foreignFrom: Record<string, number>;
  seconds: number;
  own: OwnQuestion[];
  foreign: ForeignQuestion[];
}

export interface NoMatchContext {
  embedder: string;
  machine: MachineFigures;
  sampleSeed: number;
  limitQuestions: number | null;
  foreignPerCorpus: number;
}

export interface DatasetSummary {
  dataset: string;
  documents: number;
  questions: { measured: number; total: number };
  foreignFrom: Record<string, number>;
  seconds: number;
  /** Own questions with evidence in the top 5, and foreign questions, in each half. */
  counts: Record<Side, { answered: number; foreign: number }>;
  /** The figures at findDefaults.noGoodMatch and at the chosen threshold, per half. */
  atSuggested: Record<Side, Point>;
  atChosen: Record<Side, Point>;
  /** The thresholds that meet the target on this dataset alone (tuning half), lowest and highest. */
  ownWindow: { from: number; to: number } | null;
  separation: ReturnType<typeof separation>;
  /** Every threshold's figures over all the measured questions. */
  curve: Point[];
}

export interface NoMatchReport {
  target: typeof target;
  /** The threshold chosen on the tuning halves, and whether it meets the target on every dataset there. */
  chosen: { t: number; meetsAllTuning: boolean; meetsAllReporting: boolean };
  suggested: { t: number; meetsAllTuning: boolean; meetsAllReporting: boolean };
  datasets: DatasetSummary[];
  /** Other calibrations on the same runs (bench/rag/no-match-what-if.ts): a guide, not a measurement. */
  whatIf: WhatIf[];
  context: NoMatchContext & { definitions: string };
}

const definitions =
  "kept: of a dataset's own questions whose top 5 (find() defaults, limit 5) hold some evidence by " +
  "OpenViking's check_recall (for SciFact: a relevant document), the share for which the results " +
  'scored above t still hold some of it (keptAll: all of it). dropped: of the results of other ' +
  'datasets’ questions asked of the corpus, the share scored at or under t, which scoreThreshold t ' +
  'drops (droppedQuestions: questions left with no result). t is chosen on the tuning halves ' +
  "(bench/rag/halves.ts; SciFact's claims one by one; a foreign question is in its own dataset's half).";

const r4 = (point: Point): Point => ({
  t: point.t,
  kept: round(point.kept, 4)!,
  keptAll: round(point.keptAll, 4)!,
  dropped: round(point.dropped, 4)!,
  droppedQuestions: round(point.droppedQuestions, 4)!,
});

export function summarise(measured: readonly MeasuredDataset[], context: NoMatchContext): NoMatchReport {
  const of = (m: MeasuredDataset, side: Side) =>
    side === 'all'
      ? { own: m.own, foreign: m.foreign }
      : { own: inHalf(m.own, side), foreign: inHalf(m.foreign, side) };
  const tuningCurves = measured.map((m) => curve(of(m, 'tuning').own, of(m, 'tuning').foreign));
  const chosen = bestThreshold(tuningCurves).t;
  const meetsAll = (t: number, side: Half) =>
    measured.every((m) => meets(pointAt(of(m, side).own, of(m, side).foreign, t)));
  const datasets = measured.map((m, i): DatasetSummary => {
    const at = (t: number) =>
      Object.fromEntries(
        sides.map((side) => [side, r4(pointAt(of(m, side).own, of(m, side).foreign, t))]),
      ) as Record<Side, Point>;
    const meeting = thresholds.filter((_, j) => meets(tuningCurves[i]![j]!));
    return {
      dataset: m.dataset,
      documents: m.documents,
      questions: m.questions,
      foreignFrom: m.foreignFrom,
      seconds: m.seconds,
      counts: Object.fromEntries(
        sides.map((side) => [
          side,
          {
            answered: of(m, side).own.filter((q) => q.anyAbove !== null).length,
            foreign: of(m, side).foreign.length,
          },
        ]),
      ) as Record<Side, { answered: number; foreign: number }>,
      atSuggested: at(suggested),
      atChosen: at(chosen),
      ownWindow: meeting.length === 0 ? null : { from: meeting[0]!, to: meeting.at(-1)! },
      separation: separation(m.own, m.foreign),
      curve: curve(m.own, m.foreign).map(r4),
    };
  });
  const verdict = (t: number) => ({
    t,
    meetsAllTuning: meetsAll(t, 'tuning'),
    meetsAllReporting: meetsAll(t, 'reporting'),
  });
  return {
    target,
    chosen: verdict(chosen),
    suggested: verdict(suggested),
    datasets,
    whatIf: whatIfs(measured),
    context: { ...context, definitions },
  };
}

const pct = (x: number) => `${cell(x * 100, 1)} %`;
const yes = (x: boolean) => (x ? 'yes' : 'no');

export function renderNoMatch(report: NoMatchReport): string {
  const { chosen } = report;
  const rows = report.datasets.flatMap((d) =>
    (['tuning', 'reporting'] as const).map((half) => [
      half === 'tuning'
        ? `${d.dataset} (${d.counts.all.answered} answered, ${d.counts.all.foreign} foreign)`
        : '',
      half,
      pct(d.atSuggested[half].kept),
      pct(d.atSuggested[half].dropped),
      pct(d.atChosen[half].kept),
      pct(d.atChosen[half].dropped),
      pct(d.atChosen[half].droppedQuestions),
      half === 'tuning'
        ? d.ownWindow
          ? `${cell(d.ownWindow.from, 2)}–${cell(d.ownWindow.to, 2)}`
          : 'none'
        : '',
    ]),
  );
  const table = markdownTable(
    [
      'dataset',
      'half',
      `kept at ${suggested}`,
      `dropped at ${suggested}`,
      `kept at ${cell(chosen.t, 2)}`,
      `dropped at ${cell(chosen.t, 2)}`,
      'questions emptied',
      't meeting it alone',
    ],
    rows,
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  const s = (x: { p10: number | null; p50: number | null; p90: number | null }) =>
    `${cell(x.p10, 2)} / ${cell(x.p50, 2)} / ${cell(x.p90, 2)}`;
  type Signals = DatasetSummary['separation']['own'];
  const signalRow = (dataset: string, side: string, x: Signals, evidence = '') => [
    dataset,
    side,
    cell(x.questions, 0),
    s(x.topScore),
    evidence,
    s(x.similarity),
    s(x.bm25),
    s(x.termShare),
    s(x.confidence),
  ];
  const separationTable = markdownTable(
    [
      'dataset',
      'questions',
      'n',
      'top score',
      'evidence score',
      'best similarity',
      'best BM25',
      'term share',
      'confidence',
    ],
    report.datasets.flatMap((d) => {
      const x = d.separation;
      return [
        signalRow(d.dataset, 'own, answered', x.own, s(x.ownEvidenceScore)),
        ...Object.entries(x.foreignBySource).map(([source, signals]) =>
          signalRow('', `from ${source}`, signals),
        ),
      ];
    }),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
  const names = report.datasets.map((d) => d.dataset);
  const whatIfTable = markdownTable(
    ['confidence', 't', 'meets all: tuning', 'reporting', ...names.map((n) => `${n}: kept / dropped`)],
    report.whatIf.map((w) => [
      w.name,
      cell(w.t, 2),
      yes(w.meetsAllTuning),
      yes(w.meetsAllReporting),
      ...names.map((n) => `${pct(w.reporting[n]!.kept)} / ${pct(w.reporting[n]!.dropped)}`),
    ]),
    ['l', 'r', 'l', 'l', ...names.map((): 'r' => 'r')],
  );
  return [
    '# "No good match": one scoreThreshold across datasets (`npm run bench:no-match`)',
    '',
    `Target: keep ≥ ${pct(report.target.kept)} of the answered questions, drop ≥ ${pct(report.target.dropped)} ` +
      `of the foreign results, on every dataset. Chosen on the tuning halves: t = ${cell(chosen.t, 2)} ` +
      `(the widest margin on the worst dataset; meets it on every dataset: tuning ${yes(chosen.meetsAllTuning)}, reporting ${yes(chosen.meetsAllReporting)}; ` +
      `if none does, the least shortfall). At findDefaults.noGoodMatch (${suggested}): tuning ${yes(report.suggested.meetsAllTuning)}, ` +
      `reporting ${yes(report.suggested.meetsAllReporting)}.`,
    '',
    table,
    '',
    'What separates them: p10 / p50 / p90 over all measured questions. Top score: the first result’s ' +
      '(calibrated) score; evidence score: the score a threshold must stay under to keep some evidence; ' +
      'best similarity and BM25: the best cosine and raw BM25 among the top 5; term share: the share of ' +
      'the query’s terms in the first result’s text; confidence: the calibration factor.',
    '',
    separationTable,
    '',
    'Other calibrations on the same runs (bench/rag/no-match-what-if.ts): each query’s uncalibrated ' +
      'scores scaled by another confidence from the recorded signals, t chosen on the tuning halves, ' +
      'kept / dropped on the reporting halves. A guide for the next calibration, not a measurement of it.',
    '',
    whatIfTable,
    '',
    report.context.definitions,
    '',
    `Embedder ${report.context.embedder}; own questions ${report.context.limitQuestions === null ? 'all' : `a sample of ${report.context.limitQuestions}`}, ` +
      `${report.context.foreignPerCorpus} foreign questions per corpus, seed ${report.context.sampleSeed}.`,
    '',
  ].join('\n');
}
