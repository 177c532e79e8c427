// The demo as a person meets it, in Chromium, with the bundled model: the first load fills the store
// from the npm documentation's pack without indexing (demo-pack.test.ts has the details, and the
// indexing with a progress bar where the pack does not fit), a search shows grouped results and the
// trace, a click opens a node's layers, and a reload finds the same results in IndexedDB. Every
// request stays on this machine.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoUrl,
  keepLocal,
  launchThroughProxy,
  type RecordingProxy,
  screenshot,
  searchFor,
  startRecordingProxy,
  waitReady,
} from './demo-page.js';
import { type DemoServer, serveBuiltDemo } from './demo-server.js';

let server: DemoServer;
let browser: Browser;
let proxy: RecordingProxy;

beforeAll(async () => {
  server = await serveBuiltDemo();
  proxy = await startRecordingProxy();
  // Every request of the browser goes through the recording proxy, the SharedWorker's included.
  browser = await launchThroughProxy(proxy);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await proxy?.close();
});

const query = 'How do I publish a scoped package?';

describe('the demo page', () => {
  it('opens the sample corpus from its pack, searches it, and finds the same after a reload, all from localhost', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const network = await keepLocal(context);
    const errors: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(demoUrl(server.origin));

      // First load: the store is filled from the pack, and nothing is indexed in the tab.
      await waitReady(page, 120_000);
      expect(await page.evaluate(() => document.body.dataset.done)).toBeUndefined();
      expect(await page.isVisible('#progress')).toBe(false);
      expect(await page.textContent('#status-detail')).toContain('resources: npm-docs');
      await screenshot(page, 'demo-1-ready');

      const first = await searchFor(page, query);
      expect(first.length).toBeGreaterThanOrEqual(3);
      expect(first.every((result) => result.uri.startsWith('viking://resources/npm-docs/'))).toBe(true);
      expect(first.slice(0, 5).some((result) => /npm-publish|scope/.test(result.uri))).toBe(true);
      expect(first.every((result) => result.abstract.length > 0)).toBe(true);
      expect(await page.textContent('[data-group=resources] .count')).toBe(String(first.length));
      expect(await page.textContent('[data-group=memories] .count')).toBe('0');
      // A question the corpus cannot answer: its best hits score under the demo's threshold.
      expect(await searchFor(page, 'best pizza in naples')).toEqual([]);
      expect(await page.textContent('#results .no-match')).toContain('No good match');
      await searchFor(page, query);

      // THINKING's trace: a walk that visited directories, returned what the page lists, and said
      // why it stopped.
      // The whole tree is folded under the plain view (demo-trace.test.ts reads that one).
      await page.click('input[name=mode][value=thinking]');
      await page.waitForSelector('.trace[data-mode=thinking]');
      await page.click('.trace-full > summary');
      await page.waitForSelector('.trace .badge.visited');
      const stop = await page.getAttribute('.trace', 'data-stop');
      expect(['queue-empty', 'converged', 'pool-stalled', 'max-directories']).toContain(stop);
      // Every result is in the drawn tree, not folded away with what was pruned.
      const walked = await page.locator('#results .result').count();
      expect(await page.locator('.trace .badge.is-result:visible').count()).toBe(walked);
      await screenshot(page, 'demo-2-results');
      await page.click('input[name=mode][value=quick]');

      // A result opens on its L0; L1 and L2 come from the worker when their tabs are clicked.
      await page.click(`.result[data-uri="${first[0]!.uri}"]`);
      await page.waitForSelector('.detail .l0');
      expect((await page.textContent('.detail .l0'))!.length).toBeGreaterThan(10);
      await page.click('.detail .tab[data-layer=L1]');
      await page.waitForSelector('.detail .l1');
      expect((await page.textContent('.detail .l1'))!.length).toBeGreaterThan(10);
      await page.click('.detail .tab[data-layer=L2]');
      await page.waitForSelector('.detail .l2, .detail .children');
      expect((await page.textContent('.detail .layer-body'))!.length).toBeGreaterThan(20);
      await screenshot(page, 'demo-3-detail');

      // Reload: the store comes back from IndexedDB; nothing is indexed.
      await page.reload();
      await waitReady(page);
      expect(await page.evaluate(() => document.body.dataset.done)).toBeUndefined();
      expect(await page.textContent('#status-detail')).toContain('resources: npm-docs');
      // The same results in the same order. A score may move in its third decimal: the fusion
      // normalises by the lowest similarity among the HNSW index's top candidates, and an index
      // reopened from its snapshot plus the changes replayed after it is not the same graph as the
      // one built live (HNSW depends on insertion order), so that floor can differ by ~0.0005.
      const again = await searchFor(page, query);
      expect(again.map(({ uri, abstract }) => ({ uri, abstract }))).toEqual(
        first.map(({ uri, abstract }) => ({ uri, abstract })),
      );
      again.forEach((result, i) => {
        expect(Math.abs(Number(result.score) - Number(first[i]!.score))).toBeLessThanOrEqual(0.002);
      });

      expect(errors).toEqual([]);
      expect(network.blocked).toEqual([]);
      expect(network.requested.filter((url) => !url.startsWith(`${server.origin}/`))).toEqual([]);
      // The proxy saw the worker's requests too: the model, onnxruntime-web's and USearch's WASM.
      // Debian's Chromium itself, whatever the page does, calls its component updater, account and
      // autofill services; those three hosts are the browser's, never the page's, and are left out.
      const browserOwn =
        /^https?:\/\/(update\.googleapis\.com|accounts\.google\.com|content-autofill\.googleapis\.com)[:/]/;
      expect(
        proxy.requested.filter((url) => !url.startsWith(`${server.origin}/`) && !browserOwn.test(url)),
      ).toEqual([]);
      const paths = proxy.requested.map((url) => new URL(url).pathname);
      // Vite copied them into the build, found from Longship's own references (docs/guide/assets.md).
      expect(paths.some((path) => /^\/assets\/model_quantized-[\w-]+\.onnx$/.test(path))).toBe(true);
      expect(paths.some((path) => /^\/assets\/ort-wasm-simd-threaded-[\w-]+\.wasm$/.test(path))).toBe(true);
      expect(paths.some((path) => /^\/assets\/usearch-[\w-]+\.wasm$/.test(path))).toBe(true);
    } finally {
      await context.close();
    }
  }, 900_000);
});
