// The page's "At a glance" table: each measure's newest recorded figure (from the benchmarks'
// histories, so a partial rerun newer than its results file counts), its target, and how often the
// recorded runs met it.
import { cell, markdownTable } from '../../bench/lib/markdown.js';
import { ragSetNames, ragSets } from './benchmark-headlines.js';
import type { History } from './benchmark-history.js';
import { type Rag, readResults } from './benchmark-results.js';

/** What a row reads: the histories by id, and the results files for what no history keeps. */
export interface GlanceData {
  readonly histories: Readonly<Record<string, History>>;
  readonly root: string;
}

/** The newest recorded number of a figure; NaN where no run has one. */
function newest(data: GlanceData, id: string, key: string): number {
  const value = data.histories[id]?.runs.find((run) => typeof run.figures[key] === 'number')?.figures[key];
  return typeof value === 'number' ? value : Number.NaN;
}

/**
 * `met` or `not met` for the newest run that has the figures `ok` reads, and in how many of the
 * recorded runs that have them. `ok` answers undefined for a run without them.
 */
function verdict(data: GlanceData, id: string, ok: (figure: (key: string) => number) => boolean): string {
  const outcomes = (data.histories[id]?.runs ?? []).flatMap((run) => {
    let complete = true;
    const figure = (key: string) => {
      const value = run.figures[key];
      if (typeof value !== 'number') complete = false;
      return typeof value === 'number' ? value : Number.NaN;
    };
    const outcome = ok(figure);
    return complete ? [outcome] : [];
  });
  const word = outcomes[0] ? 'met' : 'not met';
  return outcomes.length > 1
    ? `${word}; met in ${outcomes.filter(Boolean).length} of ${outcomes.length} recorded runs`
    : word;
}

/** {@link verdict} for one figure. */
const one = (data: GlanceData, id: string, key: string, ok: (value: number) => boolean) =>
  verdict(data, id, (figure) => ok(figure(key)));

const n = (value: number, decimals: number) => cell(value, decimals);

interface Row {
  readonly measure: string;
  value(data: GlanceData): string;
  readonly target: string;
  verdict(data: GlanceData): string;
}

/** context() recall less the plain cut at 1k / 2k / 4k tokens, per RAG set. */
function contextGains(root: string): { set: (typeof ragSets)[number]; gains: number[]; p50: number[] }[] {
  return ragSets.map((set) => {
    const { assembly } = readResults<Rag>(root, `rag-${set}`);
    return {
      set,
      gains: assembly.rows.map((r) => r.recall - r.cutRecall),
      p50: assembly.rows.map((r) => r.p50Ms),
    };
  });
}

const signed = (value: number) => (value < 0 ? `−${n(-value, 3)}` : value > 0 ? `+${n(value, 3)}` : '0');

const rows: readonly Row[] = [
  {
    measure: 'vector search p50, 100k × 512 f32, ÷ hnswlib-wasm',
    value: (d) =>
      `${n(newest(d, 'index', 'searchRatio'), 2)}× (${n(newest(d, 'index', 'orderedRatio'), 2)}× after \`optimize()\`)`,
    target: '≤ 0.5×',
    verdict: (d) => one(d, 'index', 'searchRatio', (v) => v <= 0.5),
  },
  {
    measure: 'vector index build, hnswlib-wasm ÷ Longship',
    value: (d) => `${n(newest(d, 'index', 'buildRatio'), 2)}×`,
    target: '≥ 2×',
    verdict: (d) => one(d, 'index', 'buildRatio', (v) => v >= 2),
  },
  {
    measure: 'BM25 top-10 p50, SciFact',
    value: (d) =>
      `${n(newest(d, 'lexical', 'scifactP50'), 3)} ms (MiniSearch ${n(newest(d, 'lexical', 'miniSearchP50'), 1)} ms)`,
    target: '',
    verdict: () => '',
  },
  {
    measure: '`find()` nDCG@10, defaults',
    value: (d) =>
      `SciFact ${n(newest(d, 'quality-scifact', 'default'), 3)}, ObliQA ${n(newest(d, 'quality-obliqa-find', 'default'), 3)}`,
    target: 'SciFact ≥ 0.70',
    verdict: (d) => one(d, 'quality-scifact', 'default', (v) => v >= 0.7),
  },
  {
    measure: '`find()` recall@5, OpenViking’s RAG benchmark, defaults',
    value: (d) =>
      `SyllabusQA ${n(newest(d, 'rag', 'syllabusqa'), 3)}, FinanceBench ${n(newest(d, 'rag', 'financebench'), 3)}, REALTALK ${n(newest(d, 'rag', 'realtalk'), 3)}`,
    target: 'SyllabusQA ≥ 0.88, FinanceBench ≥ 0.60',
    verdict: (d) => verdict(d, 'rag', (f) => f('syllabusqa') >= 0.88 && f('financebench') >= 0.6),
  },
  {
    measure: '… at 8,000 characters',
    value: (d) =>
      `SyllabusQA ${n(newest(d, 'rag', 'syllabusqa8k'), 3)}, FinanceBench ${n(newest(d, 'rag', 'financebench8k'), 3)}`,
    target: '≥ 0.75, ≥ 0.45',
    verdict: (d) => verdict(d, 'rag', (f) => f('syllabusqa8k') >= 0.75 && f('financebench8k') >= 0.45),
  },
  {
    measure: '`context()` recall − top hits cut at the same tokens (1k / 2k / 4k)',
    value: (d) =>
      contextGains(d.root)
        .map(({ set, gains }) => `${ragSetNames[set]} ${gains.map(signed).join(' / ')}`)
        .join('; '),
    target: '≥ 0',
    verdict: (d) => {
      const short = contextGains(d.root).filter(({ gains }) => gains.some((gain) => gain < -1e-9));
      return short.length === 0 ? 'met' : `not met on ${short.map(({ set }) => ragSetNames[set]).join(', ')}`;
    },
  },
  {
    measure: '`context()` p50 less the query embedding, SyllabusQA (1k to 4k tokens)',
    value: (d) => {
      const p50 = contextGains(d.root)[0]!.p50;
      return `${n(Math.min(...p50), 1)}–${n(Math.max(...p50), 1)} ms`;
    },
    target: '≤ 25 ms',
    verdict: (d) => (Math.max(...contextGains(d.root)[0]!.p50) <= 25 ? 'met' : 'not met'),
  },
  {
    measure: '`find()` p50, ObliQA, Node',
    value: (d) => `${n(newest(d, 'quality-obliqa-find', 'p50'), 1)} ms`,
    target: '≤ 10 ms',
    verdict: (d) => one(d, 'quality-obliqa-find', 'p50', (v) => v <= 10),
  },
  {
    measure: 'reopen of a 100k store from snapshots, Node',
    value: (d) =>
      `${n(newest(d, 'store', 'reopenMemory'), 0)} ms in memory, ${n(newest(d, 'store', 'reopenIdb'), 0)} ms over fake-indexeddb`,
    target: '≤ 1 s',
    verdict: (d) => verdict(d, 'store', (f) => f('reopenIdb') <= 1000 && f('reopenMemory') <= 1000),
  },
  {
    measure: 'cold open of a 100k store to the first `find()` result, Chromium, in a running browser',
    value: (d) =>
      `${n(newest(d, 'browser', 'coldRunning'), 0)} ms (${n(newest(d, 'browser', 'coldLaunch'), 0)} ms right after its launch)`,
    target: '≤ 1 s',
    verdict: (d) => one(d, 'browser', 'coldRunning', (v) => v <= 1000),
  },
  {
    measure: 'store + index per document, share of the bundled model’s time, Chromium 100k',
    value: (d) => `${n(newest(d, 'browser', 'share'), 1)} %`,
    target: '≤ 10 %',
    verdict: (d) => one(d, 'browser', 'share', (v) => v <= 10),
  },
  {
    measure: 'ingestion end to end in Chromium, beyond the model alone',
    value: (d) => `+${n(newest(d, 'browser', 'endToEnd'), 0)} %`,
    target: '≤ 10 %',
    verdict: (d) => one(d, 'browser', 'endToEnd', (v) => v <= 10),
  },
  {
    measure: 'embedding, Chromium Worker, q8, one thread',
    value: (d) =>
      `${n(newest(d, 'embed', 'worker1'), 0)} sentences/s (${n(newest(d, 'embed', 'worker2'), 0)} on two)`,
    target: '≥ 80/s',
    verdict: (d) => one(d, 'embed', 'worker1', (v) => v >= 80),
  },
  {
    measure: '`addMessage()` p50 at 100,000 pending ÷ at 10, file store',
    value: (d) => `${n(newest(d, 'session', 'ratio'), 2)}×`,
    target: '≤ 2×',
    verdict: (d) => one(d, 'session', 'ratio', (v) => v <= 2),
  },
  {
    measure: 'reading a PDF, Node, 50-page report',
    value: (d) => `${n(newest(d, 'documents', 'pdf50'), 0)} pages/s`,
    target: '',
    verdict: () => '',
  },
  {
    measure: 'the worker’s base chunk, growth since the document readers, gzipped',
    value: (d) => `${n(newest(d, 'documents', 'baseGrowthKb'), 1)} KB`,
    target: '< 20 KB',
    verdict: (d) => one(d, 'documents', 'baseGrowthKb', (v) => v < 20),
  },
  {
    measure: 'the demo, a fresh profile to its first results, Chromium',
    value: (d) => `${n(newest(d, 'demo', 'firstResult'), 2)} s`,
    target: '≤ 3 s',
    verdict: (d) => one(d, 'demo', 'firstResult', (v) => v <= 3),
  },
  {
    measure: 'the demo, a reload to its results',
    value: (d) => `${n(newest(d, 'demo', 'reload'), 2)} s`,
    target: '≤ 1.5 s',
    verdict: (d) => one(d, 'demo', 'reload', (v) => v <= 1.5),
  },
  {
    measure: 'the demo, 100 Markdown files indexed, cross-origin isolated ÷ as served today',
    value: (d) => `${n(newest(d, 'demo', 'ratio'), 2)}×`,
    target: '≥ 3×',
    verdict: (d) => one(d, 'demo', 'ratio', (v) => v >= 3),
  },
];

/** The table, from the newest recorded figures. */
export function glanceTable(data: GlanceData): string {
  return markdownTable(
    ['measure', 'latest', 'target', ''],
    rows.map((row) => [row.measure, row.value(data), row.target, row.verdict(data)]),
    ['l', 'r', 'r', 'l'],
  );
}
