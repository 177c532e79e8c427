// The history of a benchmark's headline figures, kept beside its results as
// bench/results/<name>.history.json: one entry a run, newest first. A benchmark's results file holds
// its latest run whole; its history keeps the few figures each run is compared by, the latest
// included, so that a new run overwriting the results file loses nothing the page showed.
import { cell, markdownTable } from '../../bench/lib/markdown.js';

/** A figure as recorded: a number, or text where a run gave several (`720, 768, 793`). */
export type Figure = number | string;

/** One run in a history file. */
export interface HistoryEntry {
  /** When it ran, as precisely as is known (`2026-12-04 10:10 UTC`). */
  readonly when: string;
  /** Which run: the code it measured, or how it differs from the others. */
  readonly what: string;
  readonly figures: Readonly<Record<string, Figure>>;
  readonly note?: string;
}

/** A headline figure: its key in `figures`, its column and how it is printed. */
export interface Column {
  readonly key: string;
  readonly label: string;
  readonly decimals: number;
  /** Printed after the number: `×`, ` %`, ` ms`. */
  readonly unit?: string;
}

export interface History {
  readonly runs: readonly HistoryEntry[];
}

/** Whether `figures` are a recorded run's: the results file's run is in its history. */
export function isRecorded(history: History, figures: Readonly<Record<string, Figure>>): boolean {
  const same = (entry: HistoryEntry) =>
    Object.keys(figures).length === Object.keys(entry.figures).length &&
    Object.entries(figures).every(([key, value]) => entry.figures[key] === value);
  return history.runs.some(same);
}

/** `history` with the run of `figures` first, unless it is recorded already. */
export function withRun(
  history: History,
  figures: Readonly<Record<string, Figure>>,
  when: string,
  what: string,
): History {
  if (isRecorded(history, figures)) return history;
  return { runs: [{ when, what, figures }, ...history.runs] };
}

/** A figure for a table cell: numbers at the column's decimals and unit, text as it is. */
export function formatFigure(value: Figure | undefined, column: Column): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return `${cell(value, column.decimals)}${column.unit ?? ''}`;
}

/** The history as a table, newest first, its notes numbered in a list below it. */
export function historyTable(history: History, columns: readonly Column[]): string {
  const notes: string[] = [];
  const rows = history.runs.map((entry) => {
    if (entry.note) notes.push(`- [${notes.length + 1}] ${entry.note}`);
    const what = entry.note ? `${entry.what} [${notes.length}]` : entry.what;
    return [entry.when, what, ...columns.map((column) => formatFigure(entry.figures[column.key], column))];
  });
  const table = markdownTable(['when', 'run', ...columns.map((column) => column.label)], rows, [
    'l',
    'l',
    ...columns.map(() => 'r' as const),
  ]);
  return notes.length > 0 ? `${table}\n\n${notes.join('\n')}` : table;
}

/** The newest recorded value of a figure, and the run it is from. */
export function latest(history: History, key: string): { value: Figure; entry: HistoryEntry } | undefined {
  const entry = history.runs.find((run) => run.figures[key] !== undefined);
  return entry ? { value: entry.figures[key]!, entry } : undefined;
}
