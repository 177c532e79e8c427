// The page's side of bench:browser's store worker (./store-worker.ts): the server that serves it, a
// browser process on the large store's profile, and one request, one answer.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import {
  bundleFilesForBrowser,
  chromiumFlags,
  chromiumPath,
  type StaticServer,
  serveFiles,
} from '../../test/targets/browser.js';
import type { StoreWorkerAnswer, StoreWorkerRequest } from './store-worker.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** How long a launched browser is left idle before a `running` cold open navigates. */
export const SETTLE_MS = 3000;

/** Where bench:browser leaves a note beside the large store it built in `profile`: its build times and port. */
export function largeStoreMarker(profile: string, n: number): string {
  return join(profile, `longship-bench-${n}.json`);
}

/**
 * Serves the project (the WASM under /wasm/dist/), the store worker at /bundle/store-worker.js and a
 * blank page at /, on `port` (0: any free one). IndexedDB belongs to an origin: a kept store is only
 * found again on the port that wrote it.
 */
export async function serveStoreWorker(port: number, title: string): Promise<StaticServer> {
  // Split and minified as an app's production build would be: the model runtime, which the synthetic
  // embedder never loads, is a chunk of its own, so the worker's start is not spent parsing it, and the
  // worker's module is about half the bytes to fetch and parse (~40 ms less to start in 6 fresh processes).
  const bundle = await bundleFilesForBrowser(fileURLToPath(new URL('./store-worker.ts', import.meta.url)), {
    minify: true,
  });
  return serveFiles(
    root,
    {
      '/': { body: `<!doctype html><title>${title}</title>`, type: 'text/html' },
      ...Object.fromEntries(Object.entries(bundle).map(([name, body]) => [`/bundle/${name}`, { body }])),
    },
    port,
  );
}

/** A new headless browser process on `profile` (a cold open's browser). */
export function launchOnProfile(profile: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    args: chromiumFlags,
    headless: true,
    timeout: 60_000,
  });
}

/**
 * Starts the store worker (bundled at /bundle/store-worker.js) in `page`, sends it `request`, and
 * resolves with its answer and the time from `new Worker` to it on the page's clock.
 */
export async function inStoreWorker(
  page: Page,
  request: StoreWorkerRequest,
  timeoutMs: number,
  shared = false,
): Promise<Exclude<StoreWorkerAnswer, { progress: number }> & { pageMs: number }> {
  // A string, not a function: tsx would add helpers to a function's code that the page lacks. A
  // SharedWorker outlives the page's call: each run closes its browser process.
  const start = shared
    ? `const worker = new SharedWorker('/bundle/store-worker.js', { type: 'module', name: 'bench' });
      const port = worker.port; port.start(); const done = () => {};`
    : `const worker = new Worker('/bundle/store-worker.js', { type: 'module' });
      const port = worker; const done = () => worker.terminate();`;
  return (await page.evaluate(
    `new Promise((resolve) => {
      const started = performance.now();
      ${start}
      const timer = setTimeout(() => resolve({ error: 'timed out' }), ${timeoutMs});
      worker.onerror = (event) => resolve({ error: 'worker error: ' + event.message });
      port.onmessage = ({ data }) => {
        if ('progress' in data) { console.log('progress ' + data.progress); return; }
        clearTimeout(timer);
        done();
        resolve({ ...data, pageMs: performance.now() - started });
      };
      port.postMessage(${JSON.stringify(request)});
    })`,
  )) as Exclude<StoreWorkerAnswer, { progress: number }> & { pageMs: number };
}
