// npm run bench:documents -- [--pdf-pages 10,50,200] [--docx-sections 200] [--pptx-slides 200]
//   [--xlsx-rows 10000] [--runs 9] [--ingest-pages 50] [--embedders model,words] [--baseline 9549945]
//   [--json bench/results/documents.json]
// What reading a user's documents costs (issue 35), in Node: each reader's throughput on generated
// documents (test/fixtures/documents: a PDF report of each size, a Word report, a deck, a workbook),
// beside the library call it builds on (pdf.js's text alone, mammoth's HTML alone); addResource() of
// a PDF end to end with the bundled model and with a word-hash embedder; and what each reader adds to
// the worker script (bench/documents/bundle-cost.ts), with the base of the worker beside the same at
// --baseline (before the readers; `none` skips it). Medians over --runs runs after a warm-up each; a
// reader and its peer take turns run by run.
import { getPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { unzipSync } from 'fflate';
import mammoth from 'mammoth';
import type { Embedder } from '../../src/embed/embedder.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import { openLongship } from '../../src/engine.js';
import { convertDocx } from '../../src/ingest/convert/docx.js';
import { convertPdf, documentParameters } from '../../src/ingest/convert/pdf.js';
import { convertPptx } from '../../src/ingest/convert/pptx.js';
import { convertXlsx } from '../../src/ingest/convert/xlsx.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { makeDocx, makePptx, makeXlsx } from '../../test/fixtures/documents/make-office.js';
import { makeReportPdf } from '../../test/fixtures/documents/make-pdf.js';
import { wordEmbedder } from '../../test/store/kill-fixture.js';
import { workerBundleOptions, workerEntry } from '../../tools/worker/bundle.js';
import { measureMachine } from '../lib/machine.js';
import { median, round } from '../lib/stats.js';
import { writeReport } from '../lib/write-report.js';
import { baseChunkAt, bundleCost, type Reader } from './bundle-cost.js';
import { type DocumentsReport, type IngestRow, markdownReport, type ThroughputRow } from './report.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const usage = `usage: npm run bench:documents -- [--pdf-pages 10,50,200] [--docx-sections 200]
  [--pptx-slides 200] [--xlsx-rows 10000] [--runs 9] [--ingest-pages 50] [--embedders model,words]
  [--baseline 9549945|none] [--json bench/results/documents.json]`;

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      'pdf-pages': { type: 'string', default: '10,50,200' },
      'docx-sections': { type: 'string', default: '200' },
      'pptx-slides': { type: 'string', default: '200' },
      'xlsx-rows': { type: 'string', default: '10000' },
      runs: { type: 'string', default: '9' },
      'ingest-pages': { type: 'string', default: '50' },
      embedders: { type: 'string', default: 'model,words' },
      baseline: { type: 'string', default: '9549945' },
      json: { type: 'string', default: 'bench/results/documents.json' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const whole = (flag: string, value: string) => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 0)
      throw new Error(`--${flag} takes whole numbers ≥ 0, not ${value}\n${usage}`);
    return n;
  };
  const embedders = values.embedders.split(',').filter(Boolean);
  for (const name of embedders) {
    if (name !== 'model' && name !== 'words')
      throw new Error(`--embedders takes model and words, not ${name}`);
  }
  return {
    pdfPages: values['pdf-pages']
      .split(',')
      .filter(Boolean)
      .map((n) => whole('pdf-pages', n)),
    docxSections: whole('docx-sections', values['docx-sections']),
    pptxSlides: whole('pptx-slides', values['pptx-slides']),
    xlsxRows: whole('xlsx-rows', values['xlsx-rows']),
    runs: Math.max(1, whole('runs', values.runs)),
    ingestPages: whole('ingest-pages', values['ingest-pages']),
    embedders: embedders as ('model' | 'words')[],
    baseline: values.baseline === 'none' ? undefined : values.baseline,
    json: values.json,
  };
}

const args = parse(process.argv.slice(2));
const gc = (globalThis as { gc?: () => void }).gc;
const log = (message: string) => console.log(`[${(performance.now() / 1000).toFixed(1)} s] ${message}`);
const options = (name: string) => ({ name, maxPages: 100_000 });

/**
 * Milliseconds of each of `runs` runs of each of `calls`, taking turns run by run so that a busy
 * spell of the shared machine lands on all of them, after one run of each that is not timed (it
 * loads the reader, or the model).
 */
async function timeRuns(calls: readonly (() => Promise<unknown>)[], runs: number): Promise<number[][]> {
  for (const call of calls) await call();
  const times: number[][] = calls.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [c, call] of calls.entries()) {
      gc?.();
      const started = performance.now();
      await call();
      times[c]!.push(performance.now() - started);
    }
  }
  return times;
}

interface Case {
  reader: Reader;
  parser: string;
  document: string;
  bytes: Uint8Array;
  unit: string;
  units: number;
  run: () => Promise<unknown>;
}

/** The cases of one document, Longship's and its peer's, timed taking turns. */
async function measure(tests: readonly Case[]): Promise<ThroughputRow[]> {
  const times = await timeRuns(
    tests.map((test) => test.run),
    args.runs,
  );
  return tests.map((test, i) => row(test, times[i]!));
}

function row(test: Case, times: number[]): ThroughputRow {
  const ms = median(times);
  log(
    `${test.parser}, ${test.document}: ${ms.toFixed(1)} ms (${((test.units / ms) * 1000).toFixed(1)} ${test.unit}/s)`,
  );
  return {
    reader: test.reader,
    parser: test.parser,
    document: test.document,
    bytes: test.bytes.byteLength,
    unit: test.unit,
    units: test.units,
    median_ms: round(ms, 2)!,
    units_per_s: round((test.units / ms) * 1000, 1)!,
    ms_per_unit: round(ms / test.units, 4)!,
    runs_ms: times.map((t) => round(t, 1)!),
  };
}

/** pdf.js's text pass alone, each page's strings joined: what pdf-parse and unpdf hand back. */
async function pdfJsText(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // What convertPdf gives it: the same parser, doing the same work.
  const task = pdfjs.getDocument(documentParameters(bytes, pdfjs.VerbosityLevel.ERRORS));
  try {
    const pdf = await task.promise;
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const { items } = await page.getTextContent();
      pages.push(items.map((item) => ('str' in item ? item.str : '')).join(' '));
      page.cleanup();
    }
    return pages.join('\n\f\n');
  } finally {
    await task.destroy();
  }
}

async function pdfCases(pages: number): Promise<Case[]> {
  const bytes = await makeReportPdf({ pages });
  const document = `report, ${pages} pages`;
  const name = `report-${pages}.pdf`;
  return [
    {
      reader: 'pdf',
      parser: 'convertPdf',
      document,
      bytes,
      unit: 'pages',
      units: pages,
      run: () => convertPdf(bytes, options(name)),
    },
    {
      reader: 'pdf',
      parser: 'pdf.js text only',
      document,
      bytes,
      unit: 'pages',
      units: pages,
      run: () => pdfJsText(bytes),
    },
  ];
}

async function docxCases(sections: number): Promise<Case[]> {
  const bytes = await makeDocx({ sections });
  const { markdown } = await convertDocx(bytes, options('report.docx'));
  // A section is what a heading starts: the report's own and the added ones.
  const units = markdown.match(/^#{1,6} /gm)?.length ?? 0;
  const document = `report + ${sections} sections`;
  const html = () =>
    mammoth.convertToHtml({ buffer: Buffer.from(bytes) } as unknown as { arrayBuffer: ArrayBuffer });
  return [
    {
      reader: 'docx',
      parser: 'convertDocx',
      document,
      bytes,
      unit: 'sections',
      units,
      run: () => convertDocx(bytes, options('report.docx')),
    },
    { reader: 'docx', parser: 'mammoth HTML only', document, bytes, unit: 'sections', units, run: html },
  ];
}

function pptxCase(slides: number): Case {
  const bytes = makePptx({ slides });
  const units = Object.keys(unzipSync(bytes)).filter((path) =>
    /^ppt\/slides\/slide\d+\.xml$/.test(path),
  ).length;
  const run = () => convertPptx(bytes, options('deck.pptx'));
  return {
    reader: 'pptx',
    parser: 'convertPptx',
    document: `deck, ${units} slides`,
    bytes,
    unit: 'slides',
    units,
    run,
  };
}

function xlsxCase(rows: number): Case {
  const bytes = makeXlsx({ rows });
  // Cells holding a value (a number, a shared or an inline string), in every sheet.
  const sheets = Object.entries(unzipSync(bytes)).filter(([path]) => path.startsWith('xl/worksheets/'));
  const units = sheets.reduce(
    (n, [, xml]) => n + (new TextDecoder().decode(xml).match(/<v>|<is>/g)?.length ?? 0),
    0,
  );
  const run = () => convertXlsx(bytes, options('book.xlsx'));
  return {
    reader: 'xlsx',
    parser: 'convertXlsx',
    document: `workbook, ${units.toLocaleString('en-US')} cells`,
    bytes,
    unit: 'cells',
    units,
    run,
  };
}

/**
 * addResource() of a `pages`-page PDF into a new in-memory Longship, until its nodes are written,
 * with each embedder, taking turns.
 */
async function ingest(names: readonly ('model' | 'words')[], pages: number): Promise<IngestRow[]> {
  const bytes = await makeReportPdf({ pages });
  const embedders: Embedder[] = names.map((name) =>
    name === 'model' ? transformersEmbedder() : wordEmbedder,
  );
  const runs = embedders.map((embedder) => async () => {
    const longship = await openLongship({ store: await openMemoryStore(), embedder });
    await longship.addResource(bytes, { name: 'report.pdf' });
    await longship.waitProcessed();
    await longship.close();
  });
  // The warm-up run loads the model (and pdf.js): the runs after it are a warm worker's.
  const times = await timeRuns(runs, args.runs);
  for (const embedder of embedders) await embedder.dispose?.();
  return names.map((name, i) => {
    const ms = median(times[i]!);
    log(`addResource of ${pages} pages, ${name}: ${ms.toFixed(0)} ms (${(ms / pages).toFixed(1)} ms/page)`);
    return {
      embedder: name === 'model' ? 'bundled model' : 'word-hash embedder',
      pages,
      median_ms: round(ms, 1)!,
      ms_per_page: round(ms / pages, 2)!,
      pages_per_s: round((pages / ms) * 1000, 1)!,
      runs_ms: times[i]!.map((t) => round(t, 0)!),
    };
  });
}

const machine = measureMachine();
const niceness = getPriority();
log(`bench:documents, ${args.runs} runs each, niceness ${niceness}`);
const throughput: ThroughputRow[] = [];
for (const pages of args.pdfPages) throughput.push(...(await measure(await pdfCases(pages))));
if (args.docxSections > 0) throughput.push(...(await measure(await docxCases(args.docxSections))));
if (args.pptxSlides > 0) throughput.push(...(await measure([pptxCase(args.pptxSlides)])));
if (args.xlsxRows > 0) throughput.push(...(await measure([xlsxCase(args.xlsxRows)])));
const ingestRows = args.ingestPages > 0 ? await ingest(args.embedders, args.ingestPages) : [];

log('building the worker bundle');
const bundle = await bundleCost(root, workerBundleOptions, workerEntry);
const baseline = args.baseline ? await baseChunkAt(root, args.baseline) : undefined;
const report: DocumentsReport = {
  date: new Date().toISOString(),
  machine,
  niceness,
  runs: args.runs,
  throughput,
  ingest: ingestRows,
  bundle,
  baseline: baseline ?? null,
  growthGzip: baseline ? bundle.base.gzip - baseline.gzip : null,
  targetGrowthGzip: 20 * 1024,
};
log(
  `base worker chunk ${(bundle.base.gzip / 1024).toFixed(1)} KB gzipped` +
    (baseline ? `, ${(baseline.gzip / 1024).toFixed(1)} KB at ${baseline.commit}` : ''),
);
writeReport(args.json, report, markdownReport(report));
