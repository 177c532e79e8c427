// npm run bench:shard: a corpus over shards against one store of the same documents
// (docs/guide/sharding.md). Two parts:
//  - equality: BEIR queries (SciFact's) through find() on one store and on a corpus over 4 shards, the
//    documents in folders of a hash of their id so the corpus spreads; how many answers are the same
//    (URIs in order, scores to 1e-6), with the vector search walking each HNSW graph (the default)
//    and scanning the vectors (`hybrid.exact`);
//  - fan-out: find() latency over 1 (one store) and N shards, all in this one thread. The shards'
//    work then adds up; each shard call is also timed alone, so that the latency of shards that run
//    in parallel (a Durable Object each) is modelled as: the slowest shard's first round, plus its
//    second, plus the corpus's own work.
//
//   npm run bench:shard -- --dir ../shared/eval/scifact --split train --queries 100 --shards 4,8,16
import { parseArgs } from 'node:util';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { type Longship, openLongship } from '../../src/engine.js';
import { corpusShard } from '../../src/shard/corpus-shard.js';
import type { CorpusShard } from '../../src/shard/shard-protocol.js';
import { openShardedCorpus } from '../../src/shard/sharded-corpus.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { measureMachine } from '../lib/machine.js';
import { markdownTable } from '../lib/markdown.js';
import { shuffled } from '../lib/random.js';
import { median, quantile } from '../lib/stats.js';
import { writeReport } from '../lib/write-report.js';
import { cachedEmbedder, EmbeddingCache } from '../quality/embedding-cache.js';
import { loadBeir } from '../quality/eval-set.js';
import { workerdFanOut } from './workerd.js';

const { values: args } = parseArgs({
  options: {
    dir: { type: 'string' },
    split: { type: 'string', default: 'train' },
    queries: { type: 'string', default: '100' },
    shards: { type: 'string', default: '4,8,16' },
    folders: { type: 'string', default: '64' },
    documents: { type: 'string' },
    json: { type: 'string', default: 'bench/results/shard.json' },
    'workerd-documents': { type: 'string', default: '2000' },
  },
});
if (!args.dir) throw new Error('--dir is required: a BEIR folder (corpus.jsonl, queries.jsonl, qrels/)');

const R = 'viking://resources';
const set = loadBeir(args.dir, args.split!);
const folderCount = Number(args.folders);
const documents = (args.documents ? set.documents.slice(0, Number(args.documents)) : set.documents).map(
  (doc) => ({
    path: `part-${String(hash(doc.id) % folderCount).padStart(2, '0')}/${doc.path}`,
    content: doc.content,
  }),
);
const queries = shuffled(set.queries, 7)
  .slice(0, Number(args.queries))
  .map((query) => query.text);
const shardCounts = args.shards!.split(',').map(Number);
console.log(
  `${set.dataset}: ${documents.length} documents in ${folderCount} folders, ${queries.length} queries`,
);

const model = transformersEmbedder();
const embedder = cachedEmbedder(
  model,
  new EmbeddingCache(`${set.dataset}-${model.id.replace(/\W/g, '_')}`, model.dimensions),
);

/** One store of every document. */
async function single(): Promise<Longship> {
  const longship = await openLongship({ store: await openMemoryStore(), embedder });
  await longship.addResource(documents, { target: R });
  return longship;
}

/**
 * N stores, each holding the folders the corpus places in it: moved from the one store as OVPacks
 * with their vectors, which takes seconds where ingesting again took minutes. The nodes, layers,
 * BM25 entries and vectors are the ones ingestion wrote (docs/guide/ovpack.md).
 */
async function shardedFrom(source: Longship, count: number) {
  const stores = await Promise.all(
    Array.from({ length: count }, async () => openLongship({ store: await openMemoryStore(), embedder })),
  );
  const placing = openShardedCorpus({ shards: stores.map(corpusShard) });
  for (const folder of await source.ls(R)) {
    const pack = await source.export(folder.uri, { includeVectors: true });
    await stores[placing.shardOf(folder.uri)]!.import(pack, R, { vectors: 'require' });
  }
  return stores;
}

/** A shard whose calls are made one at a time and timed: each time is that shard's own work. */
function timed(
  shard: CorpusShard,
  log: { round: 1 | 2; ms: number }[],
  lock: { queue: Promise<unknown> },
): CorpusShard {
  const run = <T>(round: 1 | 2, call: () => Promise<T>): Promise<T> => {
    const result = lock.queue.then(async () => {
      const started = performance.now();
      try {
        return await call();
      } finally {
        log.push({ round, ms: performance.now() - started });
      }
    });
    lock.queue = result.catch(() => undefined);
    return result;
  };
  return {
    statistics: (q) => run(1, () => shard.statistics(q)),
    candidates: (q) => run(2, () => shard.candidates(q)),
    node: (uri) => shard.node(uri),
    relations: (uri) => shard.relations(uri),
  };
}

function same(
  a: readonly { uri: string; score: number }[],
  b: readonly { uri: string; score: number }[],
): boolean {
  return (
    a.length === b.length &&
    a.every((item, i) => item.uri === b[i]!.uri && Math.abs(item.score - b[i]!.score) < 1e-6)
  );
}

const equality: {
  search: string;
  shards: number;
  queries: number;
  identical: number;
  largestScoreDifference: number;
}[] = [];
const fanOut: { shards: number; p50Ms: number; p95Ms: number; parallelP50Ms: number }[] = [];
const one = await single();
{
  const stores = await shardedFrom(one, 4);
  const corpus = openShardedCorpus({ shards: stores.map(corpusShard), embedder });
  for (const [label, options] of [
    ['graph (default)', {}],
    ['hybrid.exact', { hybrid: { exact: true } }],
  ] as const) {
    let identical = 0;
    let largest = 0;
    for (const query of queries) {
      const expected = (await one.find(query, { ...options, targetUri: R })).resources;
      const got = (await corpus.find(query, options)).resources;
      if (same(got, expected)) identical++;
      for (const [i, item] of got.entries()) {
        if (item.uri === expected[i]?.uri)
          largest = Math.max(largest, Math.abs(item.score - expected[i]!.score));
      }
    }
    equality.push({
      search: label,
      shards: 4,
      queries: queries.length,
      identical,
      largestScoreDifference: largest,
    });
    console.log(`  ${label}: ${identical}/${queries.length} answers identical over 4 shards`);
  }
  for (const store of stores) await store.close();
}

for (const query of queries.slice(0, 5)) await one.find(query, { targetUri: R });
const singleMs = [];
for (const query of queries) {
  const started = performance.now();
  await one.find(query, { targetUri: R });
  singleMs.push(performance.now() - started);
}
fanOut.push({
  shards: 1,
  p50Ms: median(singleMs),
  p95Ms: quantile(singleMs, 0.95),
  parallelP50Ms: median(singleMs),
});
for (const count of shardCounts) {
  const stores = await shardedFrom(one, count);
  const log: { round: 1 | 2; ms: number }[] = [];
  const lock = { queue: Promise.resolve() as Promise<unknown> };
  const corpus = openShardedCorpus({
    shards: stores.map((store) => timed(corpusShard(store), log, lock)),
    embedder,
  });
  for (const query of queries.slice(0, 5)) await corpus.find(query);
  const total: number[] = [];
  const parallel: number[] = [];
  for (const query of queries) {
    log.length = 0;
    const started = performance.now();
    await corpus.find(query);
    const ms = performance.now() - started;
    const slowest = (round: 1 | 2) =>
      Math.max(0, ...log.filter((each) => each.round === round).map((each) => each.ms));
    const own = ms - log.reduce((sum, each) => sum + each.ms, 0);
    total.push(ms);
    parallel.push(slowest(1) + slowest(2) + own);
  }
  fanOut.push({
    shards: count,
    p50Ms: median(total),
    p95Ms: quantile(total, 0.95),
    parallelP50Ms: median(parallel),
  });
  console.log(
    `  ${count} shards: p50 ${median(total).toFixed(1)} ms in one thread, modelled parallel ${median(parallel).toFixed(1)} ms`,
  );
  for (const store of stores) await store.close();
}
await one.close();

// The same fan-out under workerd, over Durable Objects: fewer documents, a hashed-words embedder.
const workerd = await workerdFanOut(
  documents.slice(0, Number(args['workerd-documents'])),
  queries,
  shardCounts,
);

const report = {
  dataset: `${set.dataset} (${args.split})`,
  documents: documents.length,
  folders: folderCount,
  queries: queries.length,
  note: 'query embedding cached and excluded; memory stores; one thread',
  machine: measureMachine(),
  equality,
  fanOut,
  workerd,
};
const round1 = (x: number) => Math.round(x * 10) / 10;
const markdown = [
  `Sharded corpus on ${report.dataset}: ${documents.length} documents in ${folderCount} folders, ${queries.length} queries (load ${report.machine.loadAverage.toFixed(1)}).`,
  '',
  markdownTable(
    ['vector search', 'shards', 'answers identical to one store', 'largest score difference'],
    equality.map((row) => [
      row.search,
      String(row.shards),
      `${row.identical} / ${row.queries}`,
      row.largestScoreDifference.toExponential(1),
    ]),
  ),
  '',
  markdownTable(
    ['shards', 'find p50 (one thread)', 'p95', 'modelled parallel p50', 'ratio to one store'],
    fanOut.map((row) => [
      String(row.shards),
      `${round1(row.p50Ms)} ms`,
      `${round1(row.p95Ms)} ms`,
      `${round1(row.parallelP50Ms)} ms`,
      `${(row.parallelP50Ms / fanOut[0]!.p50Ms).toFixed(2)}×`,
    ]),
  ),
  '',
  `Under workerd (Miniflare, one process), ${Math.min(documents.length, Number(args['workerd-documents']))} of the documents in SQLite-backed Durable Objects, a hashed-words embedder, each find() timed in the Worker:`,
  '',
  markdownTable(
    ['objects', 'load', 'find p50', 'p95', 'ratio to one object'],
    workerd.map((row) => [
      String(row.shards),
      `${round1(row.loadSeconds)} s`,
      `${round1(row.p50Ms)} ms`,
      `${round1(row.p95Ms)} ms`,
      `${(row.p50Ms / workerd[0]!.p50Ms).toFixed(2)}×`,
    ]),
  ),
  '',
].join('\n');
console.log(markdown);
writeReport(args.json!, report, markdown);

/** FNV-1a: a document's folder, the same every run. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
