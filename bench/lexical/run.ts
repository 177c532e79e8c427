// npm run bench:lexical -- [--runs 3] [--scale 100000] [--json bench/results/lexical.json] [--only Longship]
//   [--eval-dir DIR] (default ../shared/eval; the smoke run gives it bench/fixtures/eval)
// The BM25 side by side, in one process: Longship's Bm25Index, the MiniSearch-based index it
// replaced (bench/lexical/minisearch-index.ts) and Orama, on BEIR SciFact and the ObliQA passages
// (both from ../shared/eval beside the repository; a dataset that is missing is skipped). Build
// time, query latency, snapshot size and load time, nDCG@10; medians over --runs runs. Then
// Longship's index alone on SciFact repeated to --scale documents, for the snapshot load time at
// the size of the store target.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, insertMultiple, load, type Orama, save, search } from '@orama/orama';
import { createLexicalIndex, loadLexicalIndex } from '../../src/lexical/bm25-index.js';
import type { LexicalDoc, LexicalIndex } from '../../src/lexical/lexical-index.js';
import { measureMachine } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { median, quantile, round } from '../lib/stats.js';
import { goldKey, loadObliqa } from '../quality/obliqa-data.js';
import { createMiniSearchIndex, loadMiniSearchIndex } from './minisearch-index.js';

const defaultEvalDir = fileURLToPath(new URL('../../../shared/eval/', import.meta.url));
const TOP = 10;
// Queries per dataset (ObliQA has 2,788 questions; Orama takes ~0.1 s on each long one), and how
// many of them are also timed for every hit in scope.
const MAX_QUERIES = 1000;
const ALL_HIT_QUERIES = 200;

interface Args {
  runs: number;
  scale: number;
  json: string;
  /** Run only the engines whose name contains this, keeping the other rows already in --json. */
  only: string | undefined;
  /** Where SciFact (`scifact/`) and ObliQA (`obliqa/`) are. */
  evalDir: string;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    runs: 3,
    scale: 100_000,
    json: 'bench/results/lexical.json',
    only: undefined,
    evalDir: defaultEvalDir,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--') continue;
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--runs') args.runs = Number(value);
    else if (flag === '--scale') args.scale = Number(value);
    else if (flag === '--json') args.json = value;
    else if (flag === '--only') args.only = value;
    else if (flag === '--eval-dir') args.evalDir = `${value.replace(/\/+$/, '')}/`;
    else throw new Error(`unknown flag ${flag}`);
  }
  return args;
}

interface Query {
  text: string;
  /** Graded relevance by document key. */
  relevant: Map<number, number>;
}

interface Dataset {
  name: string;
  docs: LexicalDoc[];
  queries: Query[];
  /** False when the relevance judgements do not cover the documents (a scaled copy). */
  judged: boolean;
}

/** A built index, as the benchmark drives it. */
interface Built {
  /** The best TOP keys. */
  top(query: string): Promise<number[]> | number[];
  /** Every match within a scope of all keys, as find() asks for them; the number of hits. */
  all?(query: string, scope: ReadonlySet<number>): number;
  save(): Uint8Array;
  load(bytes: Uint8Array): Promise<Built> | Built;
}

interface Engine {
  name: string;
  /** Runs of this engine: Orama's slow queries make one run take minutes. */
  runs?: number;
  build(docs: readonly LexicalDoc[]): Promise<Built>;
}

function lexicalEngine(
  name: string,
  createIndex: () => LexicalIndex,
  loadIndex: (bytes: Uint8Array) => LexicalIndex,
): Engine {
  const wrap = (index: LexicalIndex): Built => ({
    top: (query) => index.search(query, { limit: TOP }).map((hit) => hit.key),
    all: (query, scope) => index.search(query, { limit: Number.POSITIVE_INFINITY, allow: scope }).length,
    save: () => index.serialize(),
    load: (bytes) => wrap(loadIndex(bytes)),
  });
  return {
    name,
    build: async (docs) => {
      const index = createIndex();
      for (const doc of docs) index.add(doc);
      return wrap(index);
    },
  };
}

const oramaSchema = { title: 'string', body: 'string' } as const;
// English stemming on, stop words at their default; title boost 2 as in the other two.
const newOrama = () => create({ schema: oramaSchema, components: { tokenizer: { stemming: true } } });

const oramaEngine: Engine = {
  name: 'Orama 3',
  runs: 1,
  build: async (docs) => {
    const db = newOrama();
    const rows = docs.map((doc) => ({ id: String(doc.key), title: doc.title ?? '', body: doc.body }));
    await insertMultiple(db, rows, 1000);
    return wrapOrama(db);
  },
};

function wrapOrama(db: Orama<typeof oramaSchema>): Built {
  return {
    top: async (query) => {
      const result = await search(db, {
        term: query,
        properties: ['title', 'body'],
        boost: { title: 2 },
        limit: TOP,
      });
      return result.hits.map((hit) => Number(hit.id));
    },
    save: () => new TextEncoder().encode(JSON.stringify(save(db))),
    load: (bytes) => {
      const copy = newOrama();
      load(copy, JSON.parse(new TextDecoder().decode(bytes)));
      return wrapOrama(copy);
    },
  };
}

const engines: Engine[] = [
  lexicalEngine(
    'Longship Bm25Index',
    () => createLexicalIndex(),
    (bytes) => loadLexicalIndex(bytes),
  ),
  lexicalEngine(
    'MiniSearch (previous)',
    () => createMiniSearchIndex(),
    (bytes) => loadMiniSearchIndex(bytes),
  ),
  oramaEngine,
];

function scifact(evalDir: string): Dataset | undefined {
  const dir = `${evalDir}scifact/`;
  if (!existsSync(`${dir}corpus.jsonl`)) return undefined;
  const jsonl = <T>(file: string): T[] =>
    readFileSync(dir + file, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as T);
  const corpus = jsonl<{ _id: string; title: string; text: string }>('corpus.jsonl');
  const keyOf = new Map(corpus.map((doc, key) => [doc._id, key]));
  const relevant = new Map<string, Map<number, number>>();
  for (const line of readFileSync(`${dir}qrels/train.tsv`, 'utf8').split('\n').slice(1)) {
    const [query, doc, score] = line.split('\t');
    const key = doc === undefined ? undefined : keyOf.get(doc);
    if (!query || key === undefined) continue;
    const graded = relevant.get(query) ?? new Map<number, number>();
    graded.set(key, Number(score));
    relevant.set(query, graded);
  }
  const queries = jsonl<{ _id: string; text: string }>('queries.jsonl').flatMap((query) => {
    const graded = relevant.get(query._id);
    return graded ? [{ text: query.text, relevant: graded }] : [];
  });
  const docs = corpus.map((doc, key) => ({ key, title: doc.title, body: doc.text }));
  return { name: 'SciFact', docs, queries: queries.slice(0, MAX_QUERIES), judged: true };
}

function obliqa(evalDir: string): Dataset | undefined {
  const dir = `${evalDir}obliqa`;
  if (!existsSync(`${dir}/ObliQA_dev.json`)) return undefined;
  const { passages, questions } = loadObliqa(dir);
  const keyOf = new Map(passages.map((passage, key) => [goldKey(passage.doc, passage.id), key]));
  const docs = passages.map((passage, key) => ({ key, body: passage.text }));
  const queries = questions.map((question) => ({
    text: question.text,
    relevant: new Map(
      question.gold.flatMap((gold) => (keyOf.has(gold) ? [[keyOf.get(gold)!, 1] as [number, number]] : [])),
    ),
  }));
  return { name: 'ObliQA passages', docs, queries: queries.slice(0, MAX_QUERIES), judged: true };
}

interface Figures {
  dataset: string;
  engine: string;
  docs: number;
  queries: number;
  build_ms: number | null;
  top10_p50_ms: number | null;
  top10_p95_ms: number | null;
  /** Every hit in a scope of all documents, as find() asks (Longship and MiniSearch only). */
  all_hits_p50_ms: number | null;
  all_hits_p95_ms: number | null;
  snapshot_mb: number | null;
  save_ms: number | null;
  load_ms: number | null;
  ndcg_at_10: number | null;
  same_after_load: boolean;
}

const gc = (globalThis as { gc?: () => void }).gc;

async function timed<T>(run: () => Promise<T> | T): Promise<[number, T]> {
  gc?.();
  const started = performance.now();
  const value = await run();
  return [performance.now() - started, value];
}

async function measure(engine: Engine, dataset: Dataset, runs: number): Promise<Figures> {
  const allHitQueries = dataset.queries.slice(0, ALL_HIT_QUERIES);
  const scope = new Set(dataset.docs.map((doc) => doc.key));
  const perRun: Omit<Figures, 'dataset' | 'engine' | 'docs' | 'queries'>[] = [];
  const runCount = Math.min(runs, engine.runs ?? runs);
  for (let run = 0; run < runCount; run++) {
    const [buildMs, built] = await timed(() => engine.build(dataset.docs));
    let ndcg = 0;
    const answers: number[][] = [];
    const top: number[] = [];
    for (const query of dataset.queries) {
      const started = performance.now();
      const keys = await built.top(query.text);
      top.push(performance.now() - started);
      answers.push(keys);
      ndcg += ndcgAt10(keys, query.relevant);
    }
    const all: number[] = [];
    if (built.all) {
      for (const query of allHitQueries) {
        const started = performance.now();
        built.all(query.text, scope);
        all.push(performance.now() - started);
      }
    }
    const [saveMs, bytes] = await timed(() => built.save());
    const [loadMs, loaded] = await timed(() => built.load(bytes));
    let same = true;
    for (const [i, query] of dataset.queries.slice(0, 50).entries()) {
      same &&= JSON.stringify(await loaded.top(query.text)) === JSON.stringify(answers[i]);
    }
    perRun.push({
      build_ms: buildMs,
      top10_p50_ms: quantile(top, 0.5),
      top10_p95_ms: quantile(top, 0.95),
      all_hits_p50_ms: all.length ? quantile(all, 0.5) : null,
      all_hits_p95_ms: all.length ? quantile(all, 0.95) : null,
      snapshot_mb: bytes.byteLength / 1e6,
      save_ms: saveMs,
      load_ms: loadMs,
      ndcg_at_10: dataset.judged ? ndcg / dataset.queries.length : null,
      same_after_load: same,
    });
    console.log(
      `${dataset.name} · ${engine.name} · run ${run + 1}/${runCount}: build ${buildMs.toFixed(0)} ms, ` +
        `top-10 p50 ${quantile(top, 0.5).toFixed(3)} ms, load ${loadMs.toFixed(0)} ms`,
    );
  }
  const mid = (pick: (figures: (typeof perRun)[number]) => number | null, digits: number) => {
    const values = perRun.map(pick).filter((value): value is number => value !== null);
    return values.length ? round(median(values), digits) : null;
  };
  return {
    dataset: dataset.name,
    engine: engine.name,
    docs: dataset.docs.length,
    queries: dataset.queries.length,
    build_ms: mid((f) => f.build_ms, 0),
    top10_p50_ms: mid((f) => f.top10_p50_ms, 3),
    top10_p95_ms: mid((f) => f.top10_p95_ms, 3),
    all_hits_p50_ms: mid((f) => f.all_hits_p50_ms, 3),
    all_hits_p95_ms: mid((f) => f.all_hits_p95_ms, 3),
    snapshot_mb: mid((f) => f.snapshot_mb, 2),
    save_ms: mid((f) => f.save_ms, 0),
    load_ms: mid((f) => f.load_ms, 1),
    ndcg_at_10: mid((f) => f.ndcg_at_10, 4),
    same_after_load: perRun.every((f) => f.same_after_load),
  };
}

function ndcgAt10(keys: readonly number[], relevant: ReadonlyMap<number, number>): number {
  const dcg = (gains: readonly number[]) => gains.reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
  const ideal = dcg([...relevant.values()].sort((a, b) => b - a).slice(0, 10));
  return ideal > 0 ? dcg(keys.slice(0, 10).map((key) => relevant.get(key) ?? 0)) / ideal : 0;
}

/** SciFact's documents repeated (new keys) up to n. */
function scaled(dataset: Dataset, n: number): Dataset {
  const docs = Array.from({ length: n }, (_, key) => ({ ...dataset.docs[key % dataset.docs.length]!, key }));
  return {
    name: `${dataset.name} ×${(n / dataset.docs.length).toFixed(1)}`,
    docs,
    queries: dataset.queries,
    judged: false,
  };
}

function report(rows: readonly Figures[], machine: ReturnType<typeof measureMachine>): string {
  const lines = [
    '# bench:lexical — BM25 side by side',
    '',
    `${new Date().toISOString()}, ${machine.cores} × ${machine.cpu}, Node ${machine.node}, load average ` +
      `${machine.loadAverage.toFixed(1)} at the start. Generated by \`npm run bench:lexical\`; see bench/lexical/run.ts.`,
    '',
  ];
  const datasets = [...new Set(rows.map((row) => row.dataset))];
  for (const dataset of datasets) {
    const group = rows.filter((row) => row.dataset === dataset);
    const ours = group[0]!;
    lines.push(`## ${dataset} (${ours.docs.toLocaleString('en-US')} docs, ${ours.queries} queries)`, '');
    const table = group.map((row) => [
      row.engine,
      cell(row.build_ms, 0),
      cell(row.top10_p50_ms, 3),
      cell(row.top10_p95_ms, 3),
      cell(row.all_hits_p50_ms, 2),
      cell(row.all_hits_p95_ms, 2),
      cell(row.snapshot_mb, 2),
      cell(row.load_ms, 1),
      cell(row.ndcg_at_10, 4),
      row.same_after_load ? 'yes' : 'NO',
    ]);
    for (const row of group.slice(1)) {
      const ratio = (a: number | null, b: number | null) =>
        a !== null && b !== null && b > 0 ? `${cell(a / b, 1)}×` : '—';
      table.push([
        `${row.engine} ÷ Longship`,
        ratio(row.build_ms, ours.build_ms),
        ratio(row.top10_p50_ms, ours.top10_p50_ms),
        ratio(row.top10_p95_ms, ours.top10_p95_ms),
        ratio(row.all_hits_p50_ms, ours.all_hits_p50_ms),
        ratio(row.all_hits_p95_ms, ours.all_hits_p95_ms),
        ratio(row.snapshot_mb, ours.snapshot_mb),
        ratio(row.load_ms, ours.load_ms),
        '',
        '',
      ]);
    }
    lines.push(
      markdownTable(
        [
          'engine',
          'build ms',
          'top-10 p50 ms',
          'top-10 p95 ms',
          'all hits p50 ms',
          'all hits p95 ms',
          'snapshot MB',
          'load ms',
          'nDCG@10',
          'same after load',
        ],
        table,
      ),
      '',
    );
  }
  lines.push(
    '- **top-10**: `search(query, { limit: 10 })`, each query timed alone (ObliQA: its first 1,000 questions).',
    '- **all hits**: every match in a scope holding all documents (`limit: Infinity`, `allow`: a set of all keys),',
    '  as `find()` asks the lexical side, over the first 200 queries; Orama has no equivalent.',
    '- **snapshot**: Longship `serialize()` (binary), MiniSearch `JSON.stringify(toJSON())`, Orama `JSON.stringify(save())`;',
    '  **load** turns those bytes back into an index that answers queries.',
    '- Orama 3 runs with its own tokenizer (English stemming on) and BM25 (k1 1.2, b 0.75, d 0.5), title boost 2;',
    '  its nDCG is not the same analysis, so compare it for speed and size, not for ranking.',
    '- Medians over the runs (Orama: one run; its queries alone take minutes). Figures depend on the machine load.',
  );
  return `${lines.join('\n')}\n`;
}

function previousRows(json: string, dataset: string, engine: string): Figures[] {
  if (!existsSync(json)) return [];
  const { rows } = JSON.parse(readFileSync(json, 'utf8')) as { rows: Figures[] };
  return rows.filter((row) => row.dataset === dataset && row.engine === engine);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const machine = measureMachine();
  const datasets = [scifact(args.evalDir), obliqa(args.evalDir)].filter(
    (dataset): dataset is Dataset => dataset !== undefined,
  );
  if (datasets.length === 0) {
    console.log(`No dataset under ${args.evalDir}; nothing to measure.`);
    return;
  }
  const chosen = engines.filter((engine) => !args.only || engine.name.includes(args.only));
  const rows: Figures[] = [];
  for (const dataset of datasets) {
    for (const engine of engines) {
      if (chosen.includes(engine)) rows.push(await measure(engine, dataset, args.runs));
      else if (args.only) rows.push(...previousRows(args.json, dataset.name, engine.name));
    }
  }
  const sci = datasets.find((dataset) => dataset.name === 'SciFact');
  if (sci && args.scale > 0 && chosen.includes(engines[0]!)) {
    rows.push(await measure(engines[0]!, scaled(sci, args.scale), args.runs));
  }
  mkdirSync(dirname(args.json), { recursive: true });
  writeFileSync(args.json, `${JSON.stringify({ machine, rows }, null, 2)}\n`);
  const markdown = args.json.replace(/\.json$/, '.md');
  writeFileSync(markdown, report(rows, machine));
  console.log(`wrote ${args.json} and ${markdown}`);
}

await main();
