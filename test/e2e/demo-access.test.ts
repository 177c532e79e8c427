// The demo for everyone: no serious or critical axe-core violations at a desktop and a phone width
// (landing page, results, a result opened), no horizontal scroll at 390 px, the results and the
// layers usable by keyboard, results that read as titles and snippets, and a document's Markdown
// shown without running anything in it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../targets/browser.js';
import { demoUrl, keepLocal, screenshot, searchFor, seriousViolations, waitReady } from './demo-page.js';
import { type DemoServer, serveBuiltDemo } from './demo-server.js';

let server: DemoServer;
let browser: Browser;

beforeAll(async () => {
  server = await serveBuiltDemo();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

/** The violations at both widths, and whether the page scrolls sideways at the phone's. */
async function checkBothWidths(page: Page, screen: string) {
  await page.setViewportSize(desktop);
  expect(await seriousViolations(page), `${screen} at 1440 px`).toEqual([]);
  await page.setViewportSize(phone);
  expect(await seriousViolations(page), `${screen} at 390 px`).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), screen).toBeLessThanOrEqual(390);
  await screenshot(page, `demo-access-${screen}-390`);
  await page.setViewportSize(desktop);
}

const focusedUri = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.uri ?? null);

describe('the demo, accessible and safe', () => {
  it('passes axe-core at 1440 and 390 px and works by keyboard', async () => {
    const context = await browser.newContext({ viewport: desktop });
    const network = await keepLocal(context);
    try {
      const page = await context.newPage();
      await page.goto(demoUrl(server.origin, { embedder: 'words' }));
      await waitReady(page);

      // Landing: suggested questions; the folder picker is a button in the tab order.
      expect(await page.locator('.suggestion').count()).toBeGreaterThanOrEqual(3);
      expect(await page.evaluate(() => document.getElementById('folder-button')?.tagName)).toBe('BUTTON');
      await checkBothWidths(page, 'landing');

      // A suggestion searches; results are titled documents with their sections and snippets.
      const suggestion = (await page.textContent('.suggestion'))!;
      await page.click('.suggestion');
      await page.waitForFunction((q) => document.getElementById('results')?.dataset.query === q, suggestion);
      expect(await page.inputValue('#query')).toBe(suggestion);
      const titles = await page.$$eval('#results .doc-title', (all) => all.map((t) => t.textContent ?? ''));
      expect(titles.length).toBeGreaterThan(0);
      expect(titles.every((title) => title.length > 0 && !title.includes('/'))).toBe(true);
      // One entry per document.
      const docs = await page.$$eval('#results .document', (all) =>
        all.map((d) => d.getAttribute('data-doc')),
      );
      expect(new Set(docs).size).toBe(docs.length);
      const marked = await page.$$eval('#results .snippet mark', (all) =>
        all.map((m) => m.textContent!.toLowerCase()),
      );
      expect(marked.length).toBeGreaterThan(0);
      expect(marked.every((word) => suggestion.toLowerCase().includes(word))).toBe(true);
      await checkBothWidths(page, 'results');
      // The trace unfolded to everything the search scored: the widest thing on the page.
      await page.click('.trace-full > summary');
      await page.waitForSelector('.trace-full[open] .trace-row');
      await checkBothWidths(page, 'trace');
      await page.click('.trace-full > summary');

      // ArrowDown from the box walks the results, ArrowUp goes back, Enter opens one.
      const uris = await page.$$eval('#results .result', (all) =>
        all.map((b) => (b as HTMLElement).dataset.uri),
      );
      expect(uris.length).toBeGreaterThanOrEqual(2);
      await page.focus('#query');
      await page.keyboard.press('ArrowDown');
      expect(await focusedUri(page)).toBe(uris[0]);
      await page.keyboard.press('ArrowDown');
      expect(await focusedUri(page)).toBe(uris[1]);
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('query');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.waitForSelector(`.detail[data-uri="${uris[1]}"] .l0`);
      // Focus goes into the opened node, and Escape (below) brings it back to the result.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tab');

      // The layers are a tab set: arrow keys move the selection and show the layer.
      await page.focus('.detail [role=tab][aria-selected=true]');
      expect(await page.getAttribute('.detail [role=tab][aria-selected=true]', 'data-layer')).toBe('L0');
      await page.keyboard.press('ArrowRight');
      await page.waitForSelector('.detail [role=tabpanel] .l1');
      expect(await page.getAttribute('.detail [role=tab][aria-selected=true]', 'data-layer')).toBe('L1');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-layer'))).toBe('L1');
      await page.keyboard.press('ArrowRight');
      await page.waitForSelector('.detail [role=tabpanel] .l2, .detail [role=tabpanel] .children');
      await checkBothWidths(page, 'detail');

      // Escape closes it; new results that do not hold the opened node close it too.
      await page.keyboard.press('Escape');
      expect(await page.locator('.detail').count()).toBe(0);
      expect(await focusedUri(page)).toBe(uris[1]);
      await page.click(`.result[data-uri="${uris[0]}"]`);
      await page.waitForSelector('.detail');
      await searchFor(page, 'zzqqxx vvkkjj');
      const stillShown = await page.locator(`#results .result[data-uri="${uris[0]}"]`).count();
      expect(await page.locator('.detail').count()).toBe(stillShown === 0 ? 0 : 1);

      expect(network.blocked).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);

  it('shows a document with HTML and script links in it without running any of it', async () => {
    const context = await browser.newContext({ viewport: desktop });
    try {
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(demoUrl(server.origin, { embedder: 'words', corpus: 'none' }));
      await waitReady(page);
      const hostile = [
        '# Zebra notes',
        '',
        '<img src=x onerror="window.__pwned = 1; alert(1)">',
        '',
        '<script>window.__pwned = 2; alert(2)</script>',
        '',
        'Zebra [click me](javascript:window.__pwned=3) and [raw](data:text/html,<script>alert(4)</script>)',
        'and [web](https://example.com/zebra) and ![pic](https://example.com/zebra.png).',
      ].join('\n');
      await page.evaluate(async (content) => {
        const longship = (
          window as unknown as { longship: { addResource: (...args: unknown[]) => Promise<unknown> } }
        ).longship;
        await longship.addResource([{ path: 'zebra.md', content }], { name: 'hostile' });
      }, hostile);
      const results = await searchFor(page, 'zebra notes');
      expect(results.length).toBeGreaterThan(0);
      await page.click('#results .result');
      await page.click('.detail .tab[data-layer=L2]');
      await page.waitForSelector('.detail .l2, .detail .children');
      if ((await page.locator('.detail .children').count()) > 0) {
        await page.click('.detail .child');
        await page.click('.detail .tab[data-layer=L2]');
        await page.waitForSelector('.detail .l2');
      }
      const l2 = page.locator('.detail .l2');
      // The HTML is there as text, not as elements.
      expect(await l2.textContent()).toContain('<script>');
      expect(await l2.textContent()).toContain('onerror');
      expect(await page.locator('#detail img, #detail script, #results img, #results script').count()).toBe(
        0,
      );
      // Only web links are links (the image's too, as a link: nothing is loaded for it); the script
      // and data ones are text, and clicking them does nothing.
      const hrefs = await l2.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(['https://example.com/zebra', 'https://example.com/zebra.png']);
      await l2.getByText('click me').click();
      await page.click('.detail .tab[data-layer=L1]');
      await page.waitForSelector('.detail .l1');
      expect(await page.locator('#detail img, #detail script').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(dialogs).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});
