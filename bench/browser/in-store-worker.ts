// The page's side of bench:browser's store worker (./store-worker.ts): one request, one answer.
import type { Page } from 'playwright-core';
import type { StoreWorkerAnswer, StoreWorkerRequest } from './store-worker.js';

/** How long a launched browser is left idle before a `running` cold open navigates. */
export const SETTLE_MS = 3000;

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
