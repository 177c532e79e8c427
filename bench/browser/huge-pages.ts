// npm run bench:huge-pages -- --profile DIR [--runs 4] [--n 100000] [--json FILE] [--machine-pages-only]
// What fresh memory costs a cold open on this machine. bench:browser's cold opens of its large store
// (kept in DIR by `npm run bench:browser -- --profile DIR`), a dedicated Worker each, alternating
// Linux's transparent huge pages as the machine has them and set to `always`: with 2 MB pages a fresh
// MB is one page fault, not 256, and a machine whose faults are slow (a VM with shadow page tables)
// shows what the open itself costs. In a running browser and right after the launch, as bench:browser.
// Needs Linux and root; the machine's setting is put back after each open, and on any exit.
// --machine-pages-only: the opens with the machine's setting alone, nothing written to the kernel's
// setting (no root needed; the smoke run's mode, which must not change a machine's settings).
// Writes bench/results/browser-huge-pages.json and .md (--json: elsewhere).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureMachine } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { median } from '../lib/stats.js';
import { writeReport } from '../lib/write-report.js';
import {
  inStoreWorker,
  largeStoreMarker,
  launchOnProfile,
  SETTLE_MS,
  serveStoreWorker,
} from './in-store-worker.js';
import { corpusQueries } from './queries.js';

const THP = '/sys/kernel/mm/transparent_hugepage/enabled';
const root = fileURLToPath(new URL('../..', import.meta.url));
const log = (message: string) => console.log(`[bench:huge-pages] ${message}`);

const argv = process.argv.slice(2).filter((a) => a !== '--');
const option = (name: string) => {
  const at = argv.indexOf(name);
  return at < 0 ? undefined : argv[at + 1];
};
const profile = option('--profile');
const runs = Number(option('--runs') ?? 4);
const n = Number(option('--n') ?? 100_000);
const out = option('--json') ?? join(root, 'bench/results/browser-huge-pages.json');
const machinePagesOnly = argv.includes('--machine-pages-only');
const marker = profile && largeStoreMarker(profile, n);
if (!marker || !existsSync(marker)) {
  throw new Error(
    '--profile DIR must hold the large store: run `npm run bench:browser -- --profile DIR` first',
  );
}
if (!existsSync(THP)) throw new Error(`${THP} is missing: transparent huge pages need Linux`);

/** The machine's setting, as the file shows it: "always [madvise] never". */
const machine = /\[(\w+)\]/.exec(readFileSync(THP, 'utf8'))?.[1];
if (!machine) throw new Error(`cannot read the setting in ${THP}`);
const setPages = (mode: string) => {
  if (!machinePagesOnly) writeFileSync(THP, mode);
};
const restore = () => setPages(machine);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    restore();
    process.exit(1);
  });
}
// Fails here, before any open, without root (unless --machine-pages-only).
setPages(machine);

const modes = [machine, ...(machinePagesOnly ? [] : ['always'])].filter(
  (mode, i, all) => all.indexOf(mode) === i,
);
type Kind = 'running' | 'launching';
interface Open {
  pages: string;
  browser: Kind;
  firstResultMs: number;
  bootMs: number;
  openMs: number;
  firstFindMs: number;
  warmFindMs: number;
}

const { port } = JSON.parse(readFileSync(marker, 'utf8')) as { port: number };
const server = await serveStoreWorker(port, 'bench:huge-pages');
const usearch = `${server.origin}/wasm/dist/usearch.wasm`;

async function coldOpen(pages: string, browser: Kind, label: string): Promise<Open> {
  setPages(pages);
  try {
    const context = await launchOnProfile(profile!);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      if (browser === 'running') await page.waitForTimeout(SETTLE_MS);
      await page.goto(`${server.origin}/`);
      const queries = corpusQueries.slice(0, 11).map((q) => `${q} (${label})`);
      const answer = await inStoreWorker(
        page,
        { op: 'open', name: 'bench-large', dims: 512, usearch, queries },
        600_000,
      );
      if ('error' in answer) throw new Error(answer.error);
      if (answer.op !== 'open' || answer.hits === 0) throw new Error('the first find() found nothing');
      const { firstResultMs, bootMs, openMs, firstFindMs, warmFindMs } = answer;
      return { pages, browser, firstResultMs, bootMs, openMs, firstFindMs, warmFindMs };
    } finally {
      await context.close();
    }
  } finally {
    restore();
  }
}

const opens: Open[] = [];
try {
  // Not counted: the first open after a build or a change of code may rebuild and snapshot an index.
  await coldOpen(machine, 'running', 'settle');
  for (let run = 0; run < runs; run++) {
    for (const [k, browser] of (['launching', 'running'] as const).entries()) {
      // Which setting goes first alternates, run by run and kind by kind.
      const order = (run + k) % 2 === 0 ? modes : [...modes].reverse();
      for (const pages of order) {
        const open = await coldOpen(pages, browser, `${run} ${pages}`);
        opens.push(open);
        log(
          `${run + 1} ${browser}, pages ${pages}: first result ${open.firstResultMs.toFixed(0)} ms (module ${open.bootMs.toFixed(0)}, open ${open.openMs.toFixed(0)}, first find ${open.firstFindMs.toFixed(0)})`,
        );
      }
    }
  }
} finally {
  restore();
  await server.close();
}

const date = new Date().toISOString();
const figures = measureMachine();
const where: Record<Kind, string> = {
  running: 'in a running browser',
  launching: "right after the browser's launch",
};
const rows: string[][] = [];
for (const browser of ['running', 'launching'] as const) {
  const medians = modes.map((pages) =>
    median(opens.filter((o) => o.browser === browser && o.pages === pages).map((o) => o.firstResultMs)),
  );
  for (const [i, pages] of modes.entries()) {
    const these = opens.filter((o) => o.browser === browser && o.pages === pages);
    rows.push([
      `cold open to the first find() result, ${where[browser]}, transparent huge pages \`${pages}\`${pages === machine ? " (the machine's)" : ''}`,
      `${cell(medians[i], 0)} ms`,
      these.map((o) => cell(o.firstResultMs, 0)).join(', '),
      `${cell(median(these.map((o) => o.bootMs)), 0)} / ${cell(median(these.map((o) => o.openMs)), 0)} / ${cell(median(these.map((o) => o.firstFindMs)), 0)} ms`,
      i === 0 ? '' : `${cell(medians[i]! / medians[0]!, 2)}×`,
    ]);
  }
}
const markdown = [
  '# bench:huge-pages — what fresh memory costs a cold open',
  '',
  `${date}, ${figures.cores} × ${figures.cpu}, load average ${cell(figures.loadAverage, 1)}; a fresh MB written from Node here: ${cell(figures.firstTouchMsPerMb, 2)} ms (again: ${cell(figures.secondTouchMsPerMb, 2)} ms). Generated by \`npm run bench:huge-pages\`; see bench/browser/huge-pages.ts.`,
  '',
  markdownTable(
    ['measure', 'median', 'runs', 'module / openLongship() / first find, medians', "against the machine's"],
    rows,
    ['l', 'r', 'l', 'r', 'r'],
  ),
  '',
  `- The cold opens of bench:browser's ${n.toLocaleString('en-US')}-vector store, a dedicated Worker, a new browser process each, ${runs} of each kind with each setting, alternating. Only the kernel's page size for fresh memory differs: the code, the store and the browser are the same.`,
  '',
].join('\n');
writeReport(out, { date, machine: figures, thpMachine: machine, runs, n, opens }, markdown);
