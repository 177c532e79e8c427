// Each benchmark's headline figures: the few its runs are compared by, read from its results files,
// and the columns of its history table. A history file (bench/results/<id>.history.json) records
// them once a run, and docs/benchmarks.md shows them.
import { summary as demoSummary } from '../../bench/demo/report.js';
import { median, round } from '../../bench/lib/stats.js';
import type { Column, Figure } from './benchmark-history.js';
import {
  type Browser,
  browserShares,
  coldOpen,
  type Demo,
  type Documents,
  type EmbedRow,
  type LexicalRow,
  type Memory,
  type Quality,
  type Rag,
  readResults,
  type Session,
  type StoreRow,
  type VectorRow,
} from './benchmark-results.js';

export interface Headline {
  /** The history file's name, and the marker `<!-- history: id -->` of the page. */
  readonly id: string;
  /** The results files it reads, for the message when a run is not recorded. */
  readonly files: readonly string[];
  readonly columns: readonly Column[];
  /** The figures of the run in the results files now; each rounded to its column's decimals. */
  figures(root: string): Record<string, Figure>;
  /** When that run was, where the results say (else the recording says when it was recorded). */
  when?(root: string): string | undefined;
}

const column = (key: string, label: string, decimals: number, unit?: string): Column =>
  unit === undefined ? { key, label, decimals } : { key, label, decimals, unit };

/** Figures rounded to their columns' decimals, those the results lack left out. */
function rounded(
  columns: readonly Column[],
  values: Record<string, number | undefined>,
): Record<string, Figure> {
  const figures: Record<string, Figure> = {};
  for (const { key, decimals } of columns) {
    const value = round(values[key], decimals);
    if (value !== null) figures[key] = value;
  }
  return figures;
}

/** `2026-12-04T10:09:43Z` as `2026-12-04 10:09 UTC`. */
export const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const vectorColumns = [
  column('p50', 'longship p50 ms', 3),
  column('orderedP50', 'ordered p50 ms', 3),
  column('hnswP50', 'hnswlib-wasm p50 ms', 3),
  column('searchRatio', 'longship ÷ hnswlib', 2, '×'),
  column('orderedRatio', 'ordered ÷ hnswlib', 2, '×'),
  column('buildRatio', 'build, hnswlib ÷ longship', 2, '×'),
  column('orderedBuildRatio', '… ÷ ordered', 2, '×'),
  column('i8Ratio', 'i8 ÷ hnswlib', 2, '×'),
  column('loadMs', 'load, fresh heap, ms', 0),
];

const vector: Headline = {
  id: 'index',
  files: ['index'],
  columns: vectorColumns,
  figures(root) {
    const rows = readResults<VectorRow[]>(root, 'index');
    const row = (engine: string) => rows.find((r) => r.engine === engine && r.n === 100_000);
    const [longship, ordered, i8, hnsw] = ['longship', 'longship-ordered', 'longship-i8', 'hnswlib-wasm'].map(
      row,
    );
    const ratio = (a?: number, b?: number) => (a !== undefined && b !== undefined ? a / b : undefined);
    return rounded(vectorColumns, {
      p50: longship?.search_p50_ms,
      orderedP50: ordered?.search_p50_ms,
      hnswP50: hnsw?.search_p50_ms,
      searchRatio: ratio(longship?.search_p50_ms, hnsw?.search_p50_ms),
      orderedRatio: ratio(ordered?.search_p50_ms, hnsw?.search_p50_ms),
      buildRatio: ratio(hnsw?.build_s, longship?.build_s),
      orderedBuildRatio: ratio(hnsw?.build_s, ordered?.build_s),
      i8Ratio: ratio(i8?.search_p50_ms, hnsw?.search_p50_ms),
      loadMs: longship?.load_ms ?? undefined,
    });
  },
};

const embedColumns = [
  column('worker1', 'Worker, 1 thread, /s', 1),
  column('worker2', 'Worker, 2 threads, /s', 1),
  column('node1', 'Node, 1 thread, /s', 1),
  column('loadWarm', 'Worker load, warm, ms', 0),
  column('loadNewWorker', 'new Worker load, ms', 0),
];

const embed: Headline = {
  id: 'embed',
  files: ['embed'],
  columns: embedColumns,
  figures(root) {
    const rows = readResults<EmbedRow[]>(root, 'embed');
    const at = (runtime: string, threads: number) =>
      rows.find((r) => r.runtime === runtime && r.dtype === 'q8' && r.batch === 32 && r.threads === threads);
    return rounded(embedColumns, {
      worker1: at('chromium-worker', 1)?.sentences_per_s,
      worker2: at('chromium-worker', 2)?.sentences_per_s,
      node1: at('node', 1)?.sentences_per_s,
      loadWarm: at('chromium-worker', 1)?.load_warm_ms,
      loadNewWorker: at('chromium-worker', 1)?.load_http_cache_ms,
    });
  },
};

const storeColumns = [
  column('reopenMemory', 'reopen ms, memory', 0),
  column('reopenIdb', 'reopen ms, fake-indexeddb', 0),
  column('overheadMemory', 'ingest overhead, memory', 1, ' %'),
  column('overheadIdb', 'ingest overhead, fake-indexeddb', 1, ' %'),
  column('storeIndexMemory', 'store + index ms/doc, memory', 3),
];

const store: Headline = {
  id: 'store',
  files: ['store'],
  columns: storeColumns,
  figures(root) {
    const rows = readResults<StoreRow[]>(root, 'store');
    const memory = rows.find((r) => r.runtime === 'node+memory');
    const idb = rows.find((r) => r.runtime === 'node+fake-indexeddb');
    return rounded(storeColumns, {
      reopenMemory: memory?.reopen_ms,
      reopenIdb: idb?.reopen_ms,
      overheadMemory: memory?.ingest_overhead_pct,
      overheadIdb: idb?.ingest_overhead_pct,
      storeIndexMemory: memory?.store_index_ms_per_doc,
    });
  },
};

const lexicalColumns = [
  column('scifactP50', 'SciFact top-10 p50 ms', 3),
  column('miniSearchP50', 'MiniSearch top-10 p50 ms', 1),
  column('scifactBuild', 'SciFact build ms', 0),
  column('scifactLoad', 'SciFact load ms', 1),
  column('scifactSnapshot', 'SciFact snapshot MB', 2),
  column('obliqaP50', 'ObliQA top-10 p50 ms', 3),
];

const lexical: Headline = {
  id: 'lexical',
  files: ['lexical'],
  columns: lexicalColumns,
  figures(root) {
    const { rows } = readResults<{ rows: LexicalRow[] }>(root, 'lexical');
    const row = (dataset: string, engine: string) =>
      rows.find((r) => r.dataset === dataset && r.engine === engine);
    const scifact = row('SciFact', 'Longship Bm25Index');
    return rounded(lexicalColumns, {
      scifactP50: scifact?.top10_p50_ms,
      miniSearchP50: row('SciFact', 'MiniSearch (previous)')?.top10_p50_ms,
      scifactBuild: scifact?.build_ms,
      scifactLoad: scifact?.load_ms,
      scifactSnapshot: scifact?.snapshot_mb,
      obliqaP50: row('ObliQA passages', 'Longship Bm25Index')?.top10_p50_ms,
    });
  },
};

const qualityColumns = [
  column('default', 'default nDCG@10', 4),
  column('bm25', 'BM25 nDCG@10', 4),
  column('dense', 'dense nDCG@10', 4),
  column('p50', 'default p50 ms', 1),
];

function quality(id: string): Headline {
  return {
    id,
    files: [id],
    columns: qualityColumns,
    figures(root) {
      const { configs } = readResults<Quality>(root, id);
      const config = (name: string) => configs.find((c) => c.name === name);
      return rounded(qualityColumns, {
        default: config('default')?.ndcg10,
        bm25: config('bm25')?.ndcg10,
        dense: config('dense')?.ndcg10,
        p50: config('default')?.p50_ms,
      });
    },
  };
}

/** The RAG sets in the order the page gives them, and their names. */
export const ragSets = ['syllabusqa', 'financebench', 'realtalk'] as const;
export const ragSetNames: Readonly<Record<(typeof ragSets)[number], string>> = {
  syllabusqa: 'SyllabusQA',
  financebench: 'FinanceBench',
  realtalk: 'REALTALK',
};

const ragColumns = [
  column('syllabusqa', 'SyllabusQA R@5', 3),
  column('financebench', 'FinanceBench R@5', 3),
  column('realtalk', 'REALTALK R@5', 3),
  column('syllabusqa8k', 'SyllabusQA R@8k', 3),
  column('financebench8k', 'FinanceBench R@8k', 3),
  column('realtalk8k', 'REALTALK R@8k', 3),
];

const rag: Headline = {
  id: 'rag',
  files: ragSets.map((set) => `rag-${set}`),
  columns: ragColumns,
  figures(root) {
    const values: Record<string, number | undefined> = {};
    for (const set of ragSets) {
      const defaults = readResults<Rag>(root, `rag-${set}`).configs.find((c) => c.name === 'default');
      values[set] = defaults?.recall5;
      values[`${set}8k`] = defaults?.recallAtChars['8000'];
    }
    return rounded(ragColumns, values);
  },
};

const memoryColumns = [
  column('recall5', 'find() recall@5', 3),
  column('recall10', 'find() recall@10', 3),
  column('p50', 'find() p50 ms', 1),
  column('searchRatio', 'search() ÷ find() p50', 2, '×'),
];

const memory: Headline = {
  id: 'memory',
  files: ['memory'],
  columns: memoryColumns,
  figures(root) {
    const results = readResults<Memory>(root, 'memory');
    return rounded(memoryColumns, {
      recall5: results.find.recall5,
      recall10: results.find.recall10,
      p50: results.find.p50_ms,
      searchRatio: results.search_over_find_p50,
    });
  },
};

const sessionColumns = [
  column('p50At10', 'p50 ms at 10 pending', 2),
  column('p50At100k', 'p50 ms at 100,000', 2),
  column('ratio', '100,000 ÷ 10', 2, '×'),
];

const session: Headline = {
  id: 'session',
  files: ['session'],
  columns: sessionColumns,
  figures(root) {
    const { rows, ratio } = readResults<Session>(root, 'session');
    return rounded(sessionColumns, {
      p50At10: rows.find((r) => r.pending === 10)?.p50Ms,
      p50At100k: rows.find((r) => r.pending === 100_000)?.p50Ms,
      ratio,
    });
  },
  when: (root) => utc(readResults<Session>(root, 'session').date),
};

const browserColumns = [
  column('coldRunning', 'cold open ms, running', 0),
  column('coldLaunch', 'after launch', 0),
  column('sharedRunning', 'SharedWorker, running', 0),
  column('sharedLaunch', 'SharedWorker, after launch', 0),
  column('share', 'store + index ÷ model', 1, ' %'),
  column('endToEnd', 'ingestion beyond model', 1, ' %'),
  column('findThinking', 'find() ms, THINKING', 1),
  column('findQuick', 'find() ms, QUICK', 1),
];

const browser: Headline = {
  id: 'browser',
  files: ['browser'],
  columns: browserColumns,
  figures(root) {
    const results = readResults<Browser>(root, 'browser');
    const shares = browserShares(results);
    const find = results.corpora.find((c) => c.embedder === 'model')?.find;
    return rounded(browserColumns, {
      coldRunning: coldOpen(results.large.runs, 'running'),
      coldLaunch: coldOpen(results.large.runs, 'launching'),
      sharedRunning: coldOpen(results.largeShared.runs, 'running'),
      sharedLaunch: coldOpen(results.largeShared.runs, 'launching'),
      share: median(shares.store),
      endToEnd: median(shares.endToEnd),
      findThinking: find && median(find.thinking),
      findQuick: find && median(find.quick),
    });
  },
  when: (root) => utc(readResults<Browser>(root, 'browser').date),
};

const documentsColumns = [
  column('pdf50', 'PDF pages/s, 50 pages', 0),
  column('pdf200', 'PDF pages/s, 200 pages', 0),
  column('docx', 'Word sections/s', 0),
  column('pptx', 'slides/s', 0),
  column('xlsx', 'cells/s', 0),
  column('ingestModel', 'addResource ms/page, model', 1),
  column('ingestWords', 'ms/page, word hash', 1),
  column('pdfLoadKb', 'PDF reader, gzipped KB', 0),
  column('baseGrowthKb', 'base worker growth, gzipped KB', 1),
];

const documents: Headline = {
  id: 'documents',
  files: ['documents'],
  columns: documentsColumns,
  figures(root) {
    const results = readResults<Documents>(root, 'documents');
    const rate = (parser: string, units?: number) =>
      results.throughput.find((r) => r.parser === parser && (units === undefined || r.units === units))
        ?.units_per_s;
    const perPage = (embedder: string) => results.ingest.find((r) => r.embedder === embedder)?.ms_per_page;
    const pdf = results.bundle.readers.find((r) => r.reader === 'pdf');
    return rounded(documentsColumns, {
      pdf50: rate('convertPdf', 50),
      pdf200: rate('convertPdf', 200),
      docx: rate('convertDocx'),
      pptx: rate('convertPptx'),
      xlsx: rate('convertXlsx'),
      ingestModel: perPage('bundled model'),
      ingestWords: perPage('word-hash embedder'),
      pdfLoadKb: pdf && pdf.firstLoad.gzip / 1024,
      baseGrowthKb: results.growthGzip === null ? undefined : results.growthGzip / 1024,
    });
  },
  when: (root) => utc(readResults<Documents>(root, 'documents').date),
};

const demoColumns = [
  column('firstResult', 'first results, s', 2),
  column('firstResultIsolated', '… isolated', 2),
  column('reload', 'reload to results, s', 2),
  column('reloadIsolated', '… isolated', 2),
  column('pagesPerS', 'pages/s, plain', 2),
  column('pagesPerSIsolated', 'isolated', 2),
  column('pagesPerSDedicated', 'isolated, dedicated worker', 2),
  column('ratio', 'isolated ÷ plain', 2, '×'),
  column('ratioDedicated', 'dedicated ÷ plain', 2, '×'),
];

/** The demo in Chromium: the page as served today (plain), isolated, and isolated with its own worker. */
const demo: Headline = {
  id: 'demo',
  files: ['demo'],
  columns: demoColumns,
  figures(root) {
    const [plain, isolated, dedicated] = demoSummary(readResults<Demo>(root, 'demo'));
    return rounded(demoColumns, {
      firstResult: plain?.firstResultS,
      firstResultIsolated: isolated?.firstResultS,
      reload: plain?.reloadS,
      reloadIsolated: isolated?.reloadS,
      pagesPerS: plain?.pagesPerS,
      pagesPerSIsolated: isolated?.pagesPerS,
      pagesPerSDedicated: dedicated?.pagesPerS,
      ratio: isolated?.ratio,
      ratioDedicated: dedicated?.ratio,
    });
  },
  when: (root) => utc(readResults<Demo>(root, 'demo').date),
};

/** Every benchmark with a history, in the page's order. */
export const headlines: readonly Headline[] = [
  vector,
  embed,
  store,
  lexical,
  quality('quality-scifact'),
  quality('quality-obliqa-flat'),
  quality('quality-obliqa-find'),
  rag,
  memory,
  session,
  browser,
  documents,
  demo,
];
