// The demo's sample corpus comes pre-indexed: a new visitor's store is filled from the pack the build
// made (demo/pack-plugin.ts), fetched from the page's own origin, and the first search is answered
// without the model embedding a single page in the tab. A pack made for another model is refused, and
// the corpus is indexed in the tab as before. Prints the time from opening the page to the first
// answered search, both ways, side by side (the figures go in the report, not in assertions).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePack, encodePack } from '../../demo/src/pack-format.js';
import { packHash } from '../../tools/demo/pack-inputs.js';
import {
  demoUrl,
  keepLocal,
  launchThroughProxy,
  type RecordingProxy,
  searchFor,
  startRecordingProxy,
  waitReady,
} from './demo-page.js';
import { type DemoServer, serveBuiltDemo } from './demo-server.js';

let server: DemoServer;
let browser: Browser;
let proxy: RecordingProxy;
/** Where the build puts the pack: beside the worker that fetches it (demo/pack-plugin.ts). */
const packPath = `/assets/packs/npm-docs-${packHash()}.pack`;
/** While set, the proxy answers the pack's request with these bytes instead. */
let stalePack: Uint8Array | undefined;
/** While set, the model's weights are held back until it settles. */
let modelHeld: Promise<void> | undefined;

beforeAll(async () => {
  server = await serveBuiltDemo();
  proxy = await startRecordingProxy(
    (url) => (new URL(url).pathname === packPath ? stalePack : undefined),
    (url) => (/model_quantized/.test(url) ? modelHeld : undefined),
  );
  browser = await launchThroughProxy(proxy);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await proxy?.close();
});

const query = 'How do I publish a scoped package?';

/** Records every state the page passes through, from its first script on. */
async function recordStates(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const states: string[] = [];
    Object.assign(window, { demoStates: states });
    new MutationObserver(() => {
      const state = document.body?.dataset.state;
      if (state && states.at(-1) !== state) states.push(state);
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-state'] });
  });
}

/**
 * Opens the demo in a fresh profile; resolves with the seconds until its first search was answered,
 * by words alone if the model is still loading.
 */
async function firstSearch(
  page: Page,
  readyMs: number,
  { model = false }: { model?: boolean } = {},
): Promise<{ seconds: number; uris: string[] }> {
  const started = performance.now();
  await page.goto(demoUrl(server.origin));
  await waitReady(page, readyMs, { model });
  const results = await searchFor(page, query);
  return { seconds: (performance.now() - started) / 1000, uris: results.map((result) => result.uri) };
}

const timings: Record<string, number> = {};

describe('the demo with its pack', () => {
  it('fills a fresh profile from the pack, fetched from its origin, without indexing', async () => {
    const context = await browser.newContext();
    const network = await keepLocal(context);
    const errors: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(String(error)));
      await recordStates(page);
      const before = proxy.requested.length;
      const { seconds, uris } = await firstSearch(page, 120_000);
      timings['from the pack'] = seconds;
      // Of which the worker's open: the pack's import, the model's load and the indexes' rebuild.
      const opened = /opened in (\d+) ms/.exec((await page.textContent('#status-detail')) ?? '');
      timings['(its store opened)'] = Number(opened?.[1]) / 1000;

      // Answered by words alone if the model was still loading: the corpus's pages, whichever.
      expect(uris.length).toBeGreaterThanOrEqual(3);
      expect(uris.every((uri) => uri.startsWith('viking://resources/npm-docs/'))).toBe(true);
      // Nothing was indexed: no 'indexing' state, no progress drawn.
      expect(
        await page.evaluate(() => (window as unknown as { demoStates: string[] }).demoStates),
      ).not.toContain('indexing');
      expect(await page.evaluate(() => document.body.dataset.total)).toBeUndefined();
      // The store holds the corpus, marked as the pack's, consistent.
      const root = (await page.evaluate('longship.stat("viking://resources/npm-docs")')) as {
        meta: Record<string, unknown>;
      };
      expect(root.meta.pack).toBe(packHash());
      expect(await page.evaluate('longship.verify()')).toEqual({ ok: true, problems: [] });
      // The pack came from the page's own origin, and nothing left this machine.
      const seen = proxy.requested.slice(before);
      expect(seen).toContain(`${server.origin}${packPath}`);
      expect(seen.filter((url) => !url.startsWith(`${server.origin}/`) && !browserOwn.test(url))).toEqual([]);
      expect(network.blocked).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('answers by words while the model loads, then by meaning in place', async () => {
    let release = () => {};
    modelHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(demoUrl(server.origin));
      await waitReady(page, 120_000, { model: false });
      // The model's weights have not arrived: the store is open, the box is live.
      expect(await page.evaluate(() => document.body.dataset.model)).toBe('loading');
      const byWords = await searchFor(page, query);
      expect(await page.$eval('#results', (list) => (list as HTMLElement).dataset.by)).toBe('words');
      expect(await page.textContent('#timing')).toMatch(/by words while the model loads/);
      expect(byWords.length).toBeGreaterThan(0);
      expect(byWords.every((result) => result.uri.startsWith('viking://resources/npm-docs/'))).toBe(true);
      release();
      // The same question, searched again by meaning once the model is in, without typing.
      await page.waitForFunction(
        () => document.getElementById('results')?.dataset.by === 'meaning',
        undefined,
        {
          timeout: 120_000,
        },
      );
      expect(await page.$eval('#results', (list) => (list as HTMLElement).dataset.query)).toBe(query);
      expect(await page.evaluate(() => document.body.dataset.model)).toBe('ready');
      expect(await page.textContent('#timing')).not.toMatch(/by words/);
      const byMeaning = await page.$$eval('#results .result', (shown) =>
        shown.map((result) => (result as HTMLElement).dataset.uri ?? ''),
      );
      expect(byMeaning.slice(0, 5).some((uri) => /npm-publish|scope/.test(uri))).toBe(true);
    } finally {
      release();
      modelHeld = undefined;
      await context.close();
    }
  }, 300_000);

  it('refuses a pack made with another model and indexes the corpus instead', async () => {
    const bytes = new Uint8Array(await (await fetch(`${server.origin}${packPath}`)).arrayBuffer());
    const { header, vectors } = decodePack(bytes);
    stalePack = encodePack({ ...header, embedder: { ...header.embedder, id: 'another/model' } }, vectors, []);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await recordStates(page);
      const before = proxy.requested.length;
      // The model embeds ~2,000 chunks: a minute or two alone, several on a machine busy with others.
      // The model embedded the corpus, so it is in: the search is by meaning, as before packs.
      const { seconds, uris } = await firstSearch(page, 900_000, { model: true });
      timings['indexed in the tab'] = seconds;

      expect(proxy.requested.slice(before)).toContain(`${server.origin}${packPath}`);
      expect(await page.evaluate(() => (window as unknown as { demoStates: string[] }).demoStates)).toContain(
        'indexing',
      );
      expect(Number(await page.evaluate(() => document.body.dataset.total))).toBe(91);
      const root = (await page.evaluate('longship.stat("viking://resources/npm-docs")')) as {
        meta: Record<string, unknown>;
      };
      expect(root.meta.pack).toBeUndefined();
      expect(uris.slice(0, 5).some((uri) => /npm-publish|scope/.test(uri))).toBe(true);
    } finally {
      stalePack = undefined;
      await context.close();
    }
    console.log(
      `first search answered, fresh profile, from opening the page: ${Object.entries(timings)
        .map(([how, s]) => `${how} ${s.toFixed(1)} s`)
        .join(', ')}`,
    );
  }, 1_000_000);
});

/** Debian's Chromium calls its own services whatever the page does (see demo.test.ts). */
const browserOwn =
  /^https?:\/\/(update\.googleapis\.com|accounts\.google\.com|content-autofill\.googleapis\.com)[:/]/;
