// npm run bench:vector:side-by-side -- --n 100000 --rounds 2 --json bench/results/index-side-by-side.json
// longship and hnswlib-wasm in one process, taking turns: builds alternate within each round, and their
// timed search passes alternate pass by pass. bench:vector runs each engine in a process of its own, one
// after another, and times one pass of 200 queries (~0.1 s): a busy spell on this shared machine lands
// on whichever engine runs then. Here both share every spell, so their ratio holds where their times move.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createVectorIndex, loadUsearch, type VectorIndex } from '../../src/exports/vector.js';
import { parseArgs } from '../lib/args.js';
import { datasetFor, readF32, readI32 } from '../lib/dataset.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { median, round } from '../lib/stats.js';
import { writeReport } from '../lib/write-report.js';
import { buildHnswlib, type HnswIndex, loadLibrary } from './engines/hnswlib-wasm.js';
import { type EngineContext, graph, measureSearch, timed } from './harness.js';

const argv = process.argv.slice(2);
const take = (flag: string) => {
  const at = argv.indexOf(flag);
  if (at < 0) return undefined;
  const [, value] = argv.splice(at, 2);
  return value;
};
const rounds = Number(take('--rounds') ?? 2);
const passes = Number(take('--passes') ?? 5);
const args = parseArgs(argv);
const chunk = 1000;

const data = datasetFor(args, [args.n], console.log);
const ctx: EngineContext = {
  engine: 'side-by-side',
  n: args.n,
  dims: args.dims,
  k: args.k,
  seed: args.seed,
  base: readF32(data.base).subarray(0, args.n * args.dims),
  queries: readF32(data.queries),
  queryCount: args.queries,
  truth: readI32(data.truth[args.n]!),
  scratch: '',
  progress: () => undefined,
};
const usearch = await loadUsearch(readFileSync(new URL('../../wasm/dist/usearch.wasm', import.meta.url)));
const { lib } = await loadLibrary();

function buildLongship(): VectorIndex {
  const index = createVectorIndex(usearch, { dimensions: ctx.dims, metric: 'cos', ...graph });
  index.reserve(ctx.n);
  const keys = new Float64Array(ctx.n).map((_, i) => i);
  for (let start = 0; start < ctx.n; start += chunk) {
    const end = Math.min(ctx.n, start + chunk);
    index.addBatch(keys.subarray(start, end), ctx.base.subarray(start * ctx.dims, end * ctx.dims));
  }
  return index;
}

interface Round {
  round: number;
  longship_build_s: number;
  hnswlib_build_s: number;
  optimize_s: number;
  /** Search p50 of each timed pass, in the order run: plain longship and hnswlib alternating, then ordered and hnswlib. */
  longship_p50_ms: number[];
  ordered_p50_ms: number[];
  hnswlib_p50_ms: number[];
  recall10: { longship: number; ordered: number; hnswlib: number };
  load_average: number[];
}

const results: Round[] = [];
for (let r = 0; r < rounds; r++) {
  const loadBefore = loadavg()[0]!;
  // Alternate which builds first, so that neither always builds on a warmer or a busier machine.
  const first = r % 2 === 0 ? 'longship' : 'hnswlib';
  let ours: Awaited<ReturnType<typeof timed<VectorIndex>>> | undefined;
  let theirs: Awaited<ReturnType<typeof timed<HnswIndex>>> | undefined;
  for (const engine of first === 'longship' ? ['longship', 'hnswlib'] : ['hnswlib', 'longship']) {
    if (engine === 'longship') ours = await timed(buildLongship);
    else theirs = await timed(() => buildHnswlib(lib, ctx));
    console.log(`round ${r + 1}: ${engine} built`);
  }
  const longship = ours!.value;
  const hnswlib = theirs!.value;
  const searchOurs = (query: Float32Array) => longship.search(query, ctx.k).map((hit) => hit.key);
  const searchTheirs = (query: Float32Array) => hnswlib.searchKnn(query, ctx.k, undefined).neighbors;
  const figures = { longship: [] as number[], ordered: [] as number[], hnswlib: [] as number[] };
  const recall = { longship: 0, ordered: 0, hnswlib: 0 };
  const alternate = async (name: 'longship' | 'ordered') => {
    for (let p = 0; p < passes; p++) {
      const pair = p % 2 === 0 ? ([name, 'hnswlib'] as const) : (['hnswlib', name] as const);
      for (const engine of pair) {
        const measured = await measureSearch(ctx, engine === 'hnswlib' ? searchTheirs : searchOurs);
        figures[engine].push(measured.p50);
        recall[engine] = measured.recall;
      }
    }
  };
  await alternate('longship');
  const optimized = await timed(() => longship.optimize());
  await alternate('ordered');
  results.push({
    round: r + 1,
    longship_build_s: ours!.ms / 1000,
    hnswlib_build_s: theirs!.ms / 1000,
    optimize_s: optimized.ms / 1000,
    longship_p50_ms: figures.longship,
    ordered_p50_ms: figures.ordered,
    hnswlib_p50_ms: figures.hnswlib,
    recall10: recall,
    load_average: [loadBefore, loadavg()[0]!].map((value) => round(value, 2)!),
  });
  console.log(summary(results.at(-1)!));
  longship.dispose();
  hnswlib.delete();
}

function summary(result: Round): string {
  const ratio = (ours: number[], theirs: number[]) => (median(ours) / median(theirs)).toFixed(2);
  return (
    `round ${result.round}: build ${result.longship_build_s.toFixed(1)} s against ${result.hnswlib_build_s.toFixed(1)} s ` +
    `(${(result.hnswlib_build_s / result.longship_build_s).toFixed(2)}× faster; optimize ${result.optimize_s.toFixed(1)} s); ` +
    `search p50 ${ratio(result.longship_p50_ms, result.hnswlib_p50_ms.slice(0, passes))}× hnswlib-wasm's, ` +
    `ordered ${ratio(result.ordered_p50_ms, result.hnswlib_p50_ms.slice(passes))}×`
  );
}

if (args.json) {
  const rowsOut = results.map((result) => {
    const plainTheirs = result.hnswlib_p50_ms.slice(0, passes);
    const orderedTheirs = result.hnswlib_p50_ms.slice(passes);
    return [
      String(result.round),
      cell(result.longship_build_s, 1),
      cell(result.hnswlib_build_s, 1),
      `${cell(result.hnswlib_build_s / result.longship_build_s, 2)}×`,
      `${cell(result.hnswlib_build_s / (result.longship_build_s + result.optimize_s), 2)}×`,
      cell(median(result.longship_p50_ms), 3),
      cell(median(result.ordered_p50_ms), 3),
      cell(median(result.hnswlib_p50_ms), 3),
      `${cell(median(result.longship_p50_ms) / median(plainTheirs), 2)}×`,
      `${cell(median(result.ordered_p50_ms) / median(orderedTheirs), 2)}×`,
      `${cell(result.recall10.longship, 4)} / ${cell(result.recall10.ordered, 4)} / ${cell(result.recall10.hnswlib, 4)}`,
      result.load_average.join('–'),
    ];
  });
  const markdown = [
    `# longship and hnswlib-wasm side by side (${args.n.toLocaleString('en-US')} × ${args.dims}, one process, taking turns)`,
    '',
    `${data.description}; cosine, M = ${graph.connectivity}, ef_construction = ${graph.expansionAdd}, ef_search = ${graph.expansionSearch}, ` +
      `k = ${args.k}, ${args.queries} queries. Each round builds both (alternating which goes first), then times ${passes} ` +
      `search passes of each, alternating pass by pass; then optimize() (graph order) and ${passes} passes more of each. ` +
      "A search figure is the median of the passes' p50s; ratios compare passes run side by side.",
    '',
    markdownTable(
      [
        'round',
        'longship build s',
        'hnswlib-wasm build s',
        'build: hnswlib ÷ longship',
        'with optimize()',
        'longship p50 ms',
        'ordered p50 ms',
        'hnswlib-wasm p50 ms',
        'longship ÷ hnswlib',
        'ordered ÷ hnswlib',
        'recall@10 (longship / ordered / hnswlib)',
        'load average',
      ],
      rowsOut,
    ),
    '',
  ].join('\n');
  writeReport(
    args.json,
    { n: args.n, dims: args.dims, passes, rounds: results, date: new Date().toISOString() },
    markdown,
  );
}
