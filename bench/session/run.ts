// npm run bench:session -- [--sizes 10,1000,10000,100000] [--window 200] [--json bench/results/session.json]
// What one addMessage() costs as the messages pending grow (issue 33): one session on the file store
// (openLongship({ store: path }) in a temporary folder), filled by addMessage() itself up to each size, then
// a window of appends timed one by one (p50, p95), and context() (the recent messages search()
// plans from) likewise. Another session takes a few hundred appends first, to warm the code up. The figure to watch: p50 at the largest size ÷ p50 at the smallest.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLongship } from '../../src/engine.js';
import { wordEmbedder } from '../../test/store/kill-fixture.js';
import { measureMachine } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { median, quantile, round } from '../lib/stats.js';
import { writeReport } from '../lib/write-report.js';

interface Args {
  /** Messages pending when each window starts, ascending. */
  sizes: number[];
  /** Appends timed at each size. */
  window: number;
  json: string;
}

export interface Row {
  pending: number;
  appends: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  /** context(): the last five messages, as search() reads them. */
  contextP50Ms: number;
  /** Seconds the appends that reached this size took, and their mean in ms. */
  fillS: number;
  fillMeanMs: number;
  rssMb: number;
  /** After a full collection where the runtime allows one (`--expose-gc`). */
  heapMb: number;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { sizes: [10, 1000, 10_000, 100_000], window: 200, json: 'bench/results/session.json' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--') continue;
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--sizes') args.sizes = value.split(',').map(Number);
    else if (flag === '--window') args.window = Number(value);
    else if (flag === '--json') args.json = value;
    else throw new Error(`unknown flag ${flag}; flags: --sizes --window --json`);
  }
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 1;
  if (!args.sizes.every(whole) || args.sizes.some((n, i) => i > 0 && n <= args.sizes[i - 1]!)) {
    throw new Error('--sizes takes ascending whole numbers ≥ 1, such as 10,1000');
  }
  if (!whole(args.window)) throw new Error('--window takes a whole number ≥ 1');
  return args;
}

const PLACES = ['Lisbon', 'Porto', 'Faro', 'Braga', 'Coimbra', 'Evora', 'Sintra', 'Aveiro'];
/** Message `i`: a turn of a travel chat, about 120 characters. */
const textOf = (i: number) =>
  `Turn ${i}: shall we take the ${8 + (i % 12)}:15 train from ${PLACES[i % 8]} to ${PLACES[(i * 3 + 1) % 8]}, ` +
  'and book a quiet hotel near the old town for two nights?';

const gc = (globalThis as { gc?: () => void }).gc;

async function run(args: Args): Promise<Row[]> {
  const folder = mkdtempSync(join(tmpdir(), 'longship-bench-session-'));
  // Only the session's directory is embedded: a word-hash embedder costs nothing beside the store.
  const longship = await openLongship({ store: join(folder, 'store'), embedder: wordEmbedder });
  // Warm the code up on another session first: the first window must not pay for the compiler.
  const warm = longship.session('warm-up');
  for (let i = 1; i <= Math.min(200, args.window * 2); i++) await warm.addMessage('user', textOf(i));
  await warm.commit();
  const session = longship.session('bench');
  let added = 0;
  const add = () => session.addMessage(added % 2 ? 'assistant' : 'user', textOf(++added));
  const rows: Row[] = [];
  try {
    for (const size of args.sizes) {
      const from = added;
      const filling = performance.now();
      while (added < size) await add();
      const fillMs = performance.now() - filling;
      const times: number[] = [];
      for (let i = 0; i < args.window; i++) {
        const started = performance.now();
        await add();
        times.push(performance.now() - started);
      }
      const contextTimes: number[] = [];
      for (let i = 0; i < Math.min(50, args.window); i++) {
        const started = performance.now();
        await session.context();
        contextTimes.push(performance.now() - started);
      }
      gc?.();
      const memory = process.memoryUsage();
      const row: Row = {
        pending: size,
        appends: times.length,
        p50Ms: round(median(times), 3)!,
        p95Ms: round(quantile(times, 0.95), 3)!,
        meanMs: round(times.reduce((a, b) => a + b, 0) / times.length, 3)!,
        contextP50Ms: round(median(contextTimes), 3)!,
        fillS: round(fillMs / 1000, 2)!,
        fillMeanMs: round(size > from ? fillMs / (size - from) : 0, 3)!,
        rssMb: round(memory.rss / 2 ** 20, 1)!,
        heapMb: round(memory.heapUsed / 2 ** 20, 1)!,
      };
      rows.push(row);
      console.log(
        `${size} pending: addMessage p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms; context() p50 ${row.contextP50Ms} ms; ` +
          `filled in ${row.fillS} s; rss ${row.rssMb} MB, heap ${row.heapMb} MB`,
      );
    }
    const pending = (await longship.sessionInfo('bench')).pending;
    if (pending !== added) throw new Error(`the session holds ${pending} messages, not the ${added} added`);
  } finally {
    await longship.close();
    rmSync(folder, { recursive: true, force: true });
  }
  return rows;
}

function markdown(report: {
  rows: Row[];
  ratio: number;
  machine: ReturnType<typeof measureMachine>;
}): string {
  const { machine } = report;
  const table = markdownTable(
    [
      'pending',
      'addMessage p50 ms',
      'p95 ms',
      'mean ms',
      'context() p50 ms',
      'fill s',
      'fill ms/message',
      'RSS MB',
      'heap MB',
    ],
    report.rows.map((r) => [
      r.pending.toLocaleString('en-US'),
      cell(r.p50Ms, 2),
      cell(r.p95Ms, 2),
      cell(r.meanMs, 2),
      cell(r.contextP50Ms, 2),
      cell(r.fillS, 1),
      cell(r.fillMeanMs, 2),
      cell(r.rssMb, 0),
      cell(r.heapMb, 0),
    ]),
  );
  const first = report.rows[0]!;
  const last = report.rows.at(-1)!;
  return `# addMessage() as messages pend (file store)

${table}

p50 at ${last.pending.toLocaleString('en-US')} pending ÷ p50 at ${first.pending.toLocaleString('en-US')}: **${cell(report.ratio, 2)}×**.
${first.appends} appends timed at each size, after filling the session by addMessage() to that size.
${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, load average ${cell(machine.loadAverage, 2)}.
`;
}

const args = parseArgs(process.argv.slice(2));
const loadAtStart = loadavg()[0]!;
const rows = await run(args);
const ratio = round(rows.at(-1)!.p50Ms / rows[0]!.p50Ms, 3)!;
console.log(`p50 ratio, ${rows.at(-1)!.pending} ÷ ${rows[0]!.pending} pending: ${ratio}`);
const report = {
  date: new Date().toISOString(),
  store: 'file',
  window: args.window,
  rows,
  ratio,
  loadAtStart,
  machine: measureMachine(),
};
writeReport(args.json, report, markdown(report));
