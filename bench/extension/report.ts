// The shape of bench/results/extension.json, its medians and the markdown beside it.
import type { MachineFigures } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { median } from '../lib/stats.js';

/** One restart of the browser on the filled profile. */
export interface OpenRun {
  /** The first search: offscreen document, worker, store, model and find(), on the service worker's clock. */
  firstSearchMs: number;
  nextSearchMs: number;
  /** Results the first search gave. */
  results: number;
  /** PSS of the browser's processes before the engine started, and idle after its last search. */
  pssBeforeBytes: number;
  pssIdleBytes: number;
}

export interface ExtensionReport {
  date: string;
  machine: MachineFigures;
  niceness: number;
  chromium: string;
  pages: number;
  pageBytes: number;
  queries: string[];
  /** Seconds the engine sat idle after its last search before the PSS was read. */
  idleS: number;
  save: { ms: number; pagesPerS: number; batch: number };
  disk: { indexedDbBytes: number; opfsBytes: number };
  runs: OpenRun[];
}

const mb = (bytes: number) => cell(bytes / 1e6, 1);

/** The medians of the runs. */
export function summary(report: ExtensionReport) {
  return {
    firstSearchS: median(report.runs.map((r) => r.firstSearchMs)) / 1000,
    nextSearchMs: median(report.runs.map((r) => r.nextSearchMs)),
    engineIdleBytes: median(report.runs.map((r) => r.pssIdleBytes - r.pssBeforeBytes)),
  };
}

export function markdownReport(report: ExtensionReport): string {
  const s = summary(report);
  const rows = [
    [
      `saving ${report.pages} pages through savePage(), ${report.save.batch} at a time`,
      `${cell(report.save.ms / 1000, 1)} s (${cell(report.save.pagesPerS, 2)} pages/s)`,
    ],
    [
      'the store on disk: IndexedDB + OPFS',
      `${mb(report.disk.indexedDbBytes)} MB + ${mb(report.disk.opfsBytes)} MB`,
    ],
    ['first search after the browser starts', `${cell(s.firstSearchS, 2)} s`],
    ['next search', `${cell(s.nextSearchMs, 0)} ms`],
    [
      `memory the engine adds while idle (${report.idleS} s after its last search)`,
      `${mb(s.engineIdleBytes)} MB`,
    ],
  ];
  const { machine } = report;
  return [
    '# The example extension in Chromium (`npm run bench:extension`)',
    '',
    `Measured ${report.date.slice(0, 10)} on ${machine.cores} × ${machine.cpu}, ${report.chromium} ` +
      `(--headless=new), load average ${cell(machine.loadAverage, 1)} at the start, at nice ${report.niceness}; ` +
      `${report.pages} synthetic pages of ${cell(report.pageBytes / report.pages, 0)} bytes of text; medians of ` +
      `${report.runs.length} restarts. Queries: "${report.queries.join('", "')}". Memory: PSS of the browser's ` +
      'processes, idle, less the same before the service worker created the offscreen document.',
    '',
    markdownTable(['measure', `${report.pages} saved pages`], rows, ['l', 'r']),
    '',
    'Every run (first search ms; next search ms; engine idle MB):',
    '',
    ...report.runs.map(
      (r, i) =>
        `- ${i + 1}: ${cell(r.firstSearchMs, 0)}; ${cell(r.nextSearchMs, 0)}; ${mb(r.pssIdleBytes - r.pssBeforeBytes)}`,
    ),
    '',
  ].join('\n');
}
