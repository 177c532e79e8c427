// npm run bench:rag: OpenViking's RAG benchmark (its benchmark/RAG) run against Longship. Each
// dataset's folder of Markdown goes in with addResource into an in-memory Longship with the bundled
// model; each question goes through find() at viking://resources; the hits are read and scored
// with OpenViking's check_recall (bench/rag/check-recall.ts). Embeddings are cached outside the
// repository, so a rerun embeds nothing. Results: bench/results/rag-<dataset>.json and .md.
//
// Every recall figure is given for the tuning half of the questions, the reporting half and all of
// them (bench/rag/halves.ts: by company for FinanceBench, by document otherwise, seeded). Constants
// are chosen on the tuning half only; a change that gains on it and loses on the reporting half is
// not taken (docs/benchmarks.md).
//
//   npm run bench:rag                                     # syllabusqa, financebench, realtalk
//   npm run bench:rag -- --dataset financebench --configs default,thinking
//   npm run bench:rag -- --smoke --out <tmpdir>         # the fixtures in bench/rag/fixtures, in seconds
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { type Half, halves } from '../lib/halves.js';
import { measureMachine } from '../lib/machine.js';
import { shuffled } from '../lib/random.js';
import { quantile, round } from '../lib/stats.js';
import { writeReport } from '../lib/write-report.js';
import { cachedEmbedder, EmbeddingCache } from '../quality/embedding-cache.js';
import { defaultConfigs, pickConfigs } from './configs.js';
import { measureContext } from './context-measure.js';
import { loadDataset, type RagDataset } from './dataset.js';
import { ceiling, goldDocuments } from './gold.js';
import { groupCount, halfByQuestion, ragHalves } from './halves.js';
import {
  type ConfigResult,
  type HalfFigures,
  hitReader,
  measureConfig,
  type QuestionDetail,
} from './measure.js';
import { type HalfSummary, published, type RagReport, renderMarkdown, scoring } from './report.js';

const usage = `usage: npm run bench:rag -- [--dataset syllabusqa,financebench,realtalk] [--data DIR]
  [--limit-questions N] [--seed 7] [--configs ${defaultConfigs.join(',')}] [--out DIR] [--json FILE] [--smoke]
  [--max-tokens N] [--details]
  --data: the folder holding the datasets (default ../shared/eval beside the repository)
  --limit-questions: a seeded sample of N questions per dataset
  --configs: also bm25, dense (flat, one side), gold-document (only inside each question's own document)
  --out: where rag-<dataset>.json and .md go (default bench/results; with --smoke, nothing is written without it)
  --json: the JSON file to write, with its .md beside it (one dataset only)
  --smoke: the tiny fixtures in bench/rag/fixtures instead of the evaluation data
  --max-tokens: ingest with this addResource maxTokens (and mergeBelow a quarter of it), to compare leaf sizes
  --details: also write rag-<dataset>-questions.json beside the report: each question's recall and top 5`;

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string' },
    data: { type: 'string' },
    'limit-questions': { type: 'string' },
    seed: { type: 'string', default: '7' },
    configs: { type: 'string', default: defaultConfigs.join(',') },
    out: { type: 'string' },
    json: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    details: { type: 'boolean', default: false },
    'max-tokens': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  allowPositionals: false,
});
const fail = (message: string): never => {
  console.error(`bench:rag: ${message}\n${usage}`);
  process.exit(2);
};
if (args.help) {
  console.log(usage);
  process.exit(0);
}

const root = args.smoke
  ? fileURLToPath(new URL('./fixtures/', import.meta.url))
  : (args.data ?? fileURLToPath(new URL('../../../shared/eval/', import.meta.url)));
const datasets = (args.dataset ?? (args.smoke ? 'courses,chats' : 'syllabusqa,financebench,realtalk')).split(
  ',',
);
const limit = args['limit-questions'] === undefined ? undefined : Number(args['limit-questions']);
if (limit !== undefined && !(Number.isSafeInteger(limit) && limit > 0)) {
  fail(`--limit-questions must be a positive integer, not ${args['limit-questions']}`);
}
const maxTokens = args['max-tokens'] === undefined ? undefined : Number(args['max-tokens']);
if (maxTokens !== undefined && !(Number.isSafeInteger(maxTokens) && maxTokens >= 64)) {
  fail(`--max-tokens must be a whole number ≥ 64, not ${args['max-tokens']}`);
}
const split = maxTokens === undefined ? {} : { maxTokens, mergeBelow: Math.floor(maxTokens / 4) };
const seed = Number(args.seed);
if (!Number.isSafeInteger(seed)) fail(`--seed must be an integer, not ${args.seed}`);
if (args.json && datasets.length > 1) fail('--json names one file: use it with one --dataset');
let configs: ReturnType<typeof pickConfigs> = [];
try {
  configs = pickConfigs(args.configs!.split(',').filter(Boolean));
} catch (error) {
  fail((error as Error).message);
}
const outDir = args.out ?? (args.smoke ? undefined : fileURLToPath(new URL('../results/', import.meta.url)));

const model = transformersEmbedder();
for (const name of datasets) {
  const path = join(root, name);
  if (!existsSync(path)) {
    console.log(`${name}: not at ${path}; nothing to measure.`);
    continue;
  }
  const details: QuestionDetail[] = [];
  const report = await runDataset(name, loadDataset(path, name), args.details ? details : undefined);
  const markdown = renderMarkdown(report);
  console.log(`\n${markdown}`);
  const jsonPath = args.json ?? (outDir ? join(outDir, `rag-${name}.json`) : undefined);
  if (jsonPath) writeReport(jsonPath, report, markdown);
  if (jsonPath && args.details) {
    writeFileSync(jsonPath.replace(/\.json$/, '-questions.json'), `${JSON.stringify(details)}\n`);
  }
}

async function runDataset(
  name: string,
  dataset: RagDataset,
  details: QuestionDetail[] | undefined,
): Promise<RagReport> {
  const questions =
    limit !== undefined && limit < dataset.questions.length
      ? shuffled(dataset.questions, seed).slice(0, limit)
      : dataset.questions;
  const { grouping, split: parted } = ragHalves(dataset);
  const halfOf = halfByQuestion(parted);
  console.log(
    `${name}: ${dataset.documents.length} documents, ${questions.length} of ${dataset.questions.length} questions; ` +
      halves
        .map(
          (half) =>
            `${half} half ${groupCount(parted[half].groups.length, grouping)}, ${parted[half].items.length} questions`,
        )
        .join(', '),
  );
  const cache = new EmbeddingCache(`rag-${name}-${model.id.replace(/\W/g, '_')}`, model.dimensions);
  const embedder = cachedEmbedder(model, cache, name);
  const longship = await openLongship({ store: await openMemoryStore(), embedder });
  try {
    const started = performance.now();
    await longship.addResource(dataset.documents, { name: dataset.folder, ...split });
    await longship.waitProcessed();
    const ingestSeconds = (performance.now() - started) / 1000;
    const stats = await longship.store.stats();
    const shape = await treeShape(longship, `viking://resources/${dataset.folder}`);
    console.log(`indexed in ${ingestSeconds.toFixed(0)} s: ${stats.nodes} nodes, ${stats.vectors} vectors`);
    // Every question's vector once, so that no configuration pays for (or times) the model.
    await embedder.embed(questions.map((q) => q.question));
    const gold = await goldDocuments(longship, dataset);
    const summary = (groups: string[], half: Half): HalfSummary => {
      const measured = questions.filter((q) => halfOf.get(q) === half);
      return {
        groups,
        measured: measured.length,
        total: parted[half].items.length,
        ceiling: round(ceiling(dataset, gold, measured, 'source'), 4)!,
      };
    };
    const read = hitReader(longship);
    const subject = { longship, embedMs: () => embedder.embedMs };
    const results: ConfigResult[] = [];
    for (const config of configs) {
      const result = await measureConfig(subject, dataset, questions, config, read, gold, halfOf, details);
      results.push(result);
      console.log(
        `  ${config.name.padEnd(15)} R@5 ${result.recall5.toFixed(3)}  R@10 ${result.recall10.toFixed(3)}  ` +
          `R@8k ${result.recallAtChars['8000']!.toFixed(3)}  own R@5 ${result.ownRecall5.toFixed(3)}  ` +
          `p50 ${result.p50Ms.toFixed(1)} ms`,
      );
      for (const half of halves) {
        const figures = result.halves[half];
        console.log(
          `  ${''.padEnd(15)} ${half.padEnd(9)} (${figures.questions}) R@5 ${figures.recall5.toFixed(3)}  ` +
            `R@8k ${figures.recallAtChars['8000']!.toFixed(3)}`,
        );
      }
    }
    const assembly = await measureContext(subject, questions, read);
    for (const row of assembly.rows) {
      console.log(
        `  context() ${String(row.tokens).padStart(5)} tokens: recall ${row.recall.toFixed(3)}  ` +
          `cut ${row.cutRecall.toFixed(3)}  p50 ${row.p50Ms.toFixed(1)} ms`,
      );
    }
    return {
      dataset: name,
      documents: dataset.documents.length,
      questions: {
        measured: questions.length,
        total: dataset.questions.length,
        sampleSeed: questions.length < dataset.questions.length ? seed : null,
      },
      ceiling: round(ceiling(dataset, gold, questions, 'source'), 4)!,
      ceilingIndexed: round(ceiling(dataset, gold, questions, 'indexed'), 4)!,
      published: published[name] ?? null,
      halves: {
        seed: parted.seed,
        by: grouping,
        tuning: summary(parted.tuning.groups, 'tuning'),
        reporting: summary(parted.reporting.groups, 'reporting'),
      },
      index: {
        ingestSeconds: Math.round(ingestSeconds),
        nodes: stats.nodes,
        vectors: stats.vectors,
        ...shape,
      },
      configs: results.map(rounded),
      assembly,
      context: { embedder: model.id, machine: measureMachine(), scoring },
    };
  } finally {
    await longship.close();
  }
}

/** How many directories lie under `uri`, and the sizes of its files. */
async function treeShape(longship: Awaited<ReturnType<typeof openLongship>>, uri: string) {
  const sizes: number[] = [];
  let directories = 0;
  const walk = (nodes: Awaited<ReturnType<typeof longship.tree>>) => {
    for (const node of nodes) {
      if (node.kind === 'file') sizes.push(node.size);
      else directories++;
      walk(node.children ?? []);
    }
  };
  walk(await longship.tree(uri, { depth: 100 }));
  const at = (q: number) => Math.round(quantile(sizes, q));
  return {
    leaves: { count: sizes.length, p50: at(0.5), p90: at(0.9), max: Math.max(0, ...sizes) },
    directories,
  };
}

function r4(x: number): number {
  return round(x, 4)!;
}

function roundedRecalls(figures: HalfFigures): HalfFigures {
  return {
    questions: figures.questions,
    recall5: r4(figures.recall5),
    recall10: r4(figures.recall10),
    recallAtChars: Object.fromEntries(Object.entries(figures.recallAtChars).map(([k, v]) => [k, r4(v)])),
    ownRecall5: r4(figures.ownRecall5),
  };
}

function rounded(result: ConfigResult): ConfigResult {
  return {
    ...result,
    ...roundedRecalls(result),
    ownRecall10: r4(result.ownRecall10),
    chars5: Math.round(result.chars5),
    chars10: Math.round(result.chars10),
    directoryShare5: r4(result.directoryShare5),
    p50Ms: round(result.p50Ms, 2)!,
    p95Ms: round(result.p95Ms, 2)!,
    byCategory: Object.fromEntries(
      Object.entries(result.byCategory).map(([k, v]) => [
        k,
        { questions: v.questions, recall5: r4(v.recall5), ownRecall5: r4(v.ownRecall5) },
      ]),
    ),
    halves: {
      tuning: roundedRecalls(result.halves.tuning),
      reporting: roundedRecalls(result.halves.reporting),
    },
  };
}
