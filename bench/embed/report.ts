// Rows, medians and the markdown report of `npm run bench:embed`.

/** One configuration's medians over the repetitions. */
export interface Row {
  runtime: 'node' | 'chromium-worker';
  /** `cpu`: onnxruntime-node; `wasm`: onnxruntime-web's WASM backend. */
  backend: 'cpu' | 'wasm';
  dtype: 'q8' | 'fp32';
  batch: number;
  threads: number;
  sentences_per_s: number;
  /** The best repetition: what the machine did in its quietest moment. */
  sentences_per_s_max: number;
  /** First load in a fresh process (Node) or a fresh browser context's first worker (Chromium). */
  load_ms: number;
  /** A second load right after, in the same process or worker. */
  load_warm_ms: number;
  /** Chromium: the first load of a new worker in the same page, its files in the HTTP cache. */
  load_http_cache_ms?: number;
  /** Chromium: which onnxruntime-web files ran. */
  wasm_build?: 'plain' | 'asyncify';
  /** A model folder other than the bundled model/use-lite (`--model`). */
  model?: string;
  reps: number;
}

export interface ReportContext {
  date: string;
  revision: string;
  node: string;
  chromium: string | undefined;
  cpu: string;
  cores: number;
  loadAverageBefore: number;
  loadAverageAfter: number;
  /** The 1-minute load average after each measurement. */
  loadAverages: readonly number[];
  sentences: number;
  source: string;
  minutes: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined
    ? '—'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The rows as a GitHub-flavoured markdown table. */
export function markdownTable(rows: readonly Row[]): string {
  const header = [
    'runtime',
    'backend',
    'dtype',
    'threads',
    'batch',
    'sentences/s',
    'best rep',
    'load cold (ms)',
    'load warm (ms)',
    'load, HTTP cache (ms)',
  ];
  const lines = rows.map((row) => [
    row.runtime,
    row.wasm_build && row.wasm_build !== 'plain' ? `${row.backend} (${row.wasm_build})` : row.backend,
    row.dtype,
    String(row.threads),
    String(row.batch),
    fixed(row.sentences_per_s, 1),
    fixed(row.sentences_per_s_max, 1),
    fixed(row.load_ms, 0),
    fixed(row.load_warm_ms, 0),
    fixed(row.load_http_cache_ms, 0),
  ]);
  const align = header.map((_, i) => (i < 3 ? ':---' : '---:'));
  return [header, align, ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

interface Verdict {
  target: string;
  measured: string;
  met: boolean | undefined;
}

/** The targets of the embeddings issue, judged on the rows (undefined: not measured). */
export function verdicts(rows: readonly Row[]): Verdict[] {
  const find = (runtime: Row['runtime'], dtype: Row['dtype'], threads: number, batch: number) =>
    rows.find(
      (r) => r.runtime === runtime && r.dtype === dtype && r.threads === threads && r.batch === batch,
    );
  const one = find('chromium-worker', 'q8', 1, 32);
  const two = find('chromium-worker', 'q8', 2, 32);
  const nodeRows = rows.filter((r) => r.runtime === 'node' && r.dtype === 'q8' && r.batch === 32);
  const bestNode = nodeRows.sort((a, b) => b.sentences_per_s - a.sentences_per_s)[0];
  const result: Verdict[] = [];
  result.push({
    target: 'Chromium module Worker, WASM, 1 thread, q8, batch 32: ≥ 80 sentences/s',
    measured: one ? `${fixed(one.sentences_per_s, 1)}/s` : 'not run',
    met: one && one.sentences_per_s >= 80,
  });
  result.push({
    target: 'the same with threads on 2 cores: ≥ 1.6 × one thread',
    measured: one && two ? `${fixed(two.sentences_per_s / one.sentences_per_s, 2)} ×` : 'not run',
    met: one && two && two.sentences_per_s / one.sentences_per_s >= 1.6,
  });
  result.push({
    target: 'Node, q8, batch 32: ≥ 300 sentences/s',
    measured: bestNode
      ? `${fixed(bestNode.sentences_per_s, 1)}/s (${bestNode.threads} thread${bestNode.threads > 1 ? 's' : ''})`
      : 'not run',
    met: bestNode && bestNode.sentences_per_s >= 300,
  });
  result.push({
    target:
      'model load in the Worker, warm: ≤ 1.5 s (q8, 1 thread; runtime started, files from the HTTP cache)',
    measured: one ? `${fixed(one.load_warm_ms, 0)} ms` : 'not run',
    met: one && one.load_warm_ms <= 1500,
  });
  result.push({
    target: 'the same in a new Worker (onnxruntime-web starts too; files from the HTTP cache)',
    measured: one?.load_http_cache_ms !== undefined ? `${fixed(one.load_http_cache_ms, 0)} ms` : 'not run',
    met: one?.load_http_cache_ms === undefined ? undefined : one.load_http_cache_ms <= 1500,
  });
  return result;
}

export function markdownReport(rows: readonly Row[], context: ReportContext): string {
  const mark = (met: boolean | undefined) => (met === undefined ? '—' : met ? 'met' : 'missed');
  return `# bench:embed

Sentence embeddings with the bundled USE-lite through \`transformersEmbedder\`: Node (onnxruntime-node)
and a module Worker in headless Chromium (onnxruntime-web, WASM). Medians of ${rows[0]?.reps ?? 0}
repetitions. ${context.date.slice(0, 10)}, \`${context.revision}\`, Node ${context.node}, Chromium ${
    context.chromium ?? '—'
  }, ${context.cores} × ${context.cpu}; load average ${context.loadAverageBefore.toFixed(1)} before and ${context.loadAverageAfter.toFixed(
    1,
  )} after, ${fixed(Math.min(...context.loadAverages), 1)}–${fixed(Math.max(...context.loadAverages), 1)} (median ${fixed(
    median(context.loadAverages),
    1,
  )}) across the measurements; above ${context.cores}, other work on the machine competed for its cores, so
the figures are noisy. ${context.minutes.toFixed(0)} minutes.

Model: ${rows[0]?.model ? `\`${rows[0].model}\` (not the bundled conversion)` : 'the bundled `model/use-lite`'}.
Texts: ${context.source} (${context.sentences}). Throughput is one \`embed\` call over all of them
after a warm-up, tokenization included; the embedder sorts each window of texts by token count
before batching. Load: from \`new transformersEmbedder\` to the first vector. Cold: a fresh process,
or a fresh browser profile's first worker (download, WASM compile, session). Warm: a second load
right after in the same process or worker. HTTP cache: a new worker in the same page, its files
from the profile's disk cache. Threads above
1 in Chromium run in a cross-origin isolated page (COOP/COEP).

${markdownTable(rows)}

| target | measured | |
|:---|:---|:---|
${verdicts(rows)
  .map((v) => `| ${v.target} | ${v.measured} | ${mark(v.met)} |`)
  .join('\n')}
`;
}
