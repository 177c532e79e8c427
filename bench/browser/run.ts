// npm run bench:browser -- [--n 100000] [--runs 3] [--model-runs 2] [--skip-large] [--skip-corpus] [--shared]
//   [--json bench/results/browser.json] [--smoke: every part at a tiny size, for the smoke run]
//   [--profile DIR]: keep the large store's browser profile in DIR, and reuse it when it holds one
//   (writing 100k documents takes ~20 minutes). A part skipped keeps its figures from the last run.
// Longship in Chromium (headless, Debian's build, one tab):
// 1. cold open of an n-vector IndexedDB store to its first find() result, from a fresh browser
//    process on the same profile each run, twice a run: in a browser already running, and right
//    after its launch (synthetic 512-d clustered vectors through a function embedder: building 100k
//    documents with the model is out of reach here);
// 2. on the demo's sample corpus (the npm docs) with the bundled model, through the demo page,
//    openLongshipInWorker() and its SharedWorker: ingestion documents/s, find() end to end (query
//    embedding included) p50/p95 in both modes, and a cold page to its first result;
// 3. ingestion with the hashed-words embedder: the pipeline without the model.
// Writes bench/results/browser.json and bench/results/browser.md (--json: elsewhere).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { nodesPerEmbedCall } from '../../src/ingest/commit/commit-units.js';
import { type DemoServer, serveBuiltDemo } from '../../test/e2e/demo-server.js';
import { launchChromium, onnxruntimeWebDist } from '../../test/targets/browser.js';
import { measureMachine } from '../lib/machine.js';
import { cell, markdownTable } from '../lib/markdown.js';
import { median, quantile } from '../lib/stats.js';
import {
  inStoreWorker,
  largeStoreMarker,
  launchOnProfile,
  SETTLE_MS,
  serveStoreWorker,
} from './in-store-worker.js';
import { corpusQueries } from './queries.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const corpusDir = join(root, 'demo/corpus/npm-docs/content');

interface Args {
  n: number;
  runs: number;
  modelRuns: number;
  large: boolean;
  corpus: boolean;
  /** Run nothing: write the markdown again from bench/results/browser.json. */
  renderOnly: boolean;
  /** Where to keep (and find) the large store's profile; default a temporary one, removed after. */
  profile: string | undefined;
  /**
   * The large store in a SharedWorker (openLongshipInWorker()'s default kind), which reads its snapshots
   * as Files: its cold opens are kept apart (`largeShared`), and the dedicated Worker's kept.
   */
  shared: boolean;
  /** The JSON's path; the markdown goes beside it. */
  json: string;
  /**
   * Each part at a tiny size (one ingestion round of 16 documents, the 4 shortest pages of the corpus, one
   * round of finds, one cold page): the code run end to end in a minute, the figures meaningless.
   */
  smoke: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    n: 100_000,
    runs: 3,
    modelRuns: 2,
    large: true,
    corpus: true,
    renderOnly: false,
    profile: undefined,
    shared: false,
    json: join(root, 'bench/results/browser.json'),
    smoke: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--') continue;
    if (flag === '--skip-large') args.large = false;
    else if (flag === '--skip-corpus') args.corpus = false;
    else if (flag === '--render-only') args.renderOnly = true;
    else if (flag === '--shared') args.shared = true;
    else if (flag === '--smoke') args.smoke = true;
    else if (flag === '--json') args.json = argv[++i]!;
    else if (flag === '--n') args.n = Number(argv[++i]);
    else if (flag === '--runs') args.runs = Number(argv[++i]);
    else if (flag === '--model-runs') args.modelRuns = Number(argv[++i]);
    else if (flag === '--profile') args.profile = argv[++i];
    else throw new Error(`unknown flag ${flag}`);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const out = args.json.replace(/\.json$/, '');
/** Documents in each round of the ingestion measure. */
const ingestDocs = args.smoke ? 16 : 256;
const log = (message: string) => console.log(`[bench:browser] ${message}`);

// ---- 1. A large store, opened cold --------------------------------------------------------------

interface LargeRun {
  /**
   * `running`: the browser launched and left idle for {@link SETTLE_MS} on a blank page, then the page
   * navigated to and the Worker started at once: a user opening the app in their browser. `launching`:
   * the page loaded and the Worker started right after the browser's launch, beside the browser's own
   * start (its GPU and network processes, its profile) on the same 2 cores. Runs before the field are
   * `launching`.
   */
  browser?: 'running' | 'launching';
  /**
   * From `new Worker` in the page to the worker's answer: after the first find() result, the later
   * finds and close() too. Runs before `firstResultMs` was taken used it as the cold open.
   */
  pageMs: number;
  /** From `new Worker` to the first find() result, on the worker's clock (it starts at `new Worker`). */
  firstResultMs?: number;
  /** From `new Worker` to the worker's module evaluated (runs before it lack it). */
  bootMs?: number;
  openMs: number;
  firstFindMs: number;
  warmFindMs: number;
  /** A find() right after a use was recorded (a write), p50. */
  afterWriteFindMs: number;
  openedFrom: Record<string, string>;
}

/** One fresh browser process: 256 documents into the large store, and the model on the same texts. */
interface IngestRun {
  storeIndexMsPerDoc: number;
  firstCommitMs: number;
  /** Jobs, each beside the model alone on its batches, with the snapshot it left; see store-worker.ts. */
  endToEnd?: EndToEndRound[];
  /** Runs before the rounds timed one job each, here; runs before the end-to-end measure, none. */
  ingestMs?: number;
  modelMs?: number;
  snapshotMs?: number;
  embedMsPerDoc: number;
}

interface EndToEndRound {
  ingestMs: number;
  modelMs: number;
  /** Runs before the debounce lack it. */
  snapshotMs?: number;
  /** The longest the snapshot held the worker at a time; runs before it lack it. */
  snapshotHeldMs?: number;
}

/** A share with its sign: +9, −3. */
const signed = (share: number) => (share < 0 ? `−${cell(-share, 0)}` : `+${cell(share, 0)}`);

/** What a job took beyond the model alone, as a share of the model's time (%). */
function endToEndShare(round: EndToEndRound): number {
  return (100 * (round.ingestMs - round.modelMs)) / round.modelMs;
}

/** A run's end-to-end rounds, older runs' one job read as one round. */
function endToEndRounds(run: IngestRun): EndToEndRound[] {
  if (run.endToEnd) return run.endToEnd;
  const { ingestMs, modelMs, snapshotMs } = run;
  if (ingestMs === undefined || modelMs === undefined) return [];
  return [{ ingestMs, modelMs, ...(snapshotMs !== undefined ? { snapshotMs } : {}) }];
}

/** One fresh browser process reading the snapshots on their own: what a cold open spends on them. */
interface ReadsRun {
  storeMs: number;
  snapshots: { name: string; mb: number; ms: number; from: 'file' | 'indexeddb' }[];
}

async function largeStore(args: Args): Promise<{
  build: { ms: number; closeMs: number };
  runs: LargeRun[];
  ingest?: IngestRun[];
  reads?: ReadsRun[];
  /** The same snapshots read from IndexedDB Blobs, in the same processes, alternating with `reads`. */
  readsFromBlobs?: ReadsRun[];
}> {
  const profile = args.profile ?? (await mkdtemp(join(tmpdir(), 'longship-bench-browser-')));
  const marker = largeStoreMarker(profile, args.n);
  const kept = existsSync(marker)
    ? (JSON.parse(readFileSync(marker, 'utf8')) as { ms: number; closeMs: number; port: number })
    : undefined;
  const server = await serveStoreWorker(kept?.port ?? 0, 'bench:browser');
  const launch = () => launchOnProfile(profile);
  const usearch = `${server.origin}/wasm/dist/usearch.wasm`;
  const dims = 512;
  const name = 'bench-large';
  try {
    let context: BrowserContext;
    let page: Page;
    if (kept) {
      log(`reusing the ${args.n}-document store in ${profile}`);
      // One open not counted: a store written by older code may rebuild an index, and closing
      // snapshots it, as it would for a user once.
      context = await launch();
      page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${server.origin}/`);
      const settled = await inStoreWorker(
        page,
        { op: 'open', name, dims, usearch, queries: ['settle'] },
        3_600_000,
        args.shared,
      );
      await context.close();
      if ('error' in settled) throw new Error(settled.error);
    }
    const built = kept ? { ms: kept.ms, closeMs: kept.closeMs } : await buildLarge();
    const runs: LargeRun[] = [];
    const kinds = ['running', 'launching'] as const;
    for (let i = 0; i < 2 * args.runs; i++) {
      const run = i >> 1;
      // Alternating which kind goes first, run by run.
      const browser = kinds[(i + run) % 2]!;
      context = await launch();
      page = context.pages()[0] ?? (await context.newPage());
      if (browser === 'running') await page.waitForTimeout(SETTLE_MS);
      await page.goto(`${server.origin}/`);
      const queries = corpusQueries.slice(0, 11).map((q) => `${q} (${i})`);
      const opened = await inStoreWorker(
        page,
        { op: 'open', name, dims, usearch, queries },
        600_000,
        args.shared,
      );
      await context.close();
      if ('error' in opened) throw new Error(opened.error);
      if (opened.op !== 'open') throw new Error('unexpected answer');
      if (opened.hits === 0) {
        const trace = JSON.stringify(opened.emptyTrace).slice(0, 2000);
        throw new Error(`the first find() found nothing: ${JSON.stringify(opened.sizes)} ${trace}`);
      }
      log(
        `  cold open ${run + 1}, browser ${browser}: ${opened.firstResultMs.toFixed(0)} ms to the first result (worker module ${opened.bootMs.toFixed(0)} ms, open ${opened.openMs.toFixed(0)} ms, first find ${opened.firstFindMs.toFixed(0)} ms, find after a write ${opened.afterWriteFindMs.toFixed(0)} ms; from ${JSON.stringify(opened.openedFrom)})`,
      );
      runs.push({
        browser,
        pageMs: opened.pageMs,
        firstResultMs: opened.firstResultMs,
        bootMs: opened.bootMs,
        openMs: opened.openMs,
        firstFindMs: opened.firstFindMs,
        warmFindMs: opened.warmFindMs,
        afterWriteFindMs: opened.afterWriteFindMs,
        openedFrom: opened.openedFrom,
      });
    }
    if (args.shared) return { build: built, runs };
    // What ingestion adds to the model at this size: documents committed into the store, indexed,
    // against the bundled model embedding the same texts in the same worker (fresh process each run).
    const ingest: IngestRun[] = [];
    for (let run = 0; run < Math.min(args.runs, 3); run++) {
      context = await launch();
      page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${server.origin}/`);
      const measured = await inStoreWorker(
        page,
        {
          op: 'ingest',
          name,
          dims,
          usearch,
          docs: ingestDocs,
          ...(args.smoke ? { rounds: 1 } : {}),
          modelDirectory: `${server.origin}/model/use-lite/`,
          wasmPaths: `${server.origin}/${onnxruntimeWebDist(root)}/`,
        },
        600_000,
      );
      await context.close();
      if ('error' in measured) throw new Error(measured.error);
      if (measured.op !== 'ingest') throw new Error('unexpected answer');
      const { storeIndexMsPerDoc, firstCommitMs, embedMsPerDoc, endToEnd } = measured;
      const jobs = endToEnd
        .map(
          (r) =>
            `${r.ingestMs.toFixed(0)} against ${r.modelMs.toFixed(0)} ms (+${endToEndShare(r).toFixed(1)}%; the snapshot after it ${r.snapshotMs.toFixed(0)} ms, holding the worker at most ${r.snapshotHeldMs.toFixed(0)} ms at a time)`,
        )
        .join(', ');
      log(
        `  ingestion ${run + 1}: first writes after the open ${firstCommitMs.toFixed(0)} ms; then store + index ${storeIndexMsPerDoc.toFixed(2)} ms a document, the model ${embedMsPerDoc.toFixed(2)} ms: ${((100 * storeIndexMsPerDoc) / embedMsPerDoc).toFixed(1)}%; addResource() against the model alone: ${jobs}`,
      );
      ingest.push({ storeIndexMsPerDoc, firstCommitMs, embedMsPerDoc, endToEnd });
    }
    // Then the snapshots alone, each read in a fresh process too: their share of the open, from the
    // OPFS files and from a copy in IndexedDB Blobs, in alternating order.
    const blobs = `${name}-blobs`;
    context = await launch();
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.origin}/`);
    const copied = await inStoreWorker(page, { op: 'copy', from: name, to: blobs }, 600_000);
    await context.close();
    if ('error' in copied) throw new Error(copied.error);
    const reads: ReadsRun[] = [];
    const readsFromBlobs: ReadsRun[] = [];
    for (let run = 0; run < args.runs; run++) {
      for (const db of run % 2 === 0 ? [name, blobs] : [blobs, name]) {
        context = await launch();
        page = context.pages()[0] ?? (await context.newPage());
        await page.goto(`${server.origin}/`);
        const read = await inStoreWorker(page, { op: 'reads', name: db }, 600_000);
        if ('error' in read) throw new Error(read.error);
        if (read.op !== 'reads') throw new Error('unexpected answer');
        log(
          `  snapshots read ${run + 1} (${db}): store ${read.storeMs.toFixed(0)} ms, ${read.snapshots.map((s) => `${s.name} (${s.mb.toFixed(1)} MB, ${s.from}) ${s.ms.toFixed(0)} ms`).join(', ')}`,
        );
        (db === name ? reads : readsFromBlobs).push({ storeMs: read.storeMs, snapshots: read.snapshots });
        await context.close();
      }
    }
    return { build: built, runs, ingest, reads, readsFromBlobs };
  } finally {
    await server.close();
    if (!args.profile) await rm(profile, { recursive: true, force: true });
  }

  async function buildLarge(): Promise<{ ms: number; closeMs: number }> {
    log(`building a ${args.n}-document store (synthetic ${dims}-d vectors) in Chromium`);
    const context = await launch();
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => {
      const text = message.text();
      if (text.startsWith('progress ') && Number(text.slice(9)) % 10_000 === 0)
        log(`  ${text.slice(9)} written`);
    });
    await page.goto(`${server.origin}/`);
    const built = await inStoreWorker(
      page,
      { op: 'build', name, n: args.n, dims, batch: 1000, usearch },
      3_600_000,
    );
    if ('error' in built) throw new Error(built.error);
    if (built.op !== 'build') throw new Error('unexpected answer');
    log(
      `  built in ${(built.ms / 1000).toFixed(0)} s, closed (snapshots written) in ${(built.closeMs / 1000).toFixed(1)} s`,
    );
    await context.close();
    const figures = { ms: built.ms, closeMs: built.closeMs };
    writeFileSync(marker, JSON.stringify({ ...figures, port: Number(new URL(server.origin).port) }));
    return figures;
  }
}

// ---- 2 and 3. The sample corpus through the demo page ---------------------------------------------

interface CorpusFigures {
  embedder: 'model' | 'words';
  /** Seconds to index the 91 pages, one per run. */
  ingestSeconds: number[];
  documents: number;
  find?: { thinking: number[]; quick: number[] };
  /** A new page on the indexed store: navigation to its first find() result (the model loads then). */
  coldPageMs?: number[];
}

function corpusEntries(): { path: string; content: string }[] {
  const entries: { path: string; content: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md'))
        entries.push({ path: relative(corpusDir, path), content: readFileSync(path, 'utf8') });
    }
  };
  walk(corpusDir);
  return entries.sort((a, b) => a.path.localeCompare(b.path));
}

async function waitReady(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.body.dataset.state === 'ready' || document.body.dataset.state === 'error',
    undefined,
    { timeout: 600_000, polling: 100 },
  );
  if ((await page.evaluate(() => document.body.dataset.state)) === 'error') {
    throw new Error(`the demo failed: ${await page.textContent('#status')}`);
  }
}

async function timeFinds(page: Page, mode: 'thinking' | 'quick', rounds: number): Promise<number[]> {
  return (await page.evaluate(
    `(async () => {
      const queries = ${JSON.stringify(corpusQueries)};
      const times = [];
      for (let round = 0; round < ${rounds}; round++) {
        for (const query of queries) {
          const started = performance.now();
          const result = await longship.find(query, { limit: 10, mode: '${mode}' });
          times.push(performance.now() - started);
          if (result.total === 0) throw new Error('no result for ' + query);
        }
      }
      return times;
    })()`,
  )) as number[];
}

async function corpus(server: DemoServer, embedder: 'model' | 'words', runs: number): Promise<CorpusFigures> {
  // The smoke run's four shortest pages: the model's time goes with their length.
  const all = corpusEntries();
  const entries = args.smoke ? [...all].sort((x, y) => x.content.length - y.content.length).slice(0, 4) : all;
  const browser = await launchChromium();
  const figures: CorpusFigures = { embedder, ingestSeconds: [], documents: entries.length };
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext();
      const remote: string[] = [];
      context.on('request', (request) => {
        if (!request.url().startsWith(server.origin)) remote.push(request.url());
      });
      try {
        let page = await context.newPage();
        const url = `${server.origin}/?embedder=${embedder}&corpus=none&db=bench-${embedder}`;
        await page.goto(url);
        await waitReady(page);
        const seconds = (await page.evaluate(
          `(async () => {
            const started = performance.now();
            await longship.addResource(${JSON.stringify(entries)}, { name: 'npm-docs' });
            return (performance.now() - started) / 1000;
          })()`,
        )) as number;
        figures.ingestSeconds.push(seconds);
        log(`  ${embedder}: indexed ${entries.length} pages in ${seconds.toFixed(1)} s`);
        if (embedder === 'model' && run === runs - 1) {
          // Warm up (the first find loads nothing new: the model is loaded by ingestion).
          await timeFinds(page, 'thinking', 1);
          figures.find = {
            thinking: await timeFinds(page, 'thinking', args.smoke ? 1 : 3),
            quick: await timeFinds(page, 'quick', args.smoke ? 1 : 3),
          };
          log(
            `  find() p50: thinking ${median(figures.find.thinking).toFixed(1)} ms, quick ${median(figures.find.quick).toFixed(1)} ms`,
          );
          figures.coldPageMs = [];
          for (let cold = 0; cold < (args.smoke ? 1 : 3); cold++) {
            // A fresh page on the stored corpus; the last page closed, so its SharedWorker ends with it.
            await page.close();
            await new Promise((done) => setTimeout(done, 1000));
            const next = await context.newPage();
            await next.goto(url);
            await waitReady(next);
            const ms = (await next.evaluate(
              `longship.find('How do I publish a scoped package?', { limit: 10 }).then(() => performance.now())`,
            )) as number;
            figures.coldPageMs.push(ms);
            log(`  cold page to first result: ${ms.toFixed(0)} ms`);
            page = next;
          }
        }
        if (remote.length > 0) throw new Error(`requests left localhost: ${remote.join(', ')}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return figures;
}

// ---- Report ---------------------------------------------------------------------------------------

/** The cold opens of one kind; runs from before the kinds were told apart opened as `launching` did. */
function runsIn(runs: readonly LargeRun[], browser: 'running' | 'launching'): LargeRun[] {
  return runs.filter((r) => (r.browser ?? 'launching') === browser);
}

/** Where each kind of cold open spent its time, medians. */
function breakdown(runs: readonly LargeRun[]): string {
  const parts: string[] = [];
  for (const [browser, where] of [
    ['running', 'in a running browser'],
    ['launching', 'right after the launch'],
  ] as const) {
    const these = runsIn(runs, browser);
    if (these.length === 0) continue;
    parts.push(
      `${where}: ${boot(these)}\`openLongship()\` (store; HNSW, BM25 and node catalogue snapshots) median ${cell(median(these.map((r) => r.openMs)), 0)} ms and the first \`find()\` ${cell(median(these.map((r) => r.firstFindMs)), 0)} ms; later finds p50 ${cell(median(these.map((r) => r.warmFindMs)), 1)} ms${afterWrite(these)}`,
    );
  }
  return parts.join('; ');
}

/** Runs from before the worker's boot time was taken lack it. */
function boot(runs: readonly LargeRun[]): string {
  const times = runs.map((r) => r.bootMs).filter((ms): ms is number => ms !== undefined);
  return times.length > 0 ? `loading the worker's module median ${cell(median(times), 0)} ms, ` : '';
}

/** Runs from before the after-a-write figure lack it. */
function afterWrite(runs: readonly LargeRun[]): string {
  const times = runs.map((r) => r.afterWriteFindMs).filter((ms) => Number.isFinite(ms));
  return times.length > 0
    ? `, a find right after a write (a recorded use) p50 ${cell(median(times), 1)} ms`
    : '';
}

/** The snapshots read on their own (runs before it lack them): medians by snapshot. */
function snapshotReads(
  reads: readonly ReadsRun[] | undefined,
  fromBlobs: readonly ReadsRun[] | undefined,
): string[] {
  const summary = (runs: readonly ReadsRun[]) => {
    const each = runs[0]!.snapshots.map((s) => {
      const ms = median(runs.map((r) => r.snapshots.find((x) => x.name === s.name)?.ms ?? Number.NaN));
      return `${s.name} ${cell(s.mb, 1)} MB ${cell(ms, 0)} ms`;
    });
    const total = median(runs.map((r) => r.snapshots.reduce((sum, s) => sum + s.ms, 0)));
    const from = runs[0]!.snapshots.every((s) => s.from === 'file') ? 'OPFS files' : 'IndexedDB Blobs';
    return `from ${from}: store open ${cell(median(runs.map((r) => r.storeMs)), 0)} ms, ${each.join(', ')}; all four ${cell(total, 0)} ms`;
  };
  if (!reads?.[0]) return [];
  const blobs = fromBlobs?.[0] ? `; the same bytes ${summary(fromBlobs)}` : '';
  return [
    `- **The snapshots alone** (${reads.length} more fresh browser processes, a dedicated Worker each: \`openIdbStore()\`, then each snapshot read and checked, nothing parsed; the graph through \`snapshotInto\` into a buffer), medians ${summary(reads)}${blobs} (each in a fresh process of its own, the two in alternating order). The rest of \`openLongship()\` is parsing them and the engine's own start.`,
  ];
}

interface Saved {
  date: string;
  chromium: string;
  machine: ReturnType<typeof measureMachine>;
  args: Omit<Args, 'json'>;
  large: Awaited<ReturnType<typeof largeStore>> | undefined;
  /** The same cold opens in a SharedWorker (`--shared`), its snapshots read as Files. */
  largeShared?: Awaited<ReturnType<typeof largeStore>>;
  largeSharedDate?: string;
  corpora: CorpusFigures[];
  /** When the large store and the corpus parts were last run, where not both now. */
  largeDate?: string;
  corporaDate?: string;
}

function report(json: Saved) {
  const { args, large, corpora, machine, chromium: version } = json;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(`${out}.json`, `${JSON.stringify(json, null, 2)}\n`);
  const lines = [
    '# bench:browser — Longship in Chromium',
    '',
    `${json.date}, headless Chromium ${version}, ${machine.cores} × ${machine.cpu}, ${machine.memoryGb.toFixed(0)} GB, load average ${machine.loadAverage.toFixed(1)} (the machine is shared: expect noise). Generated by \`npm run bench:browser\`; see bench/browser/run.ts.`,
    '',
  ];
  const rows: string[][] = [];
  const coldOpen = (runs: readonly LargeRun[], what: string) => {
    for (const [browser, where] of [
      ['running', 'in a running browser'],
      ['launching', "right after the browser's launch"],
    ] as const) {
      const page = runsIn(runs, browser).map((r) => r.firstResultMs ?? r.pageMs);
      if (page.length === 0) continue;
      rows.push([
        `${what}, ${where}`,
        `${cell(median(page), 0)} ms`,
        `${page.length} runs: ${page.map((x) => cell(x, 0)).join(', ')} ms`,
        '≤ 1,000 ms',
        median(page) <= 1000 ? 'met' : 'not met',
      ]);
    }
  };
  if (large)
    coldOpen(
      large.runs,
      `cold open of a ${args.n.toLocaleString('en-US')}-vector store to the first find() result`,
    );
  const { largeShared } = json;
  if (largeShared)
    coldOpen(largeShared.runs, "the same in a SharedWorker (openLongshipInWorker()'s default)");
  if (large?.ingest?.length) {
    const shares = large.ingest.map((r) => (100 * r.storeIndexMsPerDoc) / r.embedMsPerDoc);
    rows.push([
      `store + index per document in the ${args.n.toLocaleString('en-US')}-vector store, as a share of the bundled model's embedding`,
      `${cell(median(shares), 1)}%`,
      `${shares.length} runs: ${shares.map((x) => cell(x, 1)).join(', ')}% (store + index ${large.ingest.map((r) => cell(r.storeIndexMsPerDoc, 2)).join(', ')} ms; model ${large.ingest.map((r) => cell(r.embedMsPerDoc, 2)).join(', ')} ms)`,
      '≤ 10%',
      median(shares) <= 10 ? 'met' : 'not met',
    ]);
  }
  const endToEnd = (large?.ingest ?? []).map(endToEndRounds).filter((rounds) => rounds.length > 0);
  if (endToEnd.length) {
    // The median of every job; each run's jobs listed apart.
    const shares = endToEnd.flat().map(endToEndShare);
    const perRun = endToEnd.map((rounds) => rounds.map((r) => signed(endToEndShare(r))).join(', '));
    const snapshots = endToEnd.flat().map((r) => r.snapshotMs);
    const held = endToEnd.flat().map((r) => r.snapshotHeldMs);
    const range = (times: number[]) =>
      `${cell(Math.min(...times) / 1000, 2)}–${cell(Math.max(...times) / 1000, 2)} s`;
    rows.push([
      `ingestion end to end in the ${args.n.toLocaleString('en-US')}-vector store: \`addResource()\` of 256 notes with the bundled model, beyond the model alone`,
      `${signed(median(shares))}%`,
      `${endToEnd.length} runs of ${endToEnd.map((rounds) => rounds.length).join(', ')} jobs: ${perRun.map((run) => `${run}%`).join('; ')} (the model alone ${cell(Math.min(...endToEnd.flat().map((r) => r.modelMs)) / 1000, 1)}–${cell(Math.max(...endToEnd.flat().map((r) => r.modelMs)) / 1000, 1)} s)${snapshots.every((ms) => ms !== undefined) ? `; not in it, the snapshot written after each job: ${range(snapshots as number[])}${held.every((ms) => ms !== undefined) ? `, holding the worker at most ${range(held as number[])} at a time` : ''}` : ''}`,
      '≤ 10%',
      median(shares) <= 10 ? 'met' : 'not met',
    ]);
  }
  const model = corpora.find((c) => c.embedder === 'model');
  if (model?.find) {
    rows.push([
      'find() end to end, sample corpus, THINKING, query embedding included',
      `${cell(median(model.find.thinking), 1)} ms`,
      `p95 ${cell(quantile(model.find.thinking, 0.95), 1)} ms, ${model.find.thinking.length} calls`,
      '≤ 40 ms',
      median(model.find.thinking) <= 40 ? 'met' : 'not met',
    ]);
    rows.push([
      'find() end to end, sample corpus, QUICK',
      `${cell(median(model.find.quick), 1)} ms`,
      `p95 ${cell(quantile(model.find.quick, 0.95), 1)} ms, ${model.find.quick.length} calls`,
      '≤ 40 ms',
      median(model.find.quick) <= 40 ? 'met' : 'not met',
    ]);
  }
  for (const c of corpora) {
    const rates = c.ingestSeconds.map((s) => c.documents / s);
    rows.push([
      `ingestion, sample corpus (${c.documents} pages), ${c.embedder === 'model' ? 'bundled model' : 'hashed-words embedder (no model)'}`,
      `${cell(median(rates), 1)} docs/s`,
      `${c.ingestSeconds.length} runs: ${c.ingestSeconds.map((s) => `${cell(s, 1)} s`).join(', ')}`,
      '',
      '',
    ]);
  }
  if (model?.coldPageMs) {
    rows.push([
      'a new page on the indexed sample corpus to its first find() result (model load included)',
      `${cell(median(model.coldPageMs), 0)} ms`,
      `${model.coldPageMs.length} run(s)`,
      '',
      '',
    ]);
  }
  lines.push(markdownTable(['measure', 'median', 'runs', 'target', ''], rows, ['l', 'r', 'l', 'r', 'l']));
  if (large) {
    const first = large.runs[0];
    lines.push(
      '',
      `- **Cold open**: a new browser process on the same profile each run; in the page, from \`new Worker\` (its module bundled, split and minified as a production build ships it) to the first \`find()\` result. In a running browser, the browser was left idle ${SETTLE_MS / 1000} s on a blank page after its launch, then the page opened and started the Worker at once; right after the launch, the page opened at once, beside the browser's own start; the two alternate, run by run. Of which ${breakdown(large.runs)}. Indexes opened from: ${JSON.stringify(first?.openedFrom)}.${json.largeDate && json.largeDate !== json.date ? ` Measured ${json.largeDate}.` : ''}`,
      ...snapshotReads(large.reads, large.readsFromBlobs),
      ...(large.ingest?.length
        ? [
            `- **Store + index at ${args.n.toLocaleString('en-US')}** (issue 4's ingestion overhead in real IndexedDB): in a fresh browser process each run, the dedicated Worker opens the large store, loads the bundled model (onnxruntime-web WASM, one thread, as a page without cross-origin isolation has), embeds 256 texts in batches of 32 once to warm it (a model's first pass at a batch size is ~25% slower), then 3 more times, timed, then commits 3 rounds of 256 synthetic documents with those texts (a node, one vector, a posting) ${nodesPerEmbedCall} at a time, as ingestion commits one embedding call's worth, each commit in the HNSW graph (i8), BM25 and the node catalogue before it resolves, and removes them again; the medians of the 3 rounds are compared. End to end: with no snapshot pending (\`flush()\`), \`addResource()\` of 256 one-chunk notes (one folder) with the bundled model behind the store's embedder id, to the job's end and the refresh of the directories above it (\`waitProcessed()\`), against the model alone on exactly the batches that ingestion asked it for (timed after the job's snapshot is written, so that none runs beside it); three jobs a run, each right before its model-alone timing, as the model's speed drifts within a run; the figure is the median of every job's share. Snapshots are debounced: the job's commits come closer together than the 2 s quiet spell a snapshot waits for, and the snapshot it leaves is written after it. Not in either figure: the first writes after the open (a directory, then ${nodesPerEmbedCall} documents), which build the catalogue's map by key and BM25's key → slot map once, and grow the graph's arrays: ${large.ingest.map((r) => cell(r.firstCommitMs, 0)).join(', ')} ms.`,
          ]
        : []),
      ...(largeShared
        ? [
            `- **In a SharedWorker** (\`--shared\`: \`openLongshipInWorker()\`'s default kind, which has no sync access handles: it writes its snapshots' OPFS files through writable streams and reads them as Files: the graph through the File's stream into one reused buffer, the others whole), on a store of the same documents. Of which ${breakdown(largeShared.runs)}. Indexes opened from: ${JSON.stringify(largeShared.runs[0]?.openedFrom)}.${json.largeSharedDate ? ` Measured ${json.largeSharedDate}.` : ''}`,
          ]
        : []),
      `- The ${args.n.toLocaleString('en-US')} documents are synthetic (a 60-word text and a 512-d unit vector near one of 100 cluster centres, bench/store/synthetic.ts) written through a function embedder in commits of 1,000: ${cell(large.build.ms / 1000, 0)} s to write, ${cell(large.build.closeMs / 1000, 1)} s to close (snapshots). Embedding 100k documents with the bundled model would take hours on this machine.`,
    );
  }
  lines.push(
    '- **find() end to end**: called from the demo page through `openLongshipInWorker()` (comlink, SharedWorker), the query embedded by the bundled USE-lite (WASM, one thread), 40 questions × 3 rounds, after a warm-up round.',
    '- **Ingestion**: `addResource()` of the 91 pages from the page, to its result (read, split, summarise, embed, one commit per embedding call of ~32 nodes), fresh IndexedDB each run.',
  );
  if (json.corporaDate && json.corporaDate !== json.date)
    lines.push(`- The sample corpus figures were measured ${json.corporaDate}.`);
  writeFileSync(`${out}.md`, `${lines.join('\n')}\n`);
  log(`wrote ${relative(root, out)}.json and .md`);
}

async function main() {
  // Where the profile was kept and the results go are this machine's business, not the results'.
  const { json: _json, ...recorded } = args;
  if (args.renderOnly) {
    report(JSON.parse(readFileSync(`${out}.json`, 'utf8')) as Saved);
    return;
  }
  const probe = await launchChromium();
  const version = probe.version();
  await probe.close();
  // A part not run keeps its figures (and their date) from the last run.
  const previous = existsSync(`${out}.json`)
    ? (JSON.parse(readFileSync(`${out}.json`, 'utf8')) as Partial<Saved>)
    : {};
  const date = new Date().toISOString();
  const measured = args.large ? await largeStore(args) : undefined;
  const large = measured && !args.shared ? measured : previous.large;
  const largeDate = measured && !args.shared ? date : (previous.largeDate ?? previous.date);
  const largeShared = measured && args.shared ? measured : previous.largeShared;
  const largeSharedDate = measured && args.shared ? date : previous.largeSharedDate;
  const corpora: CorpusFigures[] = args.corpus ? [] : (previous.corpora ?? []);
  const corporaDate = args.corpus ? date : (previous.corporaDate ?? previous.date);
  if (args.corpus) {
    const server = await serveBuiltDemo();
    try {
      log('sample corpus, hashed-words embedder');
      corpora.push(await corpus(server, 'words', args.runs));
      log('sample corpus, bundled model');
      corpora.push(await corpus(server, 'model', args.modelRuns));
    } finally {
      await server.close();
    }
  }
  report({
    date,
    ...(largeDate ? { largeDate } : {}),
    ...(corporaDate ? { corporaDate } : {}),
    chromium: version,
    machine: measureMachine(),
    args: { ...recorded, profile: undefined },
    large,
    ...(largeShared ? { largeShared, largeSharedDate } : {}),
    corpora,
  });
}

await main();
