// npm run bench:extension -- [--pages 1000] [--runs 3] [--json bench/results/extension.json]
//   [--smoke: 10 pages, one run: the code end to end, the figures meaningless]
// The example extension (examples/extension/) built against the packed package and loaded in
// Debian's Chromium (--headless=new) on a profile of its own: N synthetic pages of about 1.5 KB of
// text saved through the service worker's savePage(), then per run the browser restarted on that
// profile and, through the service worker, the first search timed (offscreen document, worker,
// store, model, find()) and a next one; the PSS of the browser's processes before the engine starts
// and idle after; the store's folders on disk once the browser is closed. Medians.
// docs/guide/extension.md ("What it costs") gives the figures.
// Writes bench/results/extension.json and extension.md (--json: elsewhere).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  debianChromium,
  type ExtensionBrowser,
  launchWithExtension,
} from '../../test/e2e/extension-browser.js';
import { wholeFlag } from '../lib/args.js';
import { measureMachine } from '../lib/machine.js';
import { writeReport } from '../lib/write-report.js';
import { buildExtension } from './build.js';
import { browserPss, savePages, storeOnDisk, timedCall } from './measure.js';
import { queries, syntheticPage } from './pages.js';
import { type ExtensionReport, markdownReport, type OpenRun, summary } from './report.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const usage =
  'usage: npm run bench:extension -- [--pages 1000] [--runs 3] [--json bench/results/extension.json] [--smoke]';

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      pages: { type: 'string', default: '1000' },
      runs: { type: 'string', default: '3' },
      json: { type: 'string', default: 'bench/results/extension.json' },
      smoke: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const whole = (flag: string, value: string) => wholeFlag(flag, value, usage);
  return {
    pages: values.smoke ? 10 : whole('pages', values.pages),
    runs: values.smoke ? 1 : whole('runs', values.runs),
    // The guide's figure reads memory 15 s after the last search; the smoke does not wait that long.
    idleS: values.smoke ? 2 : 15,
    json: values.json,
  };
}

const args = parse(process.argv.slice(2));
const log = (message: string) =>
  console.log(`[bench:extension ${(performance.now() / 1000).toFixed(1)} s] ${message}`);
/** Pages saved at once, as the guide's figures were measured. */
const batch = 10;
/** Where the pages say they come from: never fetched, savePage() takes the text as given. */
const origin = 'https://pages.example';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** One restart: the engine's first search and next, and the browser's PSS before and idle after. */
async function openRun(browser: ExtensionBrowser, profile: string): Promise<OpenRun> {
  await sleep(2000);
  const pssBeforeBytes = await browserPss(profile);
  const first = await timedCall(browser.serviceWorker, 'search', { query: queries[0] });
  const next = await timedCall(browser.serviceWorker, 'search', { query: queries[1] });
  const results = (first.value as { results: unknown[] }).results.length;
  if (results === 0) throw new Error(`the first search found nothing in ${args.pages} pages`);
  await sleep(args.idleS * 1000);
  return {
    firstSearchMs: first.ms,
    nextSearchMs: next.ms,
    results,
    pssBeforeBytes,
    pssIdleBytes: await browserPss(profile),
  };
}

async function main() {
  const machine = measureMachine();
  const scratch = await mkdtemp(join(tmpdir(), 'longship-bench-extension-'));
  let launches = 0;
  const launch = () => launchWithExtension(extension, profile, join(scratch, `net-log-${launches++}.json`));
  let extension = '';
  const profile = join(scratch, 'profile');
  try {
    log('packing the package and building the example');
    extension = await buildExtension(repo, scratch);
    const pages = Array.from({ length: args.pages }, (_, n) => syntheticPage(origin, n));
    let browser = await launch();
    let saveMs: number;
    try {
      saveMs = await savePages(browser.serviceWorker, pages, batch);
    } finally {
      await browser.context.close();
    }
    log(`saved ${pages.length} pages in ${(saveMs / 1000).toFixed(1)} s`);
    const runs: OpenRun[] = [];
    for (let run = 0; run < args.runs; run++) {
      browser = await launch();
      try {
        runs.push(await openRun(browser, profile));
      } finally {
        await browser.context.close();
      }
      log(`run ${run + 1}: first search ${runs.at(-1)!.firstSearchMs.toFixed(0)} ms`);
    }
    const report: ExtensionReport = {
      date: new Date().toISOString(),
      machine,
      niceness: getPriority(),
      chromium: execFileSync(debianChromium, ['--version'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim(),
      pages: pages.length,
      pageBytes: pages.reduce((sum, page) => sum + Buffer.byteLength(page.text), 0),
      queries,
      idleS: args.idleS,
      save: { ms: saveMs, pagesPerS: pages.length / (saveMs / 1000), batch },
      disk: await storeOnDisk(profile, browser.id),
      runs,
    };
    writeReport(args.json, report, markdownReport(report));
    const s = summary(report);
    log(`first search ${s.firstSearchS.toFixed(2)} s, next ${s.nextSearchMs.toFixed(0)} ms`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
