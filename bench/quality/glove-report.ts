// bench:glove's markdown: one row per search mode and model, the blend weight chosen on the tuning half.
import type { MachineFigures } from '../lib/machine.js';
import type { Pooling } from './glove-model.js';
import type { RagRow } from './glove-rag.js';

export interface GloveRow {
  mode: string;
  model: string;
  /** GloVe's vocabulary cut, its size as int8 and its pooling; null for the bundled model alone. */
  words: number | null;
  int8Bytes: number | null;
  pooling: Pooling | null;
  /** The blend weight of the bundled model chosen on the tuning half (1: alone), and each tried one's. */
  w: number;
  tried: Record<string, number>;
  tuning: number;
  reporting: number;
}

export interface GloveReport {
  dataset: string;
  split: string;
  halves: { seed: number; tuning: number; reporting: number };
  rows: GloveRow[];
  /** Recall@5 on a bench:rag dataset, by its halves. */
  rag?: { dataset: string; rows: RagRow[] };
  query_embedding: { queries: number; bundledMs: number; blendedMs: number };
  context: {
    documents: number;
    embedder: string;
    glove_words: number;
    glove_dimensions: number;
    method: string;
    ingest_seconds: number;
    machine: MachineFigures;
  };
}

export function markdown(r: GloveReport): string {
  const sign = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(4)}`;
  const lines = r.rows.map((row) => {
    const alone = r.rows.find((other) => other.mode === row.mode && other.model === 'bundled')!;
    const tried = Object.entries(row.tried)
      .map(([w, score]) => `${w}: ${score.toFixed(4)}`)
      .join(', ');
    return (
      `| ${row.mode} | ${row.model} | ${row.words ?? '—'} | ${row.int8Bytes === null ? '—' : (row.int8Bytes / 1e6).toFixed(1)} | ${row.pooling ?? '—'} | ` +
      `${row.w} | ${row.tuning.toFixed(4)} | ${row.reporting.toFixed(4)} | ` +
      `${sign(row.tuning - alone.tuning)} | ${sign(row.reporting - alone.reporting)} | ${tried || '—'} |`
    );
  });
  const m = r.context.machine;
  const q = r.query_embedding;
  return [
    `# GloVe blended with the bundled model: ${r.dataset} (${r.split})`,
    '',
    `nDCG@10 of find() over ${r.context.documents} documents (results restricted to files), on a tuning half of ` +
      `${r.halves.tuning} queries and a reporting half of ${r.halves.reporting} (each query its own group, seed ` +
      `${r.halves.seed}). The blend scores w·cos(bundled) + (1−w)·cos(GloVe pooled); w is chosen on the tuning ` +
      `half; a blend that loses on the tuning half is not taken. One ingestion holds every blend and the ` +
      `bundled model alone (w 1), scored by inner product (bench/quality/glove-blend.ts). default: find() with no options; dense: quick, α 1, no lexical side. Sizes: GloVe's vocabulary as ` +
      `int8 with its word list. Query embedding, median of ${q.queries} queries: bundled ${q.bundledMs} ms, ` +
      `blended ${q.blendedMs} ms. Machine: ${m.cpu}, ${m.cores} cores, Node ${m.node}.`,
    '',
    '| mode | model | words | int8 MB | pooling | w | tuning | reporting | Δ tuning | Δ reporting | tuning by w |',
    '|:---|:---|---:|---:|:---|---:|---:|---:|---:|---:|:---|',
    ...lines,
    '',
    ...(r.rag ? ragTable(r.rag) : []),
  ].join('\n');
}

function ragTable(rag: NonNullable<GloveReport['rag']>): string[] {
  return [
    `## ${rag.dataset}: recall@5 of find()'s default (check_recall, bench:rag's halves)`,
    '',
    'Each cut at the pooling and w chosen on the tuning half above, for the default mode.',
    '',
    '| model | tuning | reporting | all |',
    '|:---|---:|---:|---:|',
    ...rag.rows.map(
      ({ name, recall5: r }) =>
        `| ${name} | ${r.tuning.toFixed(4)} | ${r.reporting.toFixed(4)} | ${r.all.toFixed(4)} |`,
    ),
    '',
  ];
}
