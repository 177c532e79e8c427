// npm run bench:scale -- [--sizes 10000,50000,100000] [--opens 3] [--queries 200] [--tail 100]
//                        [--json bench/results/scale.json]
// One Longship in one SQLite-backed Durable Object under workerd (Miniflare), as docs/scale.md
// reports it: the object's store grown size by size (512-d vectors, i8 in the index), then at each
// size opened cold several times (a fresh workerd over the persisted storage), find() timed, and the
// isolate's JS heap (the V8 inspector) and WASM memory read. The question: does 100k fit in 128 MB
// with find() p50 ≤ 20 ms, and if not, where is the ceiling.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureMachine } from '../lib/machine.js';
import { writeReport } from '../lib/write-report.js';
import { DIMENSIONS } from './corpus.js';
import { grow, measureSize, type Row, type Settings, scriptHeaps } from './measure.js';
import { ceiling, markdown } from './report.js';

const usage =
  'usage: npm run bench:scale -- [--sizes 10000,50000,100000] [--opens 3] [--queries 200] [--tail 100] [--json bench/results/scale.json]';

function parseArgs(argv: readonly string[]) {
  const args = {
    sizes: [10_000, 50_000, 100_000],
    opens: 3,
    queries: 200,
    tail: 100,
    json: 'bench/results/scale.json',
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--') continue;
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value\n${usage}`);
    if (flag === '--sizes') args.sizes = value.split(',').map(Number);
    else if (flag === '--opens') args.opens = Number(value);
    else if (flag === '--queries') args.queries = Number(value);
    else if (flag === '--tail') args.tail = Number(value);
    else if (flag === '--json') args.json = value;
    else throw new Error(`unknown flag ${flag}\n${usage}`);
  }
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 1;
  if (!args.sizes.every(whole) || args.sizes.some((n, i) => i > 0 && n <= args.sizes[i - 1]!)) {
    throw new Error(`--sizes takes whole numbers ≥ 1, growing\n${usage}`);
  }
  if (![args.opens, args.queries, args.tail].every(whole)) {
    throw new Error(`--opens, --queries and --tail take whole numbers ≥ 1\n${usage}`);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const settings: Settings = { opens: args.opens, queries: args.queries, tail: args.tail };
const folder = await mkdtemp(join(tmpdir(), 'longship-bench-scale-'));
const rows: Row[] = [];
let scriptHeap: Awaited<ReturnType<typeof scriptHeaps>>;
try {
  scriptHeap = await scriptHeaps(folder);
  console.log(
    `script heap ${scriptHeap.bundledMb.toFixed(1)} MB as bundled, ${scriptHeap.minifiedMb.toFixed(1)} MB minified`,
  );
  let had = 0;
  for (const size of args.sizes) {
    console.log(`${size} passages:`);
    // The tail's ids follow every passage this run will load, so that they never collide.
    const tailFrom = 10_000_000 + rows.length * args.tail;
    const loaded = await grow(folder, had, size);
    const row = await measureSize(folder, size, { ...loaded, newPassages: size - had }, settings, tailFrom);
    rows.push(row);
    had = size;
    console.log(
      `  ${row.vectors} vectors: open ${row.openMedianMs.toFixed(0)} ms (median of ${args.opens}), ` +
        `find p50 ${row.findP50Ms.toFixed(2)} ms p95 ${row.findP95Ms.toFixed(2)} ms, ` +
        `heap ${row.heapOpenMb.toFixed(1)} MB + WASM ${row.wasmMb.toFixed(1)} MB = ${row.totalMb.toFixed(1)} MB`,
    );
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
const report = {
  date: new Date().toISOString(),
  runtime: 'workerd (Miniflare), SQLite-backed Durable Object',
  dimensions: DIMENSIONS,
  quantization: 'i8',
  ...settings,
  scriptHeap,
  rows,
  ceiling: ceiling(rows),
  ceilingEmptyLog: ceiling(rows, (row) => row.emptyLog.totalMb),
  machine: measureMachine(),
};
writeReport(args.json, report, markdown(report));
