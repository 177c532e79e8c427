// The demo page driven as a visitor drives it, timed on the page's own clock (milliseconds from the
// navigation's start): a fresh profile to its first results, a reload to its results, and a folder
// of Markdown indexed through the page's `window.longship`, as its folder input does.
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** What one open of the page took, from the navigation's start. */
export interface OpenRun {
  /** To the search box enabled. */
  enabledMs: number;
  /** To the results of the query typed as soon as the box was enabled. */
  resultMs: number;
  /** How many results the page showed. */
  results: number;
}

/** One folder indexed in a fresh profile. */
export interface IndexRun {
  ms: number;
  pagesPerS: number;
  /** Nodes the folder's addResource() added: its folders and every file, or the run is broken. */
  added: number;
}

interface Marks {
  enabledAt?: number;
  shown: { query: string; at: number }[];
}

/**
 * Before any script of each page: records, on the page's clock, when the search box is first enabled
 * and each time the results are shown for a query (`#results[data-query]`, set once they are drawn).
 * Text, not a function: tsx would wrap its inner functions in a helper the page does not have.
 */
const recordMarks = `{
  const marks = { shown: [] };
  window.__demoBench = marks;
  new MutationObserver((records) => {
    const box = document.getElementById('query');
    if (marks.enabledAt === undefined && box && !box.disabled) marks.enabledAt = performance.now();
    for (const record of records) {
      const target = record.target;
      if (record.attributeName === 'data-query' && target.id === 'results' && target.dataset.query)
        marks.shown.push({ query: target.dataset.query, at: performance.now() });
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled', 'data-query'] });
}`;

/** A context that records the page's marks: a fresh profile (storage, caches, workers of its own). */
export async function freshContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript({ content: recordMarks });
  return context;
}

/** Types `query` once the box is enabled; the marks of this navigation once its results are shown. */
async function openRun(page: Page, query: string, timeoutMs: number): Promise<OpenRun> {
  await page.waitForSelector('#query:not([disabled])', { timeout: timeoutMs });
  await page.fill('#query', query);
  await page.waitForFunction((q) => document.getElementById('results')?.dataset.query === q, query, {
    timeout: timeoutMs,
  });
  const marks = await page.evaluate(() => (window as unknown as { __demoBench: Marks }).__demoBench);
  const shown = marks.shown.find((mark) => mark.query === query);
  if (marks.enabledAt === undefined || !shown)
    throw new Error(`the page recorded no marks: ${JSON.stringify(marks)}`);
  return {
    enabledMs: marks.enabledAt,
    resultMs: shown.at,
    results: await page.locator('#results .result').count(),
  };
}

/** page.goto in a fresh context to the results of `query`. */
export async function firstOpen(page: Page, url: string, query: string, timeoutMs: number): Promise<OpenRun> {
  await page.goto(url, { waitUntil: 'commit' });
  return openRun(page, query, timeoutMs);
}

/**
 * page.reload once the page has settled (its state `ready`: the corpus stored), to the results of
 * `query`: the visitor's second visit, with the data kept.
 */
export async function reloadOpen(page: Page, query: string, timeoutMs: number): Promise<OpenRun> {
  await waitState(page, timeoutMs);
  await page.reload({ waitUntil: 'commit' });
  return openRun(page, query, timeoutMs);
}

/** Waits for the page's state `ready`; fails with its status where it is `error`. */
export async function waitState(page: Page, timeoutMs: number): Promise<void> {
  await page.waitForFunction(
    () => document.body.dataset.state === 'ready' || document.body.dataset.state === 'error',
    undefined,
    { timeout: timeoutMs, polling: 100 },
  );
  if ((await page.evaluate(() => document.body.dataset.state)) === 'error')
    throw new Error(`the demo failed: ${await page.textContent('#status')}`);
}

/**
 * In a page opened with `?corpus=none` and ready: one short file indexed first (the model loaded and
 * run once), then `files` timed, from the call to every document written.
 */
export async function indexFolder(
  page: Page,
  files: { path: string; content: string }[],
  timeoutMs: number,
): Promise<IndexRun> {
  await waitState(page, timeoutMs);
  const { ms, added } = await page.evaluate(async (entries) => {
    type AddResource = (
      entries: { path: string; content: string }[],
      options: { name: string },
    ) => Promise<{ added: number }>;
    const longship = (window as unknown as { longship: { addResource: AddResource } }).longship;
    await longship.addResource([{ path: 'warm-up.md', content: '# Warm-up\n\nOne short page.' }], {
      name: 'warm-up',
    });
    const started = performance.now();
    const result = await longship.addResource(entries, { name: 'my-notes' });
    return { ms: performance.now() - started, added: result.added };
  }, files);
  return { ms, pagesPerS: files.length / (ms / 1000), added };
}

/** Whether the worker the model runs in is cross-origin isolated, and the cores it sees. */
export interface WorkerFacts {
  isolated: boolean;
  cores: number;
}

const factsExpression =
  'JSON.stringify({ isolated: crossOriginIsolated, cores: navigator.hardwareConcurrency })';

/**
 * The facts of the page's worker: onnxruntime-web runs one thread unless the worker is cross-origin
 * isolated, and then takes half its cores, up to 4. A dedicated Worker is the page's; a SharedWorker
 * Playwright does not reach, but the browser's DevTools protocol does. null: no worker found.
 */
export async function workerFacts(browser: Browser, page: Page, origin: string): Promise<WorkerFacts | null> {
  const dedicated = page.workers().find((worker) => worker.url().startsWith(origin));
  if (dedicated) return JSON.parse(await dedicated.evaluate(factsExpression)) as WorkerFacts;
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find((t) => t.type === 'shared_worker' && t.url.startsWith(origin));
    if (!worker) return null;
    const { sessionId } = await cdp.send('Target.attachToTarget', {
      targetId: worker.targetId,
      flatten: false,
    });
    const answer = new Promise<string>((resolve) =>
      cdp.on('Target.receivedMessageFromTarget', (event) => {
        const message = JSON.parse(event.message) as { id?: number; result?: { result: { value: string } } };
        if (event.sessionId === sessionId && message.id === 1) resolve(message.result?.result.value ?? '');
      }),
    );
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({
        id: 1,
        method: 'Runtime.evaluate',
        params: { expression: factsExpression, returnByValue: true },
      }),
    });
    const facts = await Promise.race([
      answer,
      new Promise<string>((resolve) => setTimeout(resolve, 10_000, '')),
    ]);
    return facts ? (JSON.parse(facts) as WorkerFacts) : null;
  } finally {
    await cdp.detach().catch(() => {});
  }
}
