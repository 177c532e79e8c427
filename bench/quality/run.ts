// npm run bench:quality: retrieval quality and query latency of find() on a BEIR set or ObliQA.
// The corpus goes in through the public API (addResource of a folder, so ingestion builds the
// tree, the summaries and the vectors), every query goes through find(), and each configuration
// reports nDCG@10, Recall@10, Recall@100, MRR@10 and latency p50/p95 without the query embedding.
//
//   npm run bench:quality -- --format beir --dir <BEIR folder> --split test --json out.json
//   npm run bench:quality -- --format obliqa --passages <zip or folder> --questions <ObliQA json> --json out.json
import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { openLongship } from '../../src/engine.js';
import type { FindOptions } from '../../src/retrieve/settings.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type { Quantization } from '../../src/vector/vector-index.js';
import { measureMachine } from '../lib/machine.js';
import { shuffled } from '../lib/random.js';
import { quantile } from '../lib/stats.js';
import { writeReport } from '../lib/write-report.js';
import { cachedEmbedder, EmbeddingCache } from './embedding-cache.js';
import { type EvalSet, loadBeir, loadObliqa } from './eval-set.js';
import { rankingMetrics } from './metrics.js';

const usage = `usage:
  npm run bench:quality -- --format beir --dir DIR --split SPLIT [options]
  npm run bench:quality -- --format obliqa --passages ZIP|DIR --questions FILE [options]
options: --json FILE  --queries N (a seeded sample)  --alphas 0.5,0.8,1  --configs default,dense,bm25,hybrid,walk
         --weights 0.7,0.9 (also flat hybrids at these BM25 weights, named hybrid-w<weight>)
         --profile FILE.cpuprofile (a CPU profile of the queries only)
         --quantization f32|f16|i8 (the HNSW index's)`;

const { values: args } = parseArgs({
  options: {
    format: { type: 'string' },
    dir: { type: 'string' },
    split: { type: 'string', default: 'test' },
    passages: { type: 'string' },
    questions: { type: 'string' },
    json: { type: 'string' },
    queries: { type: 'string' },
    alphas: { type: 'string', default: '0.5,0.8,1' },
    weights: { type: 'string', default: '' },
    profile: { type: 'string' },
    configs: { type: 'string', default: 'default,dense,bm25,hybrid,walk' },
    quantization: { type: 'string', default: 'f32' },
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

function load(): EvalSet {
  if (args.format === 'beir') {
    if (!args.dir) fail('--dir is required');
    if (!existsSync(args.dir!)) fail(`${args.dir} does not exist: the evaluation data is not here`);
    return loadBeir(args.dir!, args.split!);
  }
  if (args.format === 'obliqa') {
    if (!args.passages || !args.questions) fail('--passages and --questions are required');
    for (const path of [args.passages!, args.questions!]) {
      if (!existsSync(path)) fail(`${path} does not exist: the evaluation data is not here`);
    }
    return loadObliqa(args.passages!, args.questions!);
  }
  return fail(`--format must be beir or obliqa, not ${args.format}`);
}

/** The configurations, by the names the JSON uses. Results are files: the units that are judged. */
function configurations(): { name: string; options: FindOptions }[] {
  const wanted = new Set(args.configs!.split(','));
  const all: { name: string; options: FindOptions }[] = [
    { name: 'default', options: {} },
    // The flat configurations take nothing from directories (α 1).
    { name: 'dense', options: { mode: 'quick', alpha: 1, hybrid: { lexical: false } } },
    { name: 'bm25', options: { mode: 'quick', alpha: 1, hybrid: { vector: false } } },
    { name: 'hybrid', options: { mode: 'quick', alpha: 1 } },
    ...args
      .weights!.split(',')
      .filter(Boolean)
      .map((weight) => ({
        name: `hybrid-w${Number(weight)}`,
        options: { mode: 'quick' as const, alpha: 1, hybrid: { lexicalWeight: Number(weight) } },
      })),
    ...args.alphas!.split(',').map((alpha) => ({
      name: `walk-a${Number(alpha)}`,
      options: { mode: 'thinking' as const, alpha: Number(alpha) },
    })),
  ];
  return all.filter(
    ({ name }) =>
      wanted.has(name) || name.startsWith('hybrid-w') || (name.startsWith('walk-') && wanted.has('walk')),
  );
}

const set = load();
const target = `viking://resources/${set.dataset}`;
const sample = args.queries ? Number(args.queries) : set.queries.length;
if (!(sample > 0)) fail(`--queries must be a positive number, not ${args.queries}`);
const queries = sample < set.queries.length ? shuffled(set.queries, 7).slice(0, sample) : set.queries;
console.log(
  `${set.dataset} (${set.split}): ${set.documents.length} documents, ${queries.length} of ${set.queries.length} queries`,
);

const model = transformersEmbedder();
const cache = new EmbeddingCache(`${set.dataset}-${model.id.replace(/\W/g, '_')}`, model.dimensions);
const embedder = cachedEmbedder(model, cache);
const quantization = args.quantization as Quantization;
if (!['f32', 'f16', 'i8'].includes(quantization)) fail(`--quantization must be f32, f16 or i8`);
const longship = await openLongship({
  store: await openMemoryStore(),
  embedder,
  vectorIndex: { quantization },
});

const ingestStarted = performance.now();
let reported = 0;
const job = longship.addResource(
  set.documents.map(({ path, content }) => ({ path, content })),
  {
    target,
    onProgress: ({ phase, done, total }) => {
      if (phase !== 'write' || done < reported + total / 20) return;
      reported = done;
      const seconds = (performance.now() - ingestStarted) / 1000;
      console.log(`  ingested ${done}/${total} documents in ${seconds.toFixed(0)} s`);
    },
  },
);
const ingested = await job;
await longship.waitProcessed();
const ingestSeconds = (performance.now() - ingestStarted) / 1000;
const idOf = new Map<string, string>();
const written = new Set(ingested.uris);
for (const doc of set.documents)
  if (written.has(`${target}/${doc.path}`)) idOf.set(`${target}/${doc.path}`, doc.id);
const stats = await longship.store.stats();
console.log(
  `\ningested in ${ingestSeconds.toFixed(0)} s: ${stats.nodes} nodes, ${stats.vectors} vectors` +
    (ingested.skipped.length ? `; skipped ${ingested.skipped.length}` : ''),
);

// Every query's vector once, so that no configuration pays for (or times) the model.
await embedder.embed(queries.map((q) => q.text));

interface ConfigResult {
  name: string;
  ndcg10: number;
  recall10: number;
  recall100: number;
  mrr10: number;
  p50_ms: number;
  p95_ms: number;
}

const profiler = args.profile ? await startProfiler() : undefined;
const results: ConfigResult[] = [];
for (const { name, options } of configurations()) {
  const sums = { ndcg10: 0, recall10: 0, recall100: 0, mrr10: 0 };
  const latencies: number[] = [];
  for (const query of queries) {
    const filter = { kind: 'file' as const };
    const embedBefore = embedder.embedMs;
    const started = performance.now();
    const top10 = await longship.find(query.text, { ...options, filter, limit: 10 });
    latencies.push(performance.now() - started - (embedder.embedMs - embedBefore));
    const top100 = await longship.find(query.text, { ...options, filter, limit: 100 });
    const ids = (items: { uri: string }[]) => items.map((item) => idOf.get(item.uri));
    const at10 = rankingMetrics(ids(top10.resources), query.relevant);
    const at100 = rankingMetrics(ids(top100.resources), query.relevant);
    sums.ndcg10 += at10.ndcg10;
    sums.recall10 += at10.recall10;
    sums.mrr10 += at10.mrr10;
    sums.recall100 += at100.recall100;
  }
  const n = queries.length;
  const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;
  const result: ConfigResult = {
    name,
    ndcg10: round(sums.ndcg10 / n),
    recall10: round(sums.recall10 / n),
    recall100: round(sums.recall100 / n),
    mrr10: round(sums.mrr10 / n),
    p50_ms: round(quantile(latencies, 0.5), 2),
    p95_ms: round(quantile(latencies, 0.95), 2),
  };
  results.push(result);
  console.log(
    `${name.padEnd(10)} nDCG@10 ${result.ndcg10.toFixed(4)}  R@10 ${result.recall10.toFixed(4)}  ` +
      `R@100 ${result.recall100.toFixed(4)}  MRR@10 ${result.mrr10.toFixed(4)}  ` +
      `p50 ${result.p50_ms.toFixed(1)} ms  p95 ${result.p95_ms.toFixed(1)} ms`,
  );
}
await profiler?.stop(args.profile!);
await longship.close();

const report = {
  dataset: set.dataset,
  split: set.split,
  n_queries: queries.length,
  configs: results,
  context: {
    documents: set.documents.length,
    nodes: stats.nodes,
    vectors: stats.vectors,
    embedder: model.id,
    ingest_seconds: Math.round(ingestSeconds),
    latency: 'find() with limit 10, less the time spent embedding the query (embedded beforehand)',
    machine: measureMachine(),
  },
};
if (args.json) writeReport(args.json, report, markdown(report));

function markdown(r: typeof report): string {
  const rows = r.configs.map(
    (c) =>
      `| ${c.name} | ${c.ndcg10.toFixed(4)} | ${c.recall10.toFixed(4)} | ${c.recall100.toFixed(4)} | ` +
      `${c.mrr10.toFixed(4)} | ${c.p50_ms.toFixed(1)} | ${c.p95_ms.toFixed(1)} |`,
  );
  return [
    `# find() on ${r.dataset} (${r.split}, ${r.n_queries} queries)`,
    '',
    `${r.context.documents} documents → ${r.context.nodes} nodes, ${r.context.vectors} vectors; ` +
      `embedder ${r.context.embedder}; results restricted to files. Latency: ${r.context.latency}. ` +
      `Machine: ${r.context.machine.cpu}, ${r.context.machine.cores} cores, Node ${r.context.machine.node}.`,
    '',
    '| config | nDCG@10 | Recall@10 | Recall@100 | MRR@10 | p50 ms | p95 ms |',
    '|:---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}

/** A CPU profile through the inspector, so that ingestion stays out of it. */
async function startProfiler(): Promise<{ stop(file: string): Promise<void> }> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`wrote the CPU profile of the queries to ${file}`);
    },
  };
}
