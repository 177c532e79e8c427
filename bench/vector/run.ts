// npm run bench:vector -- --n 100000 --dims 512 --json bench/results/index.json
// Builds and searches every engine on the same seeded clustered vectors, each in its own child process,
// and writes the rows as JSON plus a markdown table (same basename, .md) with the ratios the targets name.
import { execFileSync, fork } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from '../lib/args.js';
import { datasetFor, defaultCacheDir } from '../lib/dataset.js';
import { measureFreshWrites } from '../lib/fresh-memory.js';
import { measureMachine } from '../lib/machine.js';
import { shippedSizes } from '../lib/sizes.js';
import type { ChildMessage, ChildTask } from './child.js';
import { consoleTable, markdownReport, type ReportContext } from './report.js';
import type { Row } from './row.js';

const args = parseArgs(process.argv.slice(2));
const log = (message: string) => console.log(message);
if (args.renderOnly) {
  if (!args.json) throw new Error('--render-only needs --json PATH');
  const rows = JSON.parse(readFileSync(args.json, 'utf8')) as Row[];
  const context = JSON.parse(readFileSync(contextPath(args.json), 'utf8')) as ReportContext;
  writeReport(rows, context, args.json);
  process.exit(0);
}
const childPath = fileURLToPath(new URL('./child.ts', import.meta.url));
const startedAll = performance.now();
const date = new Date().toISOString();

/** An engine spec is NAME or NAME@N. */
const nameOf = (spec: string) => spec.split('@')[0]!;
const sizeOf = (spec: string) => {
  const at = spec.split('@')[1];
  return Math.min(args.n, at ? Number(at) : (args.engineN[spec] ?? args.n));
};
log(
  `bench:vector n=${args.n} dims=${args.dims} queries=${args.queries} k=${args.k} seed=${args.seed} ` +
    `engines=${args.engines.join(',')} (Node ${process.version}, ${cpus().length} cores)`,
);
const machine = measureMachine();
log(
  `machine: ${machine.cores} × ${machine.cpu}, ${machine.memoryGb.toFixed(0)} GB, load average ${machine.loadAverage.toFixed(2)}; ` +
    `first write to fresh memory ${machine.firstTouchMsPerMb.toFixed(2)} ms/MB, second ${machine.secondTouchMsPerMb.toFixed(3)} ms/MB`,
);
// The floor under a load of the f32 index into a fresh heap: writing its vectors' bytes at all.
const freshWrites = await measureFreshWrites((args.n * args.dims * 4) / 1024 ** 2);
log(
  `writing the f32 vectors' ${freshWrites.mb.toFixed(0)} MB into fresh memory: ${freshWrites.oneThreadMs.toFixed(0)} ms ` +
    `on one thread, ${freshWrites.twoThreadsMs.toFixed(0)} ms on two (medians of ${freshWrites.rounds})`,
);
const data = datasetFor(args, [args.n, ...args.engines.map(sizeOf)], log);

const revision = gitRevision();
log(`code: ${revision}`);
const rows: Row[] = [];
for (const spec of args.engines) {
  const engine = nameOf(spec);
  const n = sizeOf(spec);
  const timeout = args.timeouts[spec] ?? args.timeouts[engine] ?? args.timeout;
  const loadBefore = loadavg()[0]!;
  log(`\n${engine}: n=${n}, timeout ${timeout} s`);
  const row = await runChild(
    {
      engine,
      n,
      dims: args.dims,
      k: args.k,
      seed: args.seed,
      base: data.base,
      queries: data.queries,
      queryCount: args.queries,
      truth: data.truth[n]!,
    },
    timeout,
  );
  if (n < args.n) {
    const reason = spec.includes('@')
      ? `run at n=${n} too, to compare with a peer run at that n`
      : args.engineN[engine]
        ? `run at n=${n} (--engine-n), not ${args.n}`
        : '';
    if (reason) row.note = row.note ? `${reason}; ${row.note}` : reason;
  }
  row.load_avg = [Number(loadBefore.toFixed(2)), Number(loadavg()[0]!.toFixed(2))];
  rows.push(row);
  // Written after every engine, so that what finished survives whatever happens to the rest.
  if (args.json) writeRows(args.json, rows);
  log(
    `  build ${fmt(row.build_s, 2)} s, p50 ${fmt(row.search_p50_ms, 3)} ms, p95 ${fmt(row.search_p95_ms, 3)} ms, ` +
      `recall@${args.k} ${fmt(row.recall10, 4)}, memory ${fmt(row.memory_mb, 1)} MB, bytes ${row.bytes ?? '—'}, ` +
      `load ${fmt(row.load_ms, 1)} ms${row.view_ms != null ? `, view ${fmt(row.view_ms, 1)} ms` : ''}` +
      `${row.note ? `\n  note: ${row.note}` : ''}`,
  );
}

const totalSeconds = (performance.now() - startedAll) / 1000;
const sizes = await shippedSizes();
const context: ReportContext = {
  args,
  description: data.description,
  totalSeconds,
  sizes,
  machine,
  freshWrites,
  revision,
  date,
};
log(`\n${consoleTable(rows, context)}`);
if (args.json) {
  writeRows(args.json, rows);
  writeFileSync(contextPath(args.json), `${JSON.stringify(context, null, 2)}\n`);
  writeReport(rows, context, args.json);
} else {
  log(`\n${markdownReport(rows, context)}`);
}
log(`total ${(totalSeconds / 60).toFixed(1)} min`);

function writeRows(path: string, rows: Row[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(rows, null, 2)}\n`);
}

function writeReport(rows: Row[], context: ReportContext, jsonPath: string): void {
  const mdPath = `${jsonPath.replace(/\.json$/i, '')}.md`;
  writeFileSync(mdPath, markdownReport(rows, context));
  log(`\nwrote ${jsonPath} and ${mdPath}`);
}

/** Where a run keeps what the markdown needs besides the rows (machine, sizes, commit), for --render-only. */
function contextPath(jsonPath: string): string {
  return join(args.cacheDir ?? defaultCacheDir(), `${basename(jsonPath, '.json')}.context.json`);
}

/** The commit measured, and whether src/ or wasm/ differ from it. */
function gitRevision(): string {
  const git = (...command: string[]) =>
    execFileSync('git', command, {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      encoding: 'utf8',
    }).trim();
  try {
    const commit = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--', 'src', 'wasm');
    return dirty ? `${commit} with uncommitted changes in src/ or wasm/` : commit;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

function fmt(value: number | null | undefined, decimals: number): string {
  return value === null || value === undefined ? '—' : value.toFixed(decimals);
}

/** Runs one engine in a child process; a crash or timeout becomes a row of nulls with a note saying why. */
function runChild(task: ChildTask, timeoutSeconds: number): Promise<Row> {
  return new Promise((resolve) => {
    const started = performance.now();
    let lastProgress = '';
    let errorMessage = '';
    let result: Row | undefined;
    let timedOut = false;
    const stderr: string[] = [];
    const child = fork(childPath, [JSON.stringify(task)], {
      execArgv: [...process.execArgv, '--expose-gc', '--max-old-space-size=16384'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const keep = (chunk: Buffer, echo: boolean) => {
      const text = chunk.toString();
      stderr.push(text);
      if (stderr.length > 50) stderr.shift();
      if (echo && args.verbose) process.stdout.write(text.replace(/^/gm, `  [${task.engine}] `));
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      if (args.verbose) process.stdout.write(chunk.toString().replace(/^/gm, `  [${task.engine}] `));
    });
    child.stderr?.on('data', (chunk: Buffer) => keep(chunk, true));
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'progress') {
        lastProgress = message.message;
        log(`  ${message.message}`);
      } else if (message.type === 'result') {
        result = message.row;
      } else {
        errorMessage = message.message;
      }
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutSeconds * 1000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const wall = (performance.now() - started) / 1000;
      if (result) {
        resolve({ ...result, wall_s: wall });
        return;
      }
      const why = timedOut
        ? `timed out after ${timeoutSeconds} s${lastProgress ? ` (last progress: ${lastProgress})` : ''}`
        : errorMessage
          ? `failed: ${errorMessage}`
          : `child exited with ${signal ?? `code ${code}`}: ${stderr.join('').trim().split('\n').slice(-3).join(' ')}`;
      resolve({
        engine: task.engine,
        n: task.n,
        dims: task.dims,
        quantization: 'f32',
        build_s: null,
        search_p50_ms: null,
        search_p95_ms: null,
        recall10: null,
        memory_mb: null,
        bytes: null,
        load_ms: null,
        note: why,
        wall_s: wall,
      });
    });
  });
}
