// The shape of bench/results/demo.json, its headline figures and the markdown beside it.
import type { MachineFigures } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { median } from '../lib/stats.js';
import type { IndexRun, OpenRun } from './measure.js';

/** issue 36's targets. */
export const targets = { firstResultS: 3, reloadS: 1.5, indexRatio: 3 } as const;

/** How the build was served: as a static host serves it, or cross-origin isolated; and its worker. */
export interface ConfigResult {
  name: string;
  headers: Record<string, string>;
  /** The page's worker: its SharedWorker (the default) or a dedicated Worker (`?worker=dedicated`). */
  worker: 'shared' | 'dedicated';
  /** `crossOriginIsolated` in the page and in its worker (null: the worker was not reached). */
  pageIsolated: boolean;
  workerIsolated: boolean | null;
  /** `navigator.hardwareConcurrency` in the worker: onnxruntime-web takes half, up to 4, when isolated. */
  workerCores: number | null;
  firstOpen: OpenRun[];
  reload: OpenRun[];
  index: IndexRun[];
}

export interface DemoReport {
  date: string;
  machine: MachineFigures;
  niceness: number;
  chromium: string;
  /** The page's embedder: `model` (the bundled one, what visitors get) or `words` (the smoke's). */
  embedder: 'model' | 'words';
  runs: number;
  query: string;
  reloadQuery: string;
  folder: { files: number; bytes: number; sources: string[] };
  /** The first is the page as a static host serves it today: the others' pages/s are compared to it. */
  configs: ConfigResult[];
}

export interface ConfigSummary {
  name: string;
  enabledS: number;
  firstResultS: number;
  reloadEnabledS: number;
  reloadS: number;
  pagesPerS: number;
  /** Pages/s over the first configuration's. */
  ratio: number;
}

const seconds = (ms: number) => ms / 1000;

/** Each configuration's medians. */
export function summary(report: DemoReport): ConfigSummary[] {
  const base = median(report.configs[0]?.index.map((run) => run.pagesPerS) ?? []);
  return report.configs.map((config) => {
    const pagesPerS = median(config.index.map((run) => run.pagesPerS));
    return {
      name: config.name,
      enabledS: seconds(median(config.firstOpen.map((run) => run.enabledMs))),
      firstResultS: seconds(median(config.firstOpen.map((run) => run.resultMs))),
      reloadEnabledS: seconds(median(config.reload.map((run) => run.enabledMs))),
      reloadS: seconds(median(config.reload.map((run) => run.resultMs))),
      pagesPerS,
      ratio: pagesPerS / base,
    };
  });
}

const met = (ok: boolean) => (ok ? 'met' : 'not met');

/** The figures of each configuration, a column each, with the targets. */
export function summaryTable(report: DemoReport): string {
  const configs = summary(report);
  const row = (label: string, pick: (s: ConfigSummary) => string, target = '') => [
    label,
    ...configs.map(pick),
    target,
  ];
  const within = (value: number, target: number) => `${cell(value, 2)} (${met(value <= target)})`;
  const rows = [
    row('fresh profile: search box enabled, s', (s) => cell(s.enabledS, 2)),
    row(
      'fresh profile: first results, s',
      (s) => within(s.firstResultS, targets.firstResultS),
      `≤ ${targets.firstResultS}`,
    ),
    row('reload: search box enabled, s', (s) => cell(s.reloadEnabledS, 2)),
    row('reload: results, s', (s) => within(s.reloadS, targets.reloadS), `≤ ${targets.reloadS}`),
    row(`${report.folder.files} Markdown files indexed, pages/s`, (s) => cell(s.pagesPerS, 2)),
    row('… over the page as served today', (s) => `${cell(s.ratio, 2)}×`, `≥ ${targets.indexRatio}×`),
  ];
  rows.push([
    'worker cross-origin isolated (cores it sees)',
    ...report.configs.map((c) => `${c.workerIsolated ?? 'unknown'} (${c.workerCores ?? '?'})`),
    '',
  ]);
  const header = ['measure', ...report.configs.map((c) => c.name), 'target'];
  return markdownTable(header, rows, ['l', ...report.configs.map(() => 'r' as const), 'l']);
}

/** The line that says when, where and how it was measured. */
export function machineLine(report: DemoReport): string {
  const { machine } = report;
  return (
    `Measured ${report.date.slice(0, 10)} on ${machine.cores} × ${machine.cpu}, ${report.chromium}, load average ` +
    `${cell(machine.loadAverage, 1)} at the start, at nice ${report.niceness}; medians of ${report.runs} runs; ` +
    `embedder: ${report.embedder}.`
  );
}

/** The markdown beside the JSON: the table, how each configuration was served, every run. */
export function markdownReport(report: DemoReport): string {
  return [
    '# The demo in Chromium (`npm run bench:demo`)',
    '',
    `${machineLine(report)} Times are on the page's clock, from the navigation's start. Queries: ` +
      `"${report.query}" (fresh profile), "${report.reloadQuery}" (reload).`,
    '',
    summaryTable(report),
    '',
    ...report.configs.map(
      (c) =>
        `- ${c.name}: ${c.worker} worker, page isolated ${c.pageIsolated}; headers ${JSON.stringify(c.headers)}`,
    ),
    '',
    `The folder: ${report.folder.files} files, ${cell(report.folder.bytes / 1024, 0)} KB, from ${report.folder.sources.join(' and ')}.`,
    '',
    'Every run, ms (first results; reload results; indexing):',
    '',
    ...report.configs.map(
      (c) =>
        `- ${c.name}: ${c.firstOpen.map((r) => cell(r.resultMs, 0)).join(', ')}; ` +
        `${c.reload.map((r) => cell(r.resultMs, 0)).join(', ')}; ${c.index.map((r) => cell(r.ms, 0)).join(', ')}`,
    ),
    '',
  ].join('\n');
}
