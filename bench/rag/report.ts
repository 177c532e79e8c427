// The JSON and markdown of one dataset's `npm run bench:rag` run.
import { halves } from '../lib/halves.js';
import type { MachineFigures } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { type ContextResult, renderContext } from './context-measure.js';
import { type Grouping, groupCount } from './halves.js';
import { budgets, type ConfigResult } from './measure.js';

/** OpenViking's published top-5 recall (benchmark/RAG/README.md), on its own samples. */
export const published: Record<string, { recall5: number; questions: number; dataset: string }> = {
  syllabusqa: { recall5: 0.675, questions: 90, dataset: 'SyllabusQA' },
  financebench: { recall5: 0.694, questions: 12, dataset: 'FinanceBench' },
  realtalk: { recall5: 0.592, questions: 80, dataset: 'LoCoMo (not REALTALK)' },
};

export interface RagReport {
  dataset: string;
  documents: number;
  questions: { measured: number; total: number; sampleSeed: number | null };
  /** Recall of each question's whole gold document: what no retrieval can beat. */
  ceiling: number;
  /** The same over the gold document's leaves as Longship holds them (what find() can return). */
  ceilingIndexed: number;
  published: (typeof published)[string] | null;
  index: {
    ingestSeconds: number;
    nodes: number;
    vectors: number;
    /** Characters of the files (leaves) under the dataset's folder. */
    leaves: { count: number; p50: number; p90: number; max: number };
    directories: number;
  };
  /** The tuning and the reporting half (bench/rag/halves.ts): constants are chosen on the tuning half only. */
  halves: {
    seed: number;
    by: Grouping;
    tuning: HalfSummary;
    reporting: HalfSummary;
  };
  configs: ConfigResult[];
  /** context() at token budgets (bench/rag/context-measure.ts). */
  assembly?: ContextResult;
  context: { embedder: string; machine: MachineFigures; scoring: string };
}

export interface HalfSummary {
  /** The half's groups (companies, or documents), of all the dataset's questions. */
  groups: string[];
  /** Its questions measured, and in the whole dataset. */
  measured: number;
  total: number;
  /** The ceiling over its measured questions. */
  ceiling: number;
}

export const scoring =
  "OpenViking's check_recall (benchmark/RAG/src/core/metrics.py): an evidence string counts if it is a " +
  'substring of the hits joined with spaces, or, with ≥ 4 distinct normalised tokens, if ≥ 80 % of them ' +
  "occur there. Hits are read as OpenViking reads them: a file's L2, a directory's abstract and overview. " +
  'Latency: find() with limit 5 under viking://resources, less the query embedding (embedded beforehand).';

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;

export function renderMarkdown(r: RagReport): string {
  const sample =
    r.questions.sampleSeed === null
      ? `all ${r.questions.total} questions`
      : `${r.questions.measured} of ${r.questions.total} questions (a seeded sample, seed ${r.questions.sampleSeed})`;
  const { leaves } = r.index;
  const lines = [
    `# bench:rag — ${r.dataset}`,
    '',
    `${r.documents} documents, ${sample}. Indexed in ${r.index.ingestSeconds} s: ${r.index.nodes} nodes ` +
      `(${leaves.count} files, ${r.index.directories} directories), ${r.index.vectors} vectors; file sizes ` +
      `p50 ${leaves.p50}, p90 ${leaves.p90}, max ${leaves.max} characters. Embedder ${r.context.embedder}. ` +
      `Machine: ${r.context.machine.cpu}, ${r.context.machine.cores} cores, Node ${r.context.machine.node}, ` +
      `load average ${r.context.machine.loadAverage.toFixed(1)} at the end (latency is shared-machine time).`,
    '',
    `Ceiling (recall of the whole gold document): **${cell(r.ceiling, 3)}** as written, ` +
      `${cell(r.ceilingIndexed, 3)} over its leaves as Longship holds them.` +
      (r.published
        ? ` OpenViking's published top-5 recall: ${cell(r.published.recall5, 3)} on ${r.published.dataset}, ` +
          `${r.published.questions} questions of its own sample (hits of up to ~1,000 tokens).`
        : ''),
    '',
    markdownTable(
      [
        'config',
        'R@5',
        'R@10',
        ...budgets.map((b) => `R@${b / 1000}k chars`),
        'own-doc R@5',
        'own-doc R@10',
        'chars@5',
        'dirs@5',
        'p50 ms',
        'p95 ms',
      ],
      [
        ...r.configs.map((c) => [
          c.name,
          cell(c.recall5, 3),
          cell(c.recall10, 3),
          ...budgets.map((b) => cell(c.recallAtChars[String(b)], 3)),
          cell(c.ownRecall5, 3),
          cell(c.ownRecall10, 3),
          cell(c.chars5, 0),
          pct(c.directoryShare5),
          cell(c.p50Ms, 1),
          cell(c.p95Ms, 1),
        ]),
        ...(r.published
          ? [
              [
                `OpenViking (published, ${r.published.dataset})`,
                cell(r.published.recall5, 3),
                ...Array(10).fill('—'),
              ],
            ]
          : []),
      ],
    ),
    '',
    ...halvesSection(r),
    'Recall@5 by category (questions):',
    '',
    categoryTable(r.configs),
    '',
    'Evidence strings at top 5: found (of which only in hits outside the question’s own document), and ' +
      'each miss: no hit in the right document, a hit in it but not the right section, in the document ' +
      'but not in its leaves as Longship holds them (lost in ingestion), or not in the document’s text at all.',
    '',
    markdownTable(
      [
        'config',
        'evidence',
        'found',
        'only elsewhere',
        'wrong document',
        'wrong section',
        'lost in ingestion',
        'not in text',
      ],
      r.configs.map((c) => [
        c.name,
        String(c.evidence.total),
        String(c.evidence.found),
        String(c.evidence.foundElsewhereOnly),
        String(c.evidence.wrongDocument),
        String(c.evidence.wrongSection),
        String(c.evidence.lostInIngestion),
        String(c.evidence.notInText),
      ]),
    ),
    '',
    ...(r.assembly ? renderContext(r.assembly) : []),
    `Configurations: ${r.configs.map((c) => `\`${c.name}\` = \`${JSON.stringify(c.options)}\``).join('; ')}.`,
    '',
    `Scoring: ${r.context.scoring}`,
    '',
  ];
  return lines.join('\n');
}

/** Each config's recall on the tuning half, the reporting half and all questions. */
function halvesSection(r: RagReport): string[] {
  const described = halves.map((half) => {
    const h = r.halves[half];
    return (
      `the ${half} half ${groupCount(h.groups.length, r.halves.by)}, ` +
      `${h.measured} questions (ceiling ${cell(h.ceiling, 3)})`
    );
  });
  const columns = (pick: (f: { recall5: number; recallAtChars: Record<string, number> }) => number) => [
    // A half with no questions measured has no figure (a set of one document has one half).
    ...halves.map(
      (half) => (c: ConfigResult) => (c.halves[half].questions === 0 ? '—' : cell(pick(c.halves[half]), 3)),
    ),
    (c: ConfigResult) => cell(pick(c), 3),
  ];
  const figures = [...columns((f) => f.recall5), ...columns((f) => f.recallAtChars['8000']!)];
  return [
    `Halves, by ${r.halves.by} (seed ${r.halves.seed}): ${described.join('; ')}. Constants are chosen on the ` +
      'tuning half only; a change that gains there and loses on the reporting half is not taken.',
    '',
    markdownTable(
      ['config', 'R@5 tuning', 'R@5 reporting', 'R@5 all', 'R@8k tuning', 'R@8k reporting', 'R@8k all'],
      r.configs.map((c) => [c.name, ...figures.map((figure) => figure(c))]),
    ),
    '',
    `Tuning half: ${groupList(r.halves.tuning)}. Reporting half: ${groupList(r.halves.reporting)}.`,
    '',
  ];
}

const groupList = (half: HalfSummary) => (half.groups.length === 0 ? 'none' : half.groups.join(', '));

function categoryTable(configs: ConfigResult[]): string {
  const categories = [...new Set(configs.flatMap((c) => Object.keys(c.byCategory)))].sort();
  const count = (category: string) => configs[0]?.byCategory[category]?.questions ?? 0;
  return markdownTable(
    ['config', ...categories.map((category) => `${category || '(none)'} (${count(category)})`)],
    configs.map((c) => [c.name, ...categories.map((category) => cell(c.byCategory[category]?.recall5, 3))]),
  );
}
