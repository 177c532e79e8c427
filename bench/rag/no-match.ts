// npm run bench:no-match: whether one find() scoreThreshold can say "no good match" (issue 40).
// Each bench:rag dataset's corpus, and SciFact's, goes in once as bench:rag adds it (with bench:rag's
// and bench:quality's embedding caches, so nothing is re-embedded), and is asked its own questions
// and a seeded sample of the other datasets' questions, whose answers it does not hold. For each
// threshold t from 0 to 1: the share of its own questions with evidence in the top 5 (OpenViking's
// check_recall; for SciFact a relevant document) that keep some of it among the results scored above
// t, and the share of the foreign results scored at or under t, which find() would drop. t is chosen
// on the tuning halves (bench/rag/halves.ts; a foreign question is in its own dataset's half) and
// reported on both. Results: bench/results/no-match.json and .md.
//
//   npm run bench:no-match                        # syllabusqa, financebench, realtalk, scifact, cranfield
//   npm run bench:no-match -- --smoke --out DIR   # the fixtures in bench/rag/fixtures, in seconds
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { openLongship } from '../../src/engine.js';
import { analyze } from '../../src/lexical/analyzer.js';
import type { MatchedContext } from '../../src/retrieve/results.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type { Half } from '../lib/halves.js';
import { measureMachine } from '../lib/machine.js';
import { shuffled } from '../lib/random.js';
import { writeReport } from '../lib/write-report.js';
import { cachedEmbedder, EmbeddingCache } from '../quality/embedding-cache.js';
import { type EvalSet, loadBeir, loadCranfield } from '../quality/eval-set.js';
import { joined, recallIn } from './check-recall.js';
import { loadDataset, type RagDataset, type RagQuestion } from './dataset.js';
import { documentUri } from './gold.js';
import { halfByQuestion, ragHalves } from './halves.js';
import { hitReader } from './measure.js';
import type { ForeignQuestion, OwnQuestion } from './no-match-curves.js';
import { prefixHolding } from './no-match-curves.js';
import { type MeasuredDataset, renderNoMatch, summarise } from './no-match-report.js';

const usage = `usage: npm run bench:no-match -- [--dataset syllabusqa,financebench,realtalk] [--data DIR]
  [--limit-questions N] [--foreign 200] [--seed 7] [--out DIR] [--json FILE] [--smoke]
  --limit-questions: a seeded sample of N of each dataset's own questions
  --foreign: how many other datasets' questions each corpus is asked, shared among them, seeded
  --out: where no-match.json and .md go (default bench/results; with --smoke, nothing is written without it)`;

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string' },
    data: { type: 'string' },
    'limit-questions': { type: 'string' },
    foreign: { type: 'string', default: '200' },
    seed: { type: 'string', default: '7' },
    out: { type: 'string' },
    json: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
  allowPositionals: false,
});
const fail = (message: string): never => {
  console.error(`bench:no-match: ${message}\n${usage}`);
  process.exit(2);
};
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const positive = (flag: string, text: string | undefined) => {
  const n = Number(text);
  if (!(Number.isSafeInteger(n) && n > 0)) fail(`--${flag} must be a positive integer, not ${text}`);
  return n;
};
const limit =
  args['limit-questions'] === undefined ? undefined : positive('limit-questions', args['limit-questions']);
const foreignCount = positive('foreign', args.foreign);
const seed = Number(args.seed);
if (!Number.isSafeInteger(seed)) fail(`--seed must be an integer, not ${args.seed}`);
const root = args.smoke
  ? fileURLToPath(new URL('./fixtures/', import.meta.url))
  : (args.data ?? fileURLToPath(new URL('../../../shared/eval/', import.meta.url)));
const names = (
  args.dataset ?? (args.smoke ? 'courses,chats' : 'syllabusqa,financebench,realtalk,scifact,cranfield')
).split(',');
const outDir = args.out ?? (args.smoke ? undefined : fileURLToPath(new URL('../results/', import.meta.url)));

const datasets = names.filter((name) => {
  const there = existsSync(join(root, name));
  if (!there) console.log(`${name}: not at ${join(root, name)}; left out.`);
  return there;
});
if (datasets.length < 2) fail('needs two datasets at least: each corpus is asked the others’ questions');
/** For a BEIR set (SciFact), each question's relevant documents' URIs: its evidence is one of them. */
const relevantOf = new Map<RagQuestion, Set<string>>();
/** The datasets whose evidence is a judged document, and how each is read. */
const judged: Record<string, (dir: string) => EvalSet> = {
  scifact: (dir) => loadBeir(dir, 'train'),
  cranfield: loadCranfield,
};
const loaded = new Map(
  datasets.map((name) => [
    name,
    judged[name] ? judgedDataset(judged[name](join(root, name))) : loadDataset(join(root, name), name),
  ]),
);
const halfOf = new Map<RagQuestion, Half>();
for (const dataset of loaded.values()) {
  for (const [question, half] of halfByQuestion(ragHalves(dataset).split)) halfOf.set(question, half);
}

const model = transformersEmbedder();
const measured: MeasuredDataset[] = [];
for (const name of datasets) {
  const dataset = loaded.get(name)!;
  const own =
    limit !== undefined && limit < dataset.questions.length
      ? shuffled(dataset.questions, seed).slice(0, limit)
      : dataset.questions;
  const others = datasets.filter((other) => other !== name);
  const foreign = foreignSample(others);
  const { ownRecords, foreignRecords, seconds } = await askCorpus(dataset, own, foreign);
  measured.push({
    dataset: name,
    documents: dataset.documents.length,
    questions: { measured: own.length, total: dataset.questions.length },
    foreignFrom: Object.fromEntries(others.map((o) => [o, foreign.filter((f) => f.from === o).length])),
    seconds,
    own: ownRecords,
    foreign: foreignRecords,
  });
}
const report = summarise(measured, {
  embedder: model.id,
  machine: measureMachine(),
  sampleSeed: seed,
  limitQuestions: limit ?? null,
  foreignPerCorpus: foreignCount,
});
const markdown = renderNoMatch(report);
console.log(`\n${markdown}`);
const jsonPath = args.json ?? (outDir ? join(outDir, 'no-match.json') : undefined);
if (jsonPath) writeReport(jsonPath, report, markdown);

/**
 * A set with relevance judgements (SciFact's train split, Cranfield) as a bench:rag dataset: a
 * folder of documents, and questions whose evidence is a relevant document found among the hits.
 */
function judgedDataset(set: EvalSet): RagDataset {
  const dataset: RagDataset = {
    name: set.dataset,
    folder: set.dataset,
    documents: set.documents.map(({ path, content }) => ({ path, content })),
    questions: [],
    documentOf: new Map(),
  };
  const pathOf = new Map(set.documents.map((doc) => [doc.id, doc.path]));
  for (const query of set.queries) {
    // Each claim its own group in the halves: SciFact's claims share no document that would tie them.
    const question = { id: query.id, question: query.text, evidence: [], category: '', sampleId: query.id };
    dataset.questions.push(question);
    relevantOf.set(
      question,
      new Set(
        [...query.relevant.keys()].flatMap((id) =>
          pathOf.has(id) ? [documentUri(dataset, pathOf.get(id)!)] : [],
        ),
      ),
    );
  }
  return dataset;
}

/**
 * `--foreign` questions of the other datasets, seeded: an equal share of each, and what a small
 * dataset lacks taken from the others.
 */
function foreignSample(others: readonly string[]): { question: RagQuestion; from: string }[] {
  const pools = others.map((other) => ({
    other,
    pool: shuffled(loaded.get(other)!.questions, seed),
    taken: 0,
  }));
  for (let left = foreignCount; left > 0; ) {
    const open = pools.filter((p) => p.taken < p.pool.length);
    if (open.length === 0) break;
    for (const p of open) if (left > 0 && p.taken < p.pool.length) [p.taken, left] = [p.taken + 1, left - 1];
  }
  return pools.flatMap((p) => p.pool.slice(0, p.taken).map((question) => ({ question, from: p.other })));
}

/** The corpus added as bench:rag adds it, asked its own questions and the foreign ones. */
async function askCorpus(
  dataset: RagDataset,
  own: readonly RagQuestion[],
  foreign: readonly { question: RagQuestion; from: string }[],
) {
  // bench:rag's cache, or for SciFact bench:quality's: nothing is embedded twice.
  const prefix = dataset.name === 'scifact' ? '' : 'rag-';
  const cache = new EmbeddingCache(
    `${prefix}${dataset.name}-${model.id.replace(/\W/g, '_')}`,
    model.dimensions,
  );
  const embedder = cachedEmbedder(model, cache, dataset.name);
  const longship = await openLongship({ store: await openMemoryStore(), embedder });
  try {
    const started = performance.now();
    await longship.addResource(dataset.documents, { name: dataset.folder });
    await longship.waitProcessed();
    await embedder.embed([...own, ...foreign.map((f) => f.question)].map((q) => q.question));
    const read = hitReader(longship);
    const ownRecords: OwnQuestion[] = [];
    for (const question of own) {
      const hits = (await longship.find(question.question, { limit: 5, targetUri: 'viking://resources' }))
        .resources;
      const texts = await Promise.all(hits.map(read));
      // find()'s order is the scores' order, calibrated or not: the hits above t are a prefix of it.
      const relevant = relevantOf.get(question);
      const recallOf = (k: number) =>
        relevant
          ? [...relevant].filter((uri) =>
              hits.slice(0, k).some((hit) => hit.uri === uri || hit.uri.startsWith(`${uri}/`)),
            ).length / relevant.size
          : recallIn(joined(texts.slice(0, k)), question.evidence);
      const recall5 = recallOf(hits.length);
      const anyAt = recall5 > 0 ? prefixHolding(hits.length, (k) => recallOf(k) > 0) : null;
      const allAt = recall5 > 0 ? prefixHolding(hits.length, (k) => recallOf(k) >= recall5) : null;
      const scores = hits.map((hit) => hit.score);
      ownRecords.push({
        half: halfOf.get(question)!,
        scores,
        uncalibrated: hits.map(uncalibrated),
        recall5,
        evidenceAt: anyAt,
        allEvidenceAt: allAt,
        anyAbove: anyAt === null ? null : scores[anyAt - 1]!,
        allAbove: allAt === null ? null : scores[allAt - 1]!,
        ...reasons(hits),
        termShare: termShare(question.question, texts[0]?.combined),
      });
    }
    const foreignRecords: ForeignQuestion[] = [];
    for (const { question, from } of foreign) {
      const hits = (await longship.find(question.question, { limit: 5, targetUri: 'viking://resources' }))
        .resources;
      const first = hits[0] ? (await read(hits[0])).combined : undefined;
      foreignRecords.push({
        half: halfOf.get(question)!,
        from,
        scores: hits.map((hit) => hit.score),
        uncalibrated: hits.map(uncalibrated),
        ...reasons(hits),
        termShare: termShare(question.question, first),
      });
    }
    const seconds = Math.round((performance.now() - started) / 1000);
    console.log(`${dataset.name}: ${own.length} own questions, ${foreign.length} foreign, ${seconds} s`);
    return { ownRecords, foreignRecords, seconds };
  } finally {
    await longship.close();
  }
}

/** The best similarity and BM25 among the hits, and the query's calibration factor, as matchReason gives them. */
function reasons(hits: readonly MatchedContext[]) {
  const best = (pattern: RegExp) => {
    const values = hits.flatMap((hit) => {
      const match = pattern.exec(hit.matchReason);
      return match ? [Number(match[1])] : [];
    });
    return values.length === 0 ? null : Math.max(...values);
  };
  const confidence = hits.length === 0 ? null : /confidence ([\d.]+)/.exec(hits[0]!.matchReason);
  return {
    similarity: best(/similarity (-?[\d.]+)/),
    bm25: best(/bm25 (-?[\d.]+)/),
    confidence: confidence ? Number(confidence[1]) : null,
  };
}

/** The hit's score before the calibration scaled it, as matchReason gives it. */
function uncalibrated(hit: MatchedContext): number {
  const match = /→ (-?[\d.]+); confidence/.exec(hit.matchReason);
  return match ? Number(match[1]) : hit.score;
}

/** The share of the query's terms in the first hit's text (as read), as the calibration counts them. */
function termShare(query: string, text: string | undefined): number | null {
  const terms = new Set(analyze(query));
  if (text === undefined || terms.size === 0) return null;
  const words = new Set(analyze(text));
  return [...terms].filter((term) => words.has(term)).length / terms.size;
}
