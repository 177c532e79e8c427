// npm run bench:embed -- --json bench/results/embed.json
// Sentences per second and load times of transformersEmbedder with the bundled model, fp32 and q8,
// in Node and in a module Worker in headless Chromium; medians of several repetitions, interleaved
// so that a busy spell on the machine hits every configuration alike.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledModel } from '../../src/embed/bundled-model.js';
import { parseArgs } from './args.js';
import { type ChromiumBench, type ChromiumMeasurement, openChromiumBench } from './chromium.js';
import type { Measurement } from './measure.js';
import type { NodeTask } from './node-child.js';
import { markdownReport, markdownTable, median, type Row, verdicts } from './report.js';
import { loadSentences } from './sentences.js';

const args = parseArgs(process.argv.slice(2));
const started = performance.now();
const loadAverageBefore = loadavg()[0]!;
const loadAverages: number[] = [];
const { texts, source } = loadSentences(args.sentences, args.corpus);
console.log(`bench:embed: ${texts.length} sentences (${source}); ${args.reps} repetitions`);

interface Config {
  runtime: Row['runtime'];
  dtype: Row['dtype'];
  threads: number;
  measurements: Measurement[];
}
const configs: Config[] = [];
for (const runtime of args.runtimes) {
  for (const dtype of args.dtypes) {
    for (const threads of runtime === 'node' ? args.nodeThreads : args.browserThreads) {
      configs.push({ runtime, dtype, threads, measurements: [] });
    }
  }
}

const chromium: ChromiumBench | undefined = args.runtimes.includes('chromium-worker')
  ? await openChromiumBench()
  : undefined;
try {
  for (let rep = 1; rep <= args.reps; rep++) {
    for (const config of configs) {
      const label = `rep ${rep}/${args.reps} ${config.runtime} ${config.dtype} ${config.threads}t`;
      const request = { dtype: config.dtype, threads: config.threads, batches: args.batches };
      const model = args.model
        ? {
            model: {
              ...bundledModel,
              directory: fileURLToPath(new URL(`../../${args.model}/`, import.meta.url)),
            },
          }
        : {};
      const measurement =
        config.runtime === 'node'
          ? inNodeChild({
              ...request,
              ...model,
              sentences: args.sentences,
              ...(args.corpus ? { corpus: args.corpus } : {}),
            })
          : await chromium!.measure({ ...request, texts }, args.wasmBuild, args.model);
      config.measurements.push(measurement);
      loadAverages.push(loadavg()[0]!);
      const rates = Object.entries(measurement.rates ?? {})
        .map(([batch, rate]) => `b${batch} ${rate.toFixed(1)}/s`)
        .join(', ');
      console.log(
        `${label}: load ${measurement.loadMs.toFixed(0)} ms, again ${measurement.loadAgainMs?.toFixed(0)} ms; ${rates} (load average ${loadavg()[0]!.toFixed(1)})`,
      );
    }
  }
} finally {
  await chromium?.close();
}

const rows: Row[] = configs.flatMap((config) =>
  args.batches.map((batch) => {
    const all = config.measurements;
    const cached = all
      .map((m) => (m as Partial<ChromiumMeasurement>).loadWarmMs)
      .filter((v) => v !== undefined);
    const browser = config.runtime === 'chromium-worker';
    return {
      runtime: config.runtime,
      backend: browser ? 'wasm' : 'cpu',
      dtype: config.dtype,
      batch,
      threads: config.threads,
      sentences_per_s: round(median(all.map((m) => m.rates![batch]!)), 1),
      sentences_per_s_max: round(Math.max(...all.map((m) => m.rates![batch]!)), 1),
      load_ms: round(median(all.map((m) => m.loadMs)), 0),
      load_warm_ms: round(median(all.map((m) => m.loadAgainMs!)), 0),
      ...(browser ? { load_http_cache_ms: round(median(cached), 0), wasm_build: args.wasmBuild } : {}),
      ...(args.model ? { model: args.model } : {}),
      reps: all.length,
    } satisfies Row;
  }),
);

console.log(`\n${markdownTable(rows)}\n`);
for (const verdict of verdicts(rows)) {
  console.log(
    `${verdict.met === undefined ? '-' : verdict.met ? 'met   ' : 'MISSED'} ${verdict.target}: ${verdict.measured}`,
  );
}
if (args.json) {
  mkdirSync(dirname(args.json), { recursive: true });
  writeFileSync(args.json, `${JSON.stringify(rows, null, 2)}\n`);
  const { dir, name } = parse(args.json);
  const markdown = markdownReport(rows, {
    date: new Date().toISOString(),
    revision: gitRevision(),
    node: process.version,
    chromium: chromium?.version,
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    cores: cpus().length,
    loadAverageBefore,
    loadAverageAfter: loadavg()[0]!,
    loadAverages,
    sentences: texts.length,
    source,
    minutes: (performance.now() - started) / 60_000,
  });
  writeFileSync(join(dir, `${name}.md`), markdown);
  console.log(`wrote ${args.json} and ${join(dir, `${name}.md`)}`);
}

function inNodeChild(task: NodeTask): Measurement {
  const child = fileURLToPath(new URL('./node-child.ts', import.meta.url));
  const output = execFileSync(process.execPath, ['--import', 'tsx', child, JSON.stringify(task)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
  });
  const line = output.split('\n').find((l) => l.startsWith('MEASUREMENT '));
  if (!line) throw new Error(`the Node child printed no measurement:\n${output}`);
  return JSON.parse(line.slice('MEASUREMENT '.length)) as Measurement;
}

function gitRevision(): string {
  try {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
