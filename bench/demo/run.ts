// npm run bench:demo -- [--runs 5] [--files 100] [--embedder model|words] [--json bench/results/demo.json]
//   [--smoke: one run, 8 files, hashed words: the code end to end, the figures meaningless]
// The demo page as a visitor meets it (issue 36), built once and served by Vite's preview server: as
// a static host serves it (no COOP/COEP: onnxruntime-web runs one thread), cross-origin isolated
// (COOP/COEP headers added by the benchmark's server), and isolated with the page's dedicated worker (the one
// worker Chromium isolates, so the one where onnxruntime-web may run threads). In Chromium, each run
// and each serving taking turns, medians:
// (a) a fresh profile: page.goto to the first results of a query typed as soon as the box is enabled;
// (b) a reload in the same profile, once the page is ready, to the results of another query;
// (c) a folder of Markdown files (the sample corpus's 91 pages and pages of docs/guide/) indexed in a
//     fresh `?corpus=none` profile through the page's `window.longship.addResource()`: pages/s.
// Writes bench/results/demo.json and demo.md (--json: elsewhere).
import { mkdtemp, rm } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { type DemoParams, demoUrl } from '../../test/e2e/demo-page.js';
import { buildDemo, type DemoServer, serveDemoBuild } from '../../test/e2e/demo-server.js';
import { launchChromium } from '../../test/targets/browser.js';
import { wholeFlag } from '../lib/args.js';
import { measureMachine } from '../lib/machine.js';
import { writeReport } from '../lib/write-report.js';
import { markdownFolder } from './folder.js';
import { firstOpen, freshContext, indexFolder, reloadOpen, workerFacts } from './measure.js';
import { type ConfigResult, type DemoReport, markdownReport, summary } from './report.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const usage =
  'usage: npm run bench:demo -- [--runs 5] [--files 100] [--embedder model|words] [--json bench/results/demo.json] [--smoke]';

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      runs: { type: 'string', default: '5' },
      files: { type: 'string', default: '100' },
      embedder: { type: 'string', default: 'model' },
      json: { type: 'string', default: 'bench/results/demo.json' },
      smoke: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const whole = (flag: string, value: string) => wholeFlag(flag, value, usage);
  if (values.embedder !== 'model' && values.embedder !== 'words')
    throw new Error(`--embedder takes model or words, not ${values.embedder}\n${usage}`);
  return {
    runs: values.smoke ? 1 : whole('runs', values.runs),
    files: values.smoke ? 8 : whole('files', values.files),
    embedder: (values.smoke ? 'words' : values.embedder) as 'model' | 'words',
    json: values.json,
  };
}

const args = parse(process.argv.slice(2));
const log = (message: string) =>
  console.log(`[bench:demo ${(performance.now() / 1000).toFixed(1)} s] ${message}`);
/** The longest a page may take to any one mark: the model's first load on a busy machine. */
const timeoutMs = 240_000;
const query = 'how do I publish a scoped package';
const reloadQuery = 'what does npm ci do';

const plainHeaders = {
  'Cross-Origin-Opener-Policy': 'unsafe-none',
  'Cross-Origin-Embedder-Policy': 'unsafe-none',
};
const isolatedHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * The servings of one build, with the headers each sets over demo/vite.config.ts's, and the page's
 * worker: Chromium does not isolate a SharedWorker (the page's default) even where the page is, while
 * a dedicated Worker (`?worker=dedicated`) is isolated with its page.
 */
const servings: Pick<ConfigResult, 'name' | 'headers' | 'worker'>[] = [
  { name: 'plain', headers: plainHeaders, worker: 'shared' },
  { name: 'isolated', headers: isolatedHeaders, worker: 'shared' },
  { name: 'isolated, dedicated worker', headers: isolatedHeaders, worker: 'dedicated' },
];

/** The page's URL parameters for a serving: its embedder and its worker. */
const pageParams = ({ worker }: ConfigResult): DemoParams => ({
  ...(args.embedder === 'words' ? { embedder: 'words' } : {}),
  ...(worker === 'dedicated' ? { worker: 'dedicated' } : {}),
});

interface Served {
  result: ConfigResult;
  server: DemoServer;
}

/** (a) and (b) in one fresh profile; the worker's isolation read on the first run. */
async function openRuns(browser: Browser, served: Served, first: boolean): Promise<void> {
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    const url = demoUrl(served.server.origin, pageParams(served.result));
    served.result.firstOpen.push(await firstOpen(page, url, query, timeoutMs));
    if (first) {
      served.result.pageIsolated = await page.evaluate(() => crossOriginIsolated);
      const facts = await workerFacts(browser, page, served.server.origin);
      served.result.workerIsolated = facts?.isolated ?? null;
      served.result.workerCores = facts?.cores ?? null;
    }
    served.result.reload.push(await reloadOpen(page, reloadQuery, timeoutMs));
  } finally {
    await context.close();
  }
}

/** (c) in one fresh, empty profile. */
async function indexRun(browser: Browser, served: Served, files: ReturnType<typeof markdownFolder>) {
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(demoUrl(served.server.origin, { corpus: 'none', ...pageParams(served.result) }));
    const run = await indexFolder(page, files, timeoutMs);
    if (run.added < files.length) throw new Error(`${run.added} nodes added for ${files.length} files`);
    served.result.index.push(run);
  } finally {
    await context.close();
  }
}

async function main() {
  const files = markdownFolder(root, args.files);
  const machine = measureMachine();
  const outDir = await mkdtemp(join(tmpdir(), 'longship-bench-demo-'));
  const all: Served[] = [];
  let browser: Browser | undefined;
  try {
    log('building the demo');
    await buildDemo(outDir);
    for (const serving of servings) {
      const server = await serveDemoBuild(outDir, { headers: serving.headers });
      const result: ConfigResult = {
        ...serving,
        pageIsolated: false,
        workerIsolated: null,
        workerCores: null,
        firstOpen: [],
        reload: [],
        index: [],
      };
      all.push({ result, server });
    }
    browser = await launchChromium();
    for (let run = 0; run < args.runs; run++) {
      // Taking turns, the first of a run alternating: a busy spell of the shared machine lands on both.
      const order = run % 2 === 0 ? all : [...all].reverse();
      for (const served of order) {
        await openRuns(browser, served, run === 0);
        log(
          `run ${run + 1}, ${served.result.name}: first results ${served.result.firstOpen.at(-1)?.resultMs.toFixed(0)} ms`,
        );
      }
      for (const served of order) {
        await indexRun(browser, served, files);
        log(
          `run ${run + 1}, ${served.result.name}: ${served.result.index.at(-1)?.pagesPerS.toFixed(2)} pages/s`,
        );
      }
    }
    const report: DemoReport = {
      date: new Date().toISOString(),
      machine,
      niceness: getPriority(),
      chromium: `Chromium ${browser.version()}`,
      embedder: args.embedder,
      runs: args.runs,
      query,
      reloadQuery,
      folder: {
        files: files.length,
        bytes: files.reduce((sum, file) => sum + Buffer.byteLength(file.content), 0),
        sources: ['demo/corpus/npm-docs/content', 'docs/guide'],
      },
      configs: all.map((served) => served.result),
    };
    writeReport(args.json, report, markdownReport(report));
    for (const config of summary(report).slice(1))
      log(`${config.name} ÷ plain, pages/s: ${config.ratio.toFixed(2)}×`);
  } finally {
    await browser?.close();
    for (const served of all) await served.server.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

await main();
