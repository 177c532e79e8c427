// The shape of bench/results/documents.json and the markdown beside it.
import type { MachineFigures } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import type { BaseChunk, BundleCost, Reader, Size } from './bundle-cost.js';

export interface ThroughputRow {
  reader: Reader;
  /** Longship's converter, or the library call it builds on. */
  parser: string;
  document: string;
  bytes: number;
  /** What is counted: pages, sections, slides or cells. */
  unit: string;
  units: number;
  median_ms: number;
  units_per_s: number;
  ms_per_unit: number;
  runs_ms: number[];
}

export interface IngestRow {
  embedder: string;
  pages: number;
  median_ms: number;
  ms_per_page: number;
  pages_per_s: number;
  runs_ms: number[];
}

export interface DocumentsReport {
  date: string;
  machine: MachineFigures;
  /** The process's nice value: the machine is shared, and a full run is made at a lower priority. */
  niceness: number;
  runs: number;
  throughput: ThroughputRow[];
  ingest: IngestRow[];
  bundle: BundleCost;
  /** The base chunk at the commit before the readers; null when not measured. */
  baseline: (BaseChunk & { commit: string }) | null;
  /** Gzipped bytes the base chunk grew by since the baseline. */
  growthGzip: number | null;
  targetGrowthGzip: number;
}

const kb = (bytes: number) => cell(bytes / 1024, 1);
/** KB with its sign: `+2.1`, `−0.4`, `0.0`. */
export const signedKb = (bytes: number) => `${bytes > 0 ? '+' : bytes < 0 ? '−' : ''}${kb(Math.abs(bytes))}`;
const sizeCells = (size: Size) => [String(size.files), kb(size.raw), kb(size.gzip)];

/** A chunk group's name: the reader it belongs to, or the readers that share it. */
export const groupName = (readers: readonly Reader[]) =>
  readers.length === 1 ? readers[0]! : `shared by ${readers.join(', ')}`;

/** Throughput rows, each peer row followed by our time over its own. */
export function throughputTable(rows: readonly ThroughputRow[]): string {
  const cells = rows.map((row) => {
    const ours = rows.find((other) => other.document === row.document && other.parser.startsWith('convert'));
    const ratio = ours && ours !== row ? `${cell(ours.median_ms / row.median_ms, 2)}×` : '';
    return [
      row.parser,
      row.document,
      kb(row.bytes),
      cell(row.median_ms, 1),
      `${cell(row.units_per_s, 1)} ${row.unit}/s`,
      cell(row.ms_per_unit, 3),
      ratio,
    ];
  });
  const header = ['parser', 'document', 'KB', 'median ms', 'throughput', 'ms per unit', 'Longship ÷ it'];
  return markdownTable(header, cells, ['l', 'l', 'r', 'r', 'r', 'r', 'r']);
}

export function ingestTable(report: Pick<DocumentsReport, 'ingest' | 'throughput'>): string {
  const cells = report.ingest.map((row) => {
    const reading = report.throughput.find((r) => r.parser === 'convertPdf' && r.units === row.pages);
    return [
      row.embedder,
      cell(row.pages, 0),
      cell(row.median_ms, 0),
      cell(row.ms_per_page, 1),
      cell(row.pages_per_s, 1),
      reading ? cell(reading.ms_per_unit, 1) : '—',
    ];
  });
  const header = [
    'embedder',
    'pages',
    'median ms',
    'ms per page',
    'pages/s',
    'of it, convertPdf ms per page',
  ];
  return markdownTable(header, cells);
}

/** Each reader: all it loads with the first file of its kind, and what of that is its own. */
export function readerTable(bundle: BundleCost): string {
  const cells = bundle.readers.map((r) => [
    r.reader,
    ...sizeCells(r.firstLoad),
    ...sizeCells(r.own).slice(1),
  ]);
  cells.push(['(not a reader) the model runtime, the tokenizer', ...sizeCells(bundle.otherOnDemand), '', '']);
  const header = ['reader', 'chunks', 'first file loads, KB', 'gzipped KB', 'its own, KB', 'gzipped KB'];
  return markdownTable(header, cells);
}

/** The chunks beyond the base by who loads them, with the packages in them. */
export function groupTable(bundle: BundleCost): string {
  const cells = bundle.groups.map((group) => [
    groupName(group.readers),
    ...sizeCells(group.size),
    group.inputs
      .slice(0, 4)
      .map((input) => `${input.input.replace(/^src\/ingest\/convert\//, '')} ${kb(input.raw)}`)
      .join(', '),
  ]);
  const header = ['loaded by', 'chunks', 'KB', 'gzipped KB', 'largest inputs (KB before gzip)'];
  return markdownTable(header, cells, ['l', 'r', 'r', 'r', 'l']);
}

/** The base chunk now and at the baseline, and the inputs that changed most between them. */
export function baseTable(
  report: Pick<DocumentsReport, 'bundle' | 'baseline' | 'growthGzip' | 'targetGrowthGzip'>,
): string {
  const { base } = report.bundle;
  const rows = [['now', ...sizeCells(base)]];
  if (report.baseline) {
    rows.push([`at ${report.baseline.commit}`, ...sizeCells(report.baseline)]);
    const growth = report.growthGzip!;
    rows.push([
      'growth',
      String(base.files - report.baseline.files),
      signedKb(base.raw - report.baseline.raw),
      `${signedKb(growth)} (target < ${kb(report.targetGrowthGzip)}: ${growth < report.targetGrowthGzip ? 'met' : 'not met'})`,
    ]);
  }
  return markdownTable(['base worker chunk', 'files', 'KB', 'gzipped KB'], rows);
}

/** The inputs of the base chunk whose bytes changed most since the baseline. */
export function baseChanges(report: Pick<DocumentsReport, 'bundle' | 'baseline'>, top = 8): string {
  if (!report.baseline) return '';
  const before = report.baseline.inputs;
  const after = report.bundle.base.inputs;
  const changes = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .map((input) => ({ input, delta: (after[input] ?? 0) - (before[input] ?? 0) }))
    .filter((change) => change.delta !== 0)
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta))
    .slice(0, top);
  return changes.map(({ input, delta }) => `${input} ${signedKb(delta)} KB`).join(', ');
}

export function markdownReport(report: DocumentsReport): string {
  const { machine } = report;
  const changes = baseChanges(report);
  return [
    '# bench:documents — reading PDF, Word, PowerPoint and Excel files',
    '',
    `${report.date}, ${machine.cores} × ${machine.cpu}, Node ${machine.node}, load average ` +
      `${machine.loadAverage.toFixed(1)} at the start, nice ${report.niceness}. Generated by ` +
      '`npm run bench:documents`; see bench/documents/run.ts.',
    '',
    `## Throughput (median of ${report.runs} runs after a warm-up)`,
    '',
    throughputTable(report.throughput),
    '',
    '- Documents are generated (test/fixtures/documents/): a PDF report of text, headings and tables with',
    '  one scanned page; a Word report with added sections; a deck with a table on each slide; a workbook.',
    '- A section is a heading in the Markdown written; cells are those holding a value.',
    '- "pdf.js text only" is getTextContent on every page, strings joined: the pass pdf-parse and unpdf',
    '  wrap. "mammoth HTML only" is mammoth.convertToHtml. Longship\'s converters run these and lay the',
    '  text out as Markdown (reading order, headings, tables) on top.',
    '',
    '## addResource() of a PDF, end to end',
    '',
    report.ingest.length > 0 ? ingestTable(report) : 'Not measured in this run.',
    '',
    'Into a new in-memory Longship each run, until the job and its processing are done; the warm-up',
    'run loads the model and pdf.js.',
    '',
    '## Bundle cost per reader (the worker script, as `npm run build` bundles it)',
    '',
    readerTable(report.bundle),
    '',
    groupTable(report.bundle),
    '',
    baseTable(report),
    '',
    'Gzipped at level 9, a file at a time (each chunk is fetched on its own). The base worker chunk is',
    'the entry and every chunk it imports statically: what every worker loads at start.',
    changes ? `Inputs of the base that changed most since the baseline: ${changes}.` : '',
  ].join('\n');
}
