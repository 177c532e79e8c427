// npm run bench:ovpack -- [--sizes 1000,10000] [--json bench/results/ovpack.json]
// OVPack export and import as the pack grows (docs/guide/ovpack.md): a directory of `size` files
// (100 to a subdirectory, about 1 KB of text each) on the file store, exported with its vectors to a
// file on disk, then imported from that file into a fresh file store. Each timed whole; while each
// runs, the heap and RSS are sampled every 5 ms and their peak growth over the level before it
// (after a full collection) is reported. The figure to watch: growth at the largest size ÷ growth at
// the smallest, which streaming keeps far below the ratio of the sizes.
import { openAsBlob } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openLongship } from '../../src/engine.js';
import { measureMachine } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { round } from '../lib/stats.js';
import { writeReport } from '../lib/write-report.js';

const usage = 'usage: npm run bench:ovpack -- [--sizes 1000,10000] [--json bench/results/ovpack.json]';

function parseArgs(argv: readonly string[]) {
  const args = { sizes: [1000, 10_000], json: 'bench/results/ovpack.json' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--') continue;
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value\n${usage}`);
    if (flag === '--sizes') args.sizes = value.split(',').map(Number);
    else if (flag === '--json') args.json = value;
    else throw new Error(`unknown flag ${flag}\n${usage}`);
  }
  if (!args.sizes.every((n) => Number.isSafeInteger(n) && n >= 1)) {
    throw new Error(`--sizes takes whole numbers ≥ 1\n${usage}`);
  }
  return args;
}

/** Words hashed into 512 dimensions, as many as the bundled model's: costs nothing, makes dense.f32 as large. */
const DIMENSIONS = 512;
const embedder = functionEmbedder({
  id: 'bench/words-512',
  dimensions: DIMENSIONS,
  embed: async (texts) =>
    texts.map((text) => {
      const vector = new Float32Array(DIMENSIONS);
      let all = 2166136261;
      for (const word of text.toLowerCase().split(/\W+/).filter(Boolean)) {
        let h = 2166136261;
        for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
        vector[(h >>> 0) % DIMENSIONS]! += 1;
        all = Math.imul(all ^ h, 16777619);
      }
      // A little noise in every dimension, so that the vectors deflate as a model's do: hardly at all.
      for (let d = 0; d < DIMENSIONS; d++) vector[d]! += (Math.imul(all, d + 1) >>> 0) / 2 ** 40;
      return vector;
    }),
});

const WORDS =
  'harbour sail mast keel rudder tide anchor chart compass bearing knot hull deck cabin galley'.split(' ');
/** File `i`: about 1 KB of text that differs from the others. */
const textOf = (i: number) =>
  Array.from({ length: 150 }, (_, w) => WORDS[(i * 7 + w * 13 + ((i * w) % 5)) % WORDS.length]).join(' ') +
  `. Log ${i}.`;

const gc = (globalThis as { gc?: () => void }).gc;

export interface Row {
  nodes: number;
  phase: 'export' | 'import';
  seconds: number;
  nodesPerS: number;
  packMb: number;
  peakHeapGrowthMb: number;
  /** The heap after a full collection, every second: what the phase holds, without its garbage. */
  peakLiveHeapGrowthMb: number;
  /**
   * The heap after a full collection once the phase is over: what stays (for an import, the store's
   * in-memory indexes of the nodes it wrote); the peak less this is what the phase itself held.
   */
  heldAfterMb: number;
  peakRssGrowthMb: number;
}

/** Runs `work`, sampling memory; its time and the peak growth of heap and RSS over the level before it. */
async function measured(work: () => Promise<void>) {
  gc?.();
  const base = process.memoryUsage();
  let heap = base.heapUsed;
  let rss = base.rss;
  let live = base.heapUsed;
  const sample = setInterval(() => {
    const now = process.memoryUsage();
    heap = Math.max(heap, now.heapUsed);
    rss = Math.max(rss, now.rss);
  }, 5);
  const collect = setInterval(() => {
    gc?.();
    live = Math.max(live, process.memoryUsage().heapUsed);
  }, 1000);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sample);
    clearInterval(collect);
  }
  const seconds = (performance.now() - started) / 1000;
  const now = process.memoryUsage();
  gc?.();
  const after = process.memoryUsage().heapUsed;
  return {
    seconds,
    heapMb: (Math.max(heap, now.heapUsed) - base.heapUsed) / 2 ** 20,
    liveMb: (Math.max(live, after) - base.heapUsed) / 2 ** 20,
    heldMb: (after - base.heapUsed) / 2 ** 20,
    rssMb: (Math.max(rss, now.rss) - base.rss) / 2 ** 20,
  };
}

async function one(size: number, folder: string): Promise<Row[]> {
  const source = await openLongship({ store: join(folder, `source-${size}`), embedder });
  const P = 'viking://resources/logbook';
  for (let i = 0; i < size; i++) {
    await source.write(`${P}/week-${Math.floor(i / 100)}/entry-${i}.md`, textOf(i), { parents: true });
  }
  const file = join(folder, `logbook-${size}.ovpack`);
  const exported = await measured(async () => {
    const handle = await open(file, 'w');
    const reader = (await source.export(P, { includeVectors: true })).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read())
      await handle.write(next.value);
    await handle.close();
  });
  await source.close();
  const packMb = (await stat(file)).size / 2 ** 20;
  const target = await openLongship({ store: join(folder, `target-${size}`), embedder });
  let written = 0;
  const imported = await measured(async () => {
    written = (await target.import(await openAsBlob(file), 'viking://resources')).nodes;
  });
  const expected = size + Math.ceil(size / 100) + 1;
  if (written !== expected) throw new Error(`imported ${written} nodes, not ${expected}`);
  await target.close();
  return (
    [
      ['export', exported],
      ['import', imported],
    ] as const
  ).map(([phase, m]) => ({
    nodes: expected,
    phase,
    seconds: round(m.seconds, 2)!,
    nodesPerS: round(expected / m.seconds, 0)!,
    packMb: round(packMb, 2)!,
    peakHeapGrowthMb: round(m.heapMb, 1)!,
    peakLiveHeapGrowthMb: round(m.liveMb, 1)!,
    heldAfterMb: round(m.heldMb, 1)!,
    peakRssGrowthMb: round(m.rssMb, 1)!,
  }));
}

function markdown(report: { rows: Row[]; machine: ReturnType<typeof measureMachine> }): string {
  const table = markdownTable(
    [
      'nodes',
      'phase',
      's',
      'nodes/s',
      'pack MB',
      'peak heap growth MB',
      'live heap MB',
      'held after MB',
      'peak RSS growth MB',
    ],
    report.rows.map((r) => [
      r.nodes.toLocaleString('en-US'),
      r.phase,
      cell(r.seconds, 2),
      cell(r.nodesPerS, 0),
      cell(r.packMb, 2),
      cell(r.peakHeapGrowthMb, 1),
      cell(r.peakLiveHeapGrowthMb, 1),
      cell(r.heldAfterMb, 1),
      cell(r.peakRssGrowthMb, 1),
    ]),
    ['r', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
  const { machine } = report;
  return `# OVPack export and import (file store, vectors carried)

${table}

A directory of files (100 to a subdirectory, about 1 KB of text each, ${DIMENSIONS}-dimension vectors), exported
to a file on disk and imported from it into a fresh store. Peak growth: the most the heap and RSS
rose over their level before each phase, sampled every 5 ms (garbage included); live heap: the most
it rose as measured after a full collection every second; held after: the heap after a full collection
once the phase is over (an import's target store keeps its indexes of the nodes in memory), so that
live less held is what the phase itself held while it ran.
${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, load average ${cell(machine.loadAverage, 2)}.
`;
}

const args = parseArgs(process.argv.slice(2));
const folder = await mkdtemp(join(tmpdir(), 'longship-bench-ovpack-'));
const rows: Row[] = [];
try {
  for (const size of args.sizes) {
    for (const row of await one(size, folder)) {
      rows.push(row);
      console.log(
        `${row.nodes} nodes ${row.phase}: ${row.seconds} s (${row.nodesPerS}/s), pack ${row.packMb} MB, ` +
          `peak heap +${row.peakHeapGrowthMb} MB (live +${row.peakLiveHeapGrowthMb} MB, held after +${row.heldAfterMb} MB), RSS +${row.peakRssGrowthMb} MB`,
      );
    }
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
const report = { date: new Date().toISOString(), store: 'file', rows, machine: measureMachine() };
writeReport(args.json, report, markdown(report));
