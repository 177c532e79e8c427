// The tables of docs/benchmarks.md, each made from the results files in bench/results/ as they are
// now: the page's `<!-- results: name -->` markers name them. The full tables, and what each
// benchmark writes beside them, stay in bench/results/<name>.md.

import { machineLine, summaryTable } from '../../bench/demo/report.js';
import {
  baseChanges,
  baseTable,
  groupName,
  ingestTable,
  throughputTable,
} from '../../bench/documents/report.js';
import { cell, markdownTable } from '../../bench/lib/markdown.js';
import { median } from '../../bench/lib/stats.js';
import { ragSetNames, ragSets } from './benchmark-headlines.js';
import {
  type Browser,
  browserShares,
  coldOpen,
  type Demo,
  type Documents,
  type EmbedRow,
  type HugePages,
  type LexicalRow,
  type Memory,
  type Quality,
  type Rag,
  readResults,
  type Session,
  type SideBySide,
  type StoreRow,
  type VectorRow,
} from './benchmark-results.js';

const times = (value: number, decimals = 2) => `${cell(value, decimals)}×`;
const percent = (share: number) => `${cell(100 * share, 0)} %`;
const signed = (value: number, decimals: number) =>
  value < 0 ? `−${cell(-value, decimals)}` : `+${cell(value, decimals)}`;
const range = (values: readonly number[], decimals: number) =>
  `${cell(Math.min(...values), decimals)}–${cell(Math.max(...values), decimals)}`;
const met = (ok: boolean) => (ok ? 'met' : 'not met');

function vectorEngines(root: string): string {
  const rows = readResults<VectorRow[]>(root, 'index').map((r) => [
    r.engine,
    cell(r.n, 0),
    r.quantization,
    cell(r.build_s, 2),
    cell(r.adds_per_s, 0),
    cell(r.search_p50_ms, 3),
    cell(r.search_p95_ms, 3),
    cell(r.recall10, 4),
    cell(r.memory_mb, 1),
    cell(r.bytes === null ? null : r.bytes / 2 ** 20, 1),
    cell(r.load_ms, 1),
    cell(r.view_ms, 1),
  ]);
  const header = ['engine', 'n', 'quant', 'build s', 'adds/s', 'search p50 ms', 'p95 ms', 'recall@10'];
  return markdownTable([...header, 'memory MB', 'serialized MB', 'load ms', 'view ms'], rows);
}

function sideBySide(root: string): string {
  const { rounds } = readResults<SideBySide>(root, 'index-side-by-side');
  const rows = rounds.map((r) => {
    // hnswlib-wasm's passes: those beside the plain build, then those beside the ordered one.
    const passes = r.longship_p50_ms.length;
    const [longship, ordered] = [median(r.longship_p50_ms), median(r.ordered_p50_ms)];
    const [plainTheirs, orderedTheirs] = [r.hnswlib_p50_ms.slice(0, passes), r.hnswlib_p50_ms.slice(passes)];
    return [
      String(r.round),
      cell(r.longship_build_s, 1),
      cell(r.hnswlib_build_s, 1),
      times(r.hnswlib_build_s / r.longship_build_s),
      times(r.hnswlib_build_s / (r.longship_build_s + r.optimize_s)),
      cell(longship, 3),
      cell(ordered, 3),
      cell(median(r.hnswlib_p50_ms), 3),
      times(longship / median(plainTheirs)),
      times(ordered / median(orderedTheirs)),
    ];
  });
  const header = [
    'round',
    'longship build s',
    'hnswlib-wasm build s',
    'hnswlib ÷ longship',
    'with optimize()',
  ];
  const search = [
    'longship p50 ms',
    'ordered p50 ms',
    'hnswlib p50 ms',
    'longship ÷ hnswlib',
    'ordered ÷ hnswlib',
  ];
  return markdownTable([...header, ...search], rows);
}

function embed(root: string): string {
  const rows = readResults<EmbedRow[]>(root, 'embed')
    .filter((r) => r.batch === 32)
    .map((r) => [
      r.runtime,
      r.dtype,
      String(r.threads),
      cell(r.sentences_per_s, 1),
      cell(r.load_ms, 0),
      cell(r.load_warm_ms, 0),
      cell(r.load_http_cache_ms, 0),
    ]);
  const header = ['runtime', 'dtype', 'threads', 'sentences/s', 'load cold ms', 'load warm ms'];
  return markdownTable([...header, 'load, HTTP cache, ms'], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r']);
}

function store(root: string): string {
  const rows = readResults<StoreRow[]>(root, 'store').map((r) => [
    r.runtime,
    cell(r.n, 0),
    cell(r.reopen_ms, 0),
    cell(r.rebuild_ms, 0),
    cell(r.ingest_overhead_pct, 1),
    cell(r.store_index_ms_per_doc, 3),
    cell(r.embed_ms_per_doc, 3),
    cell(r.snapshot_mb, 1),
    cell(r.hnsw_load_ms, 0),
    cell(r.bm25_load_ms, 0),
    cell(r.catalogue_load_ms, 0),
    cell(r.first_scope_ms, 0),
  ]);
  const header = ['runtime', 'n', 'reopen ms', 'rebuild ms', 'ingest overhead %', 'store+index ms/doc'];
  const parts = ['HNSW load ms', 'BM25 load ms', 'owners + catalogue ms', 'first scope ms'];
  return markdownTable([...header, 'embed ms/doc', 'snapshot MB', ...parts], rows);
}

function lexical(root: string): string {
  const { rows } = readResults<{ rows: LexicalRow[] }>(root, 'lexical');
  const cells = rows.map((r) => [
    `${r.dataset} (${cell(r.docs, 0)})`,
    r.engine,
    cell(r.build_ms, 0),
    cell(r.top10_p50_ms, 3),
    cell(r.top10_p95_ms, 3),
    cell(r.all_hits_p50_ms, 2),
    cell(r.snapshot_mb, 2),
    cell(r.load_ms, 1),
    cell(r.ndcg_at_10, 4),
  ]);
  const header = [
    'dataset (docs)',
    'engine',
    'build ms',
    'top-10 p50 ms',
    'top-10 p95 ms',
    'all hits p50 ms',
  ];
  return markdownTable([...header, 'snapshot MB', 'load ms', 'nDCG@10'], cells, ['l', 'l']);
}

function quality(name: string): (root: string) => string {
  return (root) => {
    const rows = readResults<Quality>(root, name).configs.map((c) => [
      c.name === 'default' ? '**default**' : c.name,
      cell(c.ndcg10, 4),
      cell(c.recall10, 4),
      cell(c.recall100, 4),
      cell(c.mrr10, 4),
      cell(c.p50_ms, 1),
      cell(c.p95_ms, 1),
    ]);
    return markdownTable(
      ['config', 'nDCG@10', 'Recall@10', 'Recall@100', 'MRR@10', 'p50 ms', 'p95 ms'],
      rows,
    );
  };
}

function rag(root: string): string {
  const rows: string[][] = [];
  for (const set of ragSets) {
    const results = readResults<Rag>(root, `rag-${set}`);
    results.configs.forEach((c, i) => {
      rows.push([
        i === 0 ? `${ragSetNames[set]} (${cell(results.questions.measured, 0)})` : '',
        c.name,
        cell(c.recall5, 3),
        cell(c.recall10, 3),
        ...(['4000', '8000', '16000'] as const).map((chars) => cell(c.recallAtChars[chars], 3)),
        cell(c.ownRecall5, 3),
        cell(c.chars5, 0),
        percent(c.directoryShare5),
        cell(c.p50Ms, 1),
      ]);
    });
    const { published } = results;
    rows.push([
      '',
      `OpenViking, published (${published.dataset}, ${published.questions})`,
      cell(published.recall5, 3),
    ]);
  }
  const header = ['dataset (questions)', 'config', 'R@5', 'R@10', 'R@4k', 'R@8k', 'R@16k', 'own-doc R@5'];
  return markdownTable([...header, 'chars@5', 'dirs@5', 'p50 ms'], rows, ['l', 'l']);
}

function ragContext(root: string): string {
  const rows = ragSets.map((set) => {
    const { assembly } = readResults<Rag>(root, `rag-${set}`);
    const budgets = assembly.rows.map((r) => `${cell(r.recall, 3)} (cut ${cell(r.cutRecall, 3)})`);
    return [ragSetNames[set], ...budgets, assembly.rows.map((r) => cell(r.p50Ms, 1)).join(' / ')];
  });
  return markdownTable(['dataset', '1,000 tokens', '2,000', '4,000', 'p50 ms (1k / 2k / 4k)'], rows);
}

function ragMisses(root: string): string {
  const rows = ragSets.map((set) => {
    const results = readResults<Rag>(root, `rag-${set}`);
    const e = results.configs.find((c) => c.name === 'default')!.evidence;
    const counts = [
      e.total,
      e.found,
      e.foundElsewhereOnly,
      e.wrongDocument,
      e.wrongSection,
      e.lostInIngestion,
    ];
    return [ragSetNames[set], ...[...counts, e.notInText].map((n) => cell(n, 0)), cell(results.ceiling, 3)];
  });
  const header = [
    'dataset',
    'evidence',
    'found',
    'only outside its document',
    'wrong document',
    'wrong section',
  ];
  return markdownTable([...header, 'lost in ingestion', 'not in the text', 'ceiling'], rows);
}

function memory(root: string): string {
  const results = readResults<Memory>(root, 'memory');
  const rows = (['find', 'search'] as const).map((call) => {
    const r = results[call];
    return [
      `${call}()`,
      cell(r.recall5, 3),
      cell(r.recall10, 3),
      cell(r.hit10, 3),
      cell(r.p50_ms, 1),
      cell(r.p95_ms, 1),
    ];
  });
  return markdownTable(['call', 'recall@5', 'recall@10', 'any evidence in top 10', 'p50 ms', 'p95 ms'], rows);
}

function session(root: string): string {
  const rows = readResults<Session>(root, 'session').rows.map((r) => [
    cell(r.pending, 0),
    cell(r.p50Ms, 2),
    cell(r.p95Ms, 2),
    cell(r.meanMs, 2),
    cell(r.contextP50Ms, 2),
    cell(r.fillS, 1),
    cell(r.rssMb, 0),
    cell(r.heapMb, 0),
  ]);
  const header = ['pending', '`addMessage()` p50 ms', 'p95 ms', 'mean ms', '`context()` p50 ms', 'fill s'];
  return markdownTable([...header, 'RSS MB', 'heap MB'], rows);
}

function browser(root: string): string {
  const results = readResults<Browser>(root, 'browser');
  const rows: string[][] = [];
  const opens = [
    ['a dedicated Worker, in a running browser', results.large.runs, 'running'],
    ['a dedicated Worker, right after the browser’s launch', results.large.runs, 'launching'],
    [
      'a SharedWorker (`openLongshipInWorker()`’s default), in a running browser',
      results.largeShared.runs,
      'running',
    ],
    ['a SharedWorker, right after the launch', results.largeShared.runs, 'launching'],
  ] as const;
  for (const [where, runs, kind] of opens) {
    const ms = coldOpen(runs, kind);
    const each = runs.filter((r) => r.browser === kind).map((r) => cell(r.firstResultMs, 0));
    rows.push([
      `cold open of the 100,000-vector store to the first \`find()\` result, ${where}`,
      `${cell(ms, 0)} ms`,
      each.join(', '),
      '≤ 1,000 ms',
      met(ms <= 1000),
    ]);
  }
  const shares = browserShares(results);
  const share = median(shares.store);
  rows.push([
    'store + index per document in that store, as a share of the bundled model',
    `${cell(share, 1)} %`,
    shares.store.map((s) => cell(s, 1)).join(', '),
    '≤ 10 %',
    met(share <= 10),
  ]);
  const beyond = median(shares.endToEnd);
  rows.push([
    'ingestion end to end there (`addResource()` of 256 notes), beyond the model alone',
    `${signed(beyond, 0)} %`,
    shares.endToEnd.map((s) => signed(s, 0)).join(', '),
    '≤ 10 %',
    met(beyond <= 10),
  ]);
  for (const corpus of results.corpora) {
    const rates = corpus.ingestSeconds.map((s) => corpus.documents / s);
    const embedder = corpus.embedder === 'model' ? 'bundled model' : 'hashed-words embedder';
    rows.push([
      `ingestion, sample corpus (${corpus.documents} pages), ${embedder}`,
      `${cell(median(rates), 1)} docs/s`,
      corpus.ingestSeconds.map((s) => `${cell(s, 1)} s`).join(', '),
      '',
      '',
    ]);
    for (const mode of ['thinking', 'quick'] as const) {
      const calls = corpus.find?.[mode];
      if (!calls) continue;
      const ms = median(calls);
      rows.push([
        `\`find()\` end to end, sample corpus, ${mode.toUpperCase()}, query embedding included`,
        `${cell(ms, 1)} ms`,
        `${calls.length} calls`,
        '≤ 40 ms',
        met(ms <= 40),
      ]);
    }
  }
  return markdownTable(['measure', 'median', 'runs', 'target', ''], rows, ['l', 'r', 'l', 'r', 'l']);
}

function hugePages(root: string): string {
  const { opens } = readResults<HugePages>(root, 'browser-huge-pages');
  const rows = (['running', 'launching'] as const).map((browser) => {
    const of = (pages: string) =>
      opens.filter((o) => o.pages === pages && o.browser === browser).map((o) => o.firstResultMs);
    const [small, huge] = [of('madvise'), of('always')];
    return [
      browser === 'running' ? 'in a running browser' : 'right after the browser’s launch',
      `${cell(median(small), 0)} ms (${range(small, 0)})`,
      `${cell(median(huge), 0)} ms (${range(huge, 0)})`,
      times(median(huge) / median(small)),
    ];
  });
  return markdownTable(
    ['cold open to the first `find()` result', '4 KB pages (the machine’s)', '2 MB pages', 'ratio'],
    rows,
  );
}

/** The line under the Documents heading: when, on what, how busy, at what priority. */
function documentsMachine(root: string): string {
  const { date, machine, niceness, runs } = readResults<Documents>(root, 'documents');
  return (
    `Measured ${date.slice(0, 10)} on ${machine.cores} × ${machine.cpu}, Node ${machine.node}, load average ` +
    `${cell(machine.loadAverage, 1)} at the start, at nice ${niceness} (the machine is shared); medians of ${runs} runs.`
  );
}

const documentsThroughput = (root: string) =>
  throughputTable(readResults<Documents>(root, 'documents').throughput);

const documentsIngest = (root: string) => ingestTable(readResults<Documents>(root, 'documents'));

/** Each reader: what its first file loads beyond the base, and which packages that is. */
function documentsBundle(root: string): string {
  const { bundle } = readResults<Documents>(root, 'documents');
  const kb = (bytes: number) => cell(bytes / 1024, 1);
  const rows = bundle.readers.map((reader) => {
    const parts = bundle.groups
      .filter((group) => group.readers.includes(reader.reader))
      .map((group) => {
        const top = group.inputs
          .slice(0, 3)
          .map((input) => `${input.input.replace(/^src\/ingest\/convert\//, '')} ${kb(input.raw)}`);
        const whose = group.readers.length === 1 ? '' : `${groupName(group.readers)}: `;
        return `${whose}${top.join(', ')}`;
      });
    return [
      reader.reader,
      kb(reader.firstLoad.raw),
      kb(reader.firstLoad.gzip),
      kb(reader.own.gzip),
      parts.join('; '),
    ];
  });
  rows.push([
    '(not a reader) the model runtime and the tokenizer',
    kb(bundle.otherOnDemand.raw),
    kb(bundle.otherOnDemand.gzip),
    '',
    '',
  ]);
  const header = [
    'reader',
    'its first file loads, KB',
    'gzipped KB',
    'of it, its own, gzipped',
    'largest inputs (KB before gzip)',
  ];
  return markdownTable(header, rows, ['l', 'r', 'r', 'r', 'l']);
}

/** The base worker chunk now and before the readers, and what changed most in it. */
function documentsBase(root: string): string {
  const report = readResults<Documents>(root, 'documents');
  const changes = baseChanges(report, 5);
  return changes ? `${baseTable(report)}\n\nWhat changed most in it: ${changes}.` : baseTable(report);
}

/** The demo's figures under each serving, with the line that says when and where. */
function demo(root: string): string {
  const report = readResults<Demo>(root, 'demo');
  return `${machineLine(report)}\n\n${summaryTable(report)}`;
}

/** Every table the page can name, by its marker's name. */
export const tables: Readonly<Record<string, (root: string) => string>> = {
  'vector-engines': vectorEngines,
  'vector-side-by-side': sideBySide,
  embed,
  store,
  lexical,
  'quality-scifact': quality('quality-scifact'),
  'quality-obliqa-flat': quality('quality-obliqa-flat'),
  'quality-obliqa-find': quality('quality-obliqa-find'),
  rag,
  'rag-context': ragContext,
  'rag-misses': ragMisses,
  memory,
  session,
  browser,
  'huge-pages': hugePages,
  'documents-machine': documentsMachine,
  'documents-throughput': documentsThroughput,
  'documents-ingest': documentsIngest,
  'documents-bundle': documentsBundle,
  'documents-base': documentsBase,
  demo,
};
