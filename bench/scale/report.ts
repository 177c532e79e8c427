// bench:scale's markdown, and the ceiling: the most vectors whose memory fits in the isolate's
// 128 MB, by a straight line through the measured sizes (memory grows linearly with the vectors).
import type { MachineFigures } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import type { Row } from './measure.js';

/** workerd's memory limit for one isolate on Cloudflare; Miniflare does not enforce it. */
export const LIMIT_MB = 128;

export interface Ceiling {
  /** MB per 1,000 vectors, and MB at none, of live JS heap + WASM memory, fitted to the rows. */
  mbPerThousand: number;
  interceptMb: number;
  /** Vectors at 128 MB by the fit; `measured` when a measured size is at or past it. */
  vectors: number;
  measured: boolean;
}

/**
 * Least squares through (vectors, the row's total MB as `total` reads it); needs two sizes, and
 * memory that grows with them.
 */
export function ceiling(
  rows: readonly Row[],
  total: (row: Row) => number = (row) => row.totalMb,
): Ceiling | null {
  if (rows.length < 2) return null;
  const n = rows.length;
  const xs = rows.map((r) => r.vectors / 1000);
  const ys = rows.map(total);
  const mx = xs.reduce((a, b) => a + b) / n;
  const my = ys.reduce((a, b) => a + b) / n;
  const slope =
    xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0) /
    xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  if (!(slope > 0)) return null;
  const intercept = my - slope * mx;
  const vectors = Math.floor(((LIMIT_MB - intercept) / slope) * 1000);
  return {
    mbPerThousand: slope,
    interceptMb: intercept,
    vectors,
    measured: rows.some((r) => r.vectors >= vectors),
  };
}

export function markdown(report: {
  dimensions: number;
  opens: number;
  queries: number;
  tail: number;
  scriptHeap: { bundledMb: number; minifiedMb: number };
  rows: Row[];
  ceiling: Ceiling | null;
  ceilingEmptyLog: Ceiling | null;
  machine: MachineFigures;
}): string {
  const { rows, machine } = report;
  const table = markdownTable(
    [
      'passages',
      'vectors',
      'load ms/passage',
      'cold open ms',
      'find p50 ms',
      'find p95 ms',
      'find mean ms',
      'script heap MB',
      'JS heap MB',
      'heap peak MB',
      'ArrayBuffers MB',
      'WASM MB',
      'HNSW MB',
      'total MB',
      'SQLite MB',
    ],
    rows.map((r) => [
      r.passages.toLocaleString('en-US'),
      r.vectors.toLocaleString('en-US'),
      cell(r.loadMsPerPassage, 2),
      cell(r.openMedianMs, 0),
      cell(r.findP50Ms, 2),
      cell(r.findP95Ms, 2),
      cell(r.findMeanMs, 2),
      cell(r.heapBeforeMb, 1),
      cell(r.heapOpenMb, 1),
      cell(r.heapPeakMb, 1),
      cell(r.arrayBuffersMb, 1),
      cell(r.wasmMb, 1),
      cell(r.indexMb, 1),
      cell(r.totalMb, 1),
      cell(r.databaseMb, 0),
    ]),
  );
  const snapshotNames = [...new Set(rows.flatMap((r) => Object.keys(r.snapshotsMb)))].sort();
  const snapshots = markdownTable(
    ['passages', ...snapshotNames.map((name) => `snapshot ${name} MB`), 'log commits replayed'],
    rows.map((r) => [
      r.passages.toLocaleString('en-US'),
      ...snapshotNames.map((name) => cell(r.snapshotsMb[name], 1)),
      cell(r.logCommits, 0),
    ]),
  );
  const emptyLog = markdownTable(
    ['passages', 'cold open ms', 'JS heap MB', 'ArrayBuffers MB', 'WASM MB', 'HNSW MB', 'total MB'],
    rows.map((r) => [
      r.passages.toLocaleString('en-US'),
      cell(r.emptyLog.openMs, 0),
      cell(r.emptyLog.heapMb, 1),
      cell(r.emptyLog.arrayBuffersMb, 1),
      cell(r.emptyLog.wasmMb, 1),
      cell(r.emptyLog.indexMb, 1),
      cell(r.emptyLog.totalMb, 1),
    ]),
  );
  const fitted = (c: Ceiling | null, what: string) =>
    c
      ? `${what}: live JS heap + ArrayBuffers + WASM memory grows ${cell(c.mbPerThousand, 2)} MB per 1,000 ` +
        `vectors over ${cell(c.interceptMb, 1)} MB; at ${LIMIT_MB} MB that is about ` +
        `${c.vectors.toLocaleString('en-US')} vectors (${c.measured ? 'within the sizes measured' : 'extrapolated past the sizes measured'}).`
      : `${what}: no ceiling fitted (one size, or memory that did not grow).`;
  const fit = `${fitted(report.ceiling, 'With the tail in the log')}\n\n${fitted(report.ceilingEmptyLog, 'With nothing in the log')}`;
  return `# One Longship in one Durable Object (workerd, ${report.dimensions}-d vectors, i8)

${table}

${snapshots}

Opened once with nothing in the log past the snapshots (before the tail was written): the graph is a
read-only view of its snapshot.

${emptyLog}

${fit}

The Worker's script alone, no Longship open: ${cell(report.scriptHeap.bundledMb, 1)} MB of live heap as bundled
here (unminified), ${cell(report.scriptHeap.minifiedMb, 1)} MB minified.

Under Miniflare (workerd), one SQLite-backed Durable Object. Passages of about 45 words, loaded with
addResource() as folders of 500 files; a synthetic word-hash embedder (microseconds a text), so
find() is timed without a model. Cold open: a fresh workerd over the persisted storage, the object's
first request, timed inside it (snapshots loaded, ${report.tail} single-write commits of the change log
replayed); median of ${report.opens}. find(): ${report.queries} queries of four words, after 10 unmeasured.
find() times are workerd's clock, which ticks in whole ms; the mean is the queries' time together.
Script heap: the isolate's live V8 heap (after a full collection; the inspector's Runtime.getHeapUsage)
with the Worker's script loaded and no Longship open; JS heap: the same once the object's Longship is open;
heap peak: sampled every 20 ms during the open; ArrayBuffers: their bytes outside the heap, as V8
reports them once open; WASM: the USearch module's linear memory, of which HNSW is the index's part;
total: JS heap + ArrayBuffers + WASM, what counts against the isolate's ${LIMIT_MB} MB.
${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, load average ${cell(machine.loadAverage, 2)}.
`;
}
