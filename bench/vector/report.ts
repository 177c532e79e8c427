import type { BenchArgs } from '../lib/args.js';
import type { FreshWrites } from '../lib/fresh-memory.js';
import type { MachineFigures } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import type { SizeFigure } from '../lib/sizes.js';
import { graph } from './harness.js';
import type { Row } from './row.js';

export interface ReportContext {
  args: BenchArgs;
  description: string;
  totalSeconds: number;
  sizes: SizeFigure[];
  machine: MachineFigures;
  /** The floor under a load into a fresh heap (absent from runs before it was measured). */
  freshWrites?: FreshWrites;
  /** The commit whose src/ and wasm/ were measured. */
  revision: string;
  /** When the run started, ISO 8601. */
  date: string;
}

const MB = 1024 * 1024;

function mainTable(rows: Row[]): string {
  return markdownTable(
    [
      'engine',
      'n',
      'quant',
      'build s',
      'build CPU s',
      'adds/s',
      'search p50 ms',
      'p95 ms',
      'p50 CPU ms',
      'recall@10',
      'memory MB',
      'serialized MB',
      'load ms',
      'view ms',
    ],
    rows.map((row) => [
      row.engine,
      row.n.toLocaleString('en-US'),
      row.quantization,
      cell(row.build_s, 2),
      cell(row.build_cpu_s, 2),
      cell(row.adds_per_s ?? (row.build_s ? row.n / row.build_s : null), 0),
      cell(row.search_p50_ms, 3),
      cell(row.search_p95_ms, 3),
      cell(row.search_cpu_p50_ms, 3),
      cell(row.recall10, 4),
      cell(row.memory_mb, 1),
      cell(row.bytes === null ? null : row.bytes / MB, 1),
      cell(row.load_ms, 1),
      cell(row.view_ms, 1),
    ]),
  );
}

/** The table printed to stdout at the end of a run (the same as the markdown's main table). */
export function consoleTable(rows: Row[], context: ReportContext): string {
  return `${mainTable(rows)}\n\n${targetsTable(rows, context)}`;
}

/** The engine's row at n, or else its row at the largest n. */
function find(rows: Row[], engine: string, n?: number): Row | undefined {
  const mine = rows.filter((row) => row.engine === engine).sort((a, b) => b.n - a.n);
  return mine.find((row) => row.n === n) ?? mine[0];
}

function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined || b === 0) return null;
  return a / b;
}

function targetsTable(rows: Row[], context: ReportContext): string {
  const n = context.args.n;
  const f32 = find(rows, 'longship', n);
  const i8 = find(rows, 'longship-i8', n);
  const ordered = find(rows, 'longship-ordered', n);
  const native = find(rows, 'usearch-native', n);
  const hnsw = find(rows, 'hnswlib-wasm', n);
  const mememo = find(rows, 'mememo', n);
  const wasmGlue = context.sizes.find((size) => size.what === 'wasm + glue');
  const verdict = (value: number | null, ok: (v: number) => boolean) =>
    value === null ? 'not measured' : ok(value) ? 'met' : 'missed';
  const x = (value: number | null) => (value === null ? '—' : `${value.toFixed(2)}×`);
  const fresh = context.freshWrites;
  /** What writing fresh memory alone costs here: a fresh-heap load cannot take less. */
  const floor = fresh
    ? ` (writing the vectors' ${fresh.mb.toFixed(0)} MB into fresh memory alone: ${fresh.oneThreadMs.toFixed(0)} ms on one thread, ${fresh.twoThreadsMs.toFixed(0)} on two)`
    : '';
  /** A ratio from wall-clock and from CPU time: other processes shared the cores, and only wall time feels that. */
  const both = (wall: number | null, cpu: number | null, ok: (v: number) => boolean): [string, string] => {
    const text = `${x(wall)} (CPU ${x(cpu)})`;
    const a = verdict(wall, ok);
    const b = verdict(cpu, ok);
    return [text, a === b ? a : `wall: ${a}, CPU: ${b}`];
  };
  /** Longship's row at the other engine's n if there is one; else the comparison is per vector. */
  const ours = (other: Row | undefined) => (other ? find(rows, 'longship', other.n) : undefined);
  const perVector = (other: Row | undefined) => other !== undefined && ours(other)?.n !== other.n;
  const sameN = (other: Row | undefined) =>
    !other || !f32 || other.n === f32.n
      ? ''
      : perVector(other)
        ? ` (${other.engine} at n=${other.n}, longship at ${f32.n}: per vector, which flatters ${other.engine})`
        : ` (both at n=${other.n})`;
  const buildRatio = (other: Row | undefined, cpu: boolean) => {
    const time = (row: Row | undefined) => (cpu ? row?.build_cpu_s : row?.build_s) ?? null;
    const mine = ours(other);
    if (!perVector(other)) return ratio(time(other), time(mine));
    const a = time(other);
    const b = time(mine);
    return a === null || b === null ? null : ratio(a / other!.n, b / mine!.n);
  };
  const p50 = (mine: Row | undefined, other: Row | undefined, ok: (v: number) => boolean) =>
    both(
      ratio(mine?.search_p50_ms, other?.search_p50_ms),
      ratio(mine?.search_cpu_p50_ms, other?.search_cpu_p50_ms),
      ok,
    );
  const build = (other: Row | undefined, ok: (v: number) => boolean) =>
    both(buildRatio(other, false), buildRatio(other, true), ok);
  const i8Memory = ratio(i8?.memory_mb, f32?.memory_mb);
  const rows_: string[][] = [
    [
      // Not like for like on cosine: longship stores unit vectors and measures 1 − a·b (one sum), as hnswlib does.
      'longship search p50 ÷ usearch-native p50 (usearch-native measures the full cosine: three sums a distance)',
      '≤ 1.3×',
      ...p50(f32, native, (v) => v <= 1.3),
    ],
    ['longship search p50 ÷ hnswlib-wasm p50', '≤ 0.5×', ...p50(f32, hnsw, (v) => v <= 0.5)],
    [
      'longship-ordered (the same build, then optimize(): graph order) search p50 ÷ hnswlib-wasm p50',
      '≤ 0.5×',
      ...p50(ordered, hnsw, (v) => v <= 0.5),
    ],
    [
      'hnswlib-wasm build ÷ longship-ordered build (optimize() included)',
      '≥ 2×',
      ...both(
        ratio(hnsw?.build_s, ordered?.build_s),
        ratio(hnsw?.build_cpu_s, ordered?.build_cpu_s),
        (v) => v >= 2,
      ),
    ],
    [
      `longship-i8 (rescored, same M, ef_construction, ef_search; recall@10 ${cell(i8?.recall10, 4)}) p50 ÷ hnswlib-wasm p50`,
      '≤ 0.5×',
      ...p50(i8, hnsw, (v) => v <= 0.5),
    ],
    [
      'longship recall@10 (f32, ef_search 64)',
      '≥ 0.95',
      cell(f32?.recall10, 4),
      verdict(f32?.recall10 ?? null, (v) => v >= 0.95),
    ],
    [`hnswlib-wasm build ÷ longship build${sameN(hnsw)}`, '≥ 2×', ...build(hnsw, (v) => v >= 2)],
    [`mememo build ÷ longship build${sameN(mememo)}`, '≥ 10×', ...build(mememo, (v) => v >= 10)],
    ['longship-i8 memory ÷ longship memory', '≤ 0.35×', x(i8Memory), verdict(i8Memory, (v) => v <= 0.35)],
    [
      'longship-i8 recall@10 after rescoring',
      '≥ 0.95',
      cell(i8?.recall10, 4),
      verdict(i8?.recall10 ?? null, (v) => v >= 0.95),
    ],
    [
      'longship load from bytes (copied in from a Uint8Array), fresh WASM instance',
      '≤ 300 ms',
      `${cell(f32?.load_ms, 1)} ms${floor}`,
      verdict(f32?.load_ms ?? null, (v) => v <= 300),
    ],
    [
      'longship load from bytes (copied in from a Uint8Array), instance heap already grown',
      '≤ 300 ms',
      `${cell(f32?.load_warm_ms, 1)} ms`,
      verdict(f32?.load_warm_ms ?? null, (v) => v <= 300),
    ],
    [
      'longship view of bytes (copied in from a Uint8Array), fresh WASM instance',
      '≤ 20 ms',
      `${cell(f32?.view_ms, 1)} ms${floor}`,
      verdict(f32?.view_ms ?? null, (v) => v <= 20),
    ],
    [
      'longship view of bytes (copied in from a Uint8Array), instance heap already grown',
      '≤ 20 ms',
      `${cell(f32?.view_warm_ms, 1)} ms`,
      verdict(f32?.view_warm_ms ?? null, (v) => v <= 20),
    ],
    [
      'longship load of bytes written in place (allocateIndexBytes), fresh instance: open only',
      '≤ 300 ms',
      `${cell(f32?.open_load_ms, 1)} ms (+ ${cell(f32?.fill_ms, 1)} ms to write them)`,
      verdict(f32?.open_load_ms ?? null, (v) => v <= 300),
    ],
    [
      'longship view of bytes written in place (allocateIndexBytes), fresh instance: open only',
      '≤ 20 ms',
      `${cell(f32?.open_view_ms, 1)} ms (+ ${cell(f32?.fill_ms, 1)} ms to write them)`,
      verdict(f32?.open_view_ms ?? null, (v) => v <= 20),
    ],
    [
      'longship load of bytes written in place, instance heap already grown: open only',
      '≤ 300 ms',
      `${cell(f32?.open_load_warm_ms, 1)} ms`,
      verdict(f32?.open_load_warm_ms ?? null, (v) => v <= 300),
    ],
    [
      'longship view of bytes written in place, instance heap already grown: open only',
      '≤ 20 ms',
      `${cell(f32?.open_view_warm_ms, 1)} ms`,
      verdict(f32?.open_view_warm_ms ?? null, (v) => v <= 20),
    ],
    [
      'wasm + glue, raw (gzipped)',
      '≤ 400 KB',
      wasmGlue ? `${cell(wasmGlue.raw / 1024, 1)} KB (${cell(wasmGlue.gzip / 1024, 1)} KB)` : '—',
      verdict(wasmGlue ? wasmGlue.raw / 1024 : null, (v) => v <= 400),
    ],
  ];
  const scale =
    context.args.n === 100_000 && context.args.dims === 512
      ? ''
      : `\n\nThe targets are stated for 100,000 × 512; this run is ${context.args.n.toLocaleString('en-US')} × ${context.args.dims}.`;
  return `${markdownTable(['target', 'wanted', 'measured', ''], rows_, ['l', 'r', 'r', 'l'])}${scale}`;
}

function longshipTable(rows: Row[]): string {
  const ours = rows.filter((row) => row.engine.startsWith('longship') || row.engine === 'usearch-native');
  return markdownTable(
    [
      'engine',
      'save ms',
      'load ms cold',
      'load ms warm',
      'view ms cold',
      'view ms warm',
      'in place: fill ms',
      'open load ms',
      'open view ms',
      'open load ms warm',
      'open view ms warm',
      'recall@10 loaded',
      'recall@10 viewed',
      'WASM heap MB',
      'RSS growth MB',
      'recall@10 before rescore',
      'p50 ms before rescore',
    ],
    ours.map((row) => [
      row.engine,
      cell(row.save_ms, 1),
      cell(row.load_ms, 1),
      cell(row.load_warm_ms, 1),
      cell(row.view_ms, 1),
      cell(row.view_warm_ms, 1),
      cell(row.fill_ms, 1),
      cell(row.open_load_ms, 1),
      cell(row.open_view_ms, 1),
      cell(row.open_load_warm_ms, 1),
      cell(row.open_view_warm_ms, 1),
      cell(row.load_recall10, 4),
      cell(row.view_recall10, 4),
      cell(row.wasm_heap_mb, 1),
      cell(row.rss_mb ?? (row.engine === 'usearch-native' ? row.memory_mb : null), 1),
      cell(row.recall10_no_rescore, 4),
      cell(row.search_p50_ms_no_rescore, 3),
    ]),
  );
}

/** Says so when recall cannot tell the graph engines apart on this data. */
function saturation(rows: Row[]): string {
  const graphs = rows.filter(
    (row) => row.recall10 !== null && !['brute-force', 'voy', 'orama'].includes(row.engine),
  );
  if (graphs.length < 2 || graphs.some((row) => row.recall10! < 0.99)) return '';
  return (
    '\n\nEvery graph engine reaches recall@10 ≥ 0.99 on this data, so recall does not tell them apart here ' +
    '(`--rank` raises the intrinsic dimension inside each cluster).'
  );
}

function engineN(args: BenchArgs): string {
  const entries = Object.entries(args.engineN);
  return entries.length ? ` --engine-n ${entries.map(([engine, n]) => `${engine}=${n}`).join(',')}` : '';
}

export function markdownReport(rows: Row[], context: ReportContext): string {
  const { args, machine } = context;
  const memoryNotes = rows
    .filter((row) => row.memory_how)
    .map((row) => `- **${row.engine}**: ${row.memory_how}`)
    .join('\n');
  const notes = rows
    .filter((row) => row.note)
    .map((row) => `- **${row.engine}**: ${row.note}`)
    .join('\n');
  const peersLoaded = rows
    .filter((row) => row.load_recall10 !== undefined && !row.engine.startsWith('longship'))
    .map((row) => `${row.engine} ${cell(row.load_recall10, 4)}`)
    .join(', ');
  const sizes = markdownTable(
    ['file', 'bytes', 'KB', 'gzipped KB'],
    context.sizes.map((size) => [
      size.what,
      Number.isFinite(size.raw) ? size.raw.toLocaleString('en-US') : '—',
      cell(size.raw / 1024, 1),
      cell(size.gzip / 1024, 1),
    ]),
    ['l', 'r', 'r', 'r'],
  );
  return `# Vector index benchmark

\`npm run bench:vector -- --n ${args.n} --dims ${args.dims} --queries ${args.queries} --k ${args.k} --seed ${args.seed}${(args.rank ?? 16) === 16 ? '' : ` --rank ${args.rank}`}${engineN(args)}\`
— code at ${context.revision}, ${context.date.slice(0, 16).replace('T', ' ')} UTC, whole run ${(context.totalSeconds / 60).toFixed(1)} min.

**Machine.** Node ${machine.node}, ${machine.cores} × ${machine.cpu}, ${machine.memoryGb.toFixed(0)} GB. Writing freshly
allocated memory costs ${machine.firstTouchMsPerMb.toFixed(2)} ms per MB the first time (page faults) and
${machine.secondTouchMsPerMb.toFixed(3)} ms per MB after: any figure that fills new memory (a build, a load into a
fresh heap) carries that cost. Other work shared the cores: the 1-minute load average per engine is listed under
"Run conditions".

**Data.** ${args.n.toLocaleString('en-US')} vectors of ${args.dims} dimensions: ${context.description}.
${args.queries} queries are held-out points from the same clusters; ground truth is an exact scan (cosine).
Every engine gets the same vectors, the same queries in the same order, k = ${args.k}, one thread, and each
runs in its own Node process. HNSW engines (longship*, usearch-native, hnswlib-wasm, mememo) use
M = ${graph.connectivity}, ef_construction = ${graph.expansionAdd}, ef_search = ${graph.expansionSearch}.

**Columns.** build: wall-clock seconds to insert all vectors, in the batches each engine takes (see notes);
build CPU: the CPU time of the engine's process over the same span. search: one query at a time, after 20
untimed warm-up queries; p50/p95 of wall-clock time over all ${args.queries}, and p50 of CPU time. CPU time is
shown because other work shared the two cores (see "Run conditions"): being descheduled inflates wall time,
not CPU time. recall@10: mean fraction of the exact 10 nearest found. serialized: the engine's own format
(see notes). load: serialized bytes back to a searchable index. view: opened in place, read-only.
memory: see "How memory was measured" — the methods differ by engine, so compare with care.

${mainTable(rows)}

longship load and view: from a \`Uint8Array\` into a fresh instance of the WASM module (cold heap); the details
table below also has them into an instance whose heap has already grown (warm), and in place: the bytes written
into a fresh instance's heap with \`allocateIndexBytes\` in 1 MiB pieces (fill), then opened where they lie (open).${saturation(rows)}

## Targets

${targetsTable(rows, context)}

## Longship (and native USearch) load, view and quantization details

${longshipTable(rows)}

Recall@10 after a save → load round trip of the peers: ${peersLoaded || '—'}.

## Shipped sizes

${sizes}

## How memory was measured

${memoryNotes}

## Notes

${notes}

## Run conditions

${markdownTable(
  ['engine', 'child wall s', 'load average at start', 'at end'],
  rows.map((row) => [
    row.engine,
    cell(row.wall_s, 0),
    cell(row.load_avg?.[0], 2),
    cell(row.load_avg?.[1], 2),
  ]),
)}
`;
}
