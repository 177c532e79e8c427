// The shapes of the results files in bench/results/ that docs/benchmarks.md reads: only the fields
// the page shows. Each is what its benchmark writes (bench/*/run.ts); older files may lack a field.
import { readFileSync } from 'node:fs';
import { median } from '../../bench/lib/stats.js';

export interface VectorRow {
  engine: string;
  n: number;
  quantization: string;
  build_s: number;
  adds_per_s: number;
  search_p50_ms: number;
  search_p95_ms: number;
  recall10: number;
  memory_mb: number;
  bytes: number | null;
  load_ms: number | null;
  view_ms?: number | null;
}

export interface SideBySide {
  date: string;
  rounds: {
    round: number;
    longship_build_s: number;
    hnswlib_build_s: number;
    optimize_s: number;
    longship_p50_ms: number[];
    ordered_p50_ms: number[];
    hnswlib_p50_ms: number[];
  }[];
}

export interface EmbedRow {
  runtime: string;
  dtype: string;
  threads: number;
  batch: number;
  sentences_per_s: number;
  load_ms: number;
  load_warm_ms: number;
  load_http_cache_ms?: number;
}

export interface StoreRow {
  runtime: string;
  n: number;
  reopen_ms: number;
  rebuild_ms: number;
  ingest_overhead_pct: number;
  store_index_ms_per_doc: number;
  embed_ms_per_doc: number;
  snapshot_mb: number;
  hnsw_load_ms: number;
  bm25_load_ms: number;
  catalogue_load_ms: number;
  first_scope_ms: number;
}

export interface LexicalRow {
  dataset: string;
  engine: string;
  docs: number;
  build_ms: number;
  top10_p50_ms: number;
  top10_p95_ms: number;
  all_hits_p50_ms: number | null;
  snapshot_mb: number;
  load_ms: number;
  ndcg_at_10: number | null;
}

export interface QualityConfig {
  name: string;
  ndcg10: number;
  recall10: number;
  recall100: number;
  mrr10: number;
  p50_ms?: number;
  p95_ms?: number;
}

export interface Quality {
  n_queries: number;
  configs: QualityConfig[];
}

export interface RagConfig {
  name: string;
  recall5: number;
  recall10: number;
  recallAtChars: Record<'4000' | '8000' | '16000', number>;
  ownRecall5: number;
  chars5: number;
  directoryShare5: number;
  p50Ms: number;
  evidence: Record<
    | 'total'
    | 'found'
    | 'foundElsewhereOnly'
    | 'wrongDocument'
    | 'wrongSection'
    | 'lostInIngestion'
    | 'notInText',
    number
  >;
}

export interface Rag {
  dataset: string;
  questions: { measured: number };
  ceiling: number;
  published: { recall5: number; questions: number; dataset: string };
  configs: RagConfig[];
  assembly: { rows: { tokens: number; recall: number; cutRecall: number; p50Ms: number }[] };
}

export interface Memory {
  questions: number;
  find: { recall5: number; recall10: number; hit10: number; p50_ms: number; p95_ms: number };
  search: { recall5: number; recall10: number; hit10: number; p50_ms: number; p95_ms: number };
  search_over_find_p50: number;
}

export interface Session {
  date: string;
  rows: {
    pending: number;
    p50Ms: number;
    p95Ms: number;
    meanMs: number;
    contextP50Ms: number;
    fillS: number;
    rssMb: number;
    heapMb: number;
  }[];
  ratio: number;
}

interface ColdOpen {
  browser: 'running' | 'launching';
  firstResultMs: number;
}

export interface Browser {
  date: string;
  large: {
    runs: ColdOpen[];
    ingest: {
      storeIndexMsPerDoc: number;
      embedMsPerDoc: number;
      endToEnd: { ingestMs: number; modelMs: number }[];
    }[];
  };
  largeShared: { runs: ColdOpen[] };
  largeSharedDate: string;
  corpora: {
    embedder: string;
    ingestSeconds: number[];
    documents: number;
    find?: Record<'thinking' | 'quick', number[]>;
  }[];
}

export interface HugePages {
  date: string;
  opens: { pages: string; browser: 'running' | 'launching'; firstResultMs: number }[];
}

/** bench/results/demo.json, as bench/demo/run.ts writes it. */
export type { DemoReport as Demo } from '../../bench/demo/report.js';
/** bench/results/documents.json, as bench/documents/run.ts writes it. */
export type { DocumentsReport as Documents } from '../../bench/documents/report.js';

/** Reads `bench/results/<name>.json` under `root`. */
export function readResults<T>(root: string, name: string): T {
  return JSON.parse(readFileSync(`${root}bench/results/${name}.json`, 'utf8')) as T;
}

/** The median first result of the cold opens of one kind (a running browser, or one just launched). */
export function coldOpen(runs: readonly ColdOpen[], browser: ColdOpen['browser']): number {
  return median(runs.filter((run) => run.browser === browser).map((run) => run.firstResultMs));
}

/** Store + index as a share of the model (%), each run's; and end to end beyond the model (%), each job's. */
export function browserShares(browser: Browser): { store: number[]; endToEnd: number[] } {
  return {
    store: browser.large.ingest.map((run) => (100 * run.storeIndexMsPerDoc) / run.embedMsPerDoc),
    endToEnd: browser.large.ingest.flatMap((run) =>
      run.endToEnd.map((job) => (100 * (job.ingestMs - job.modelMs)) / job.modelMs),
    ),
  };
}
