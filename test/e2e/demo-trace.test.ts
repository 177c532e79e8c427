// The demo's trace as a newcomer reads it, and the demo's build served from a sub-path of a plain
// static host. Both use the hashed-words embedder (`?embedder=words`): no model, so indexing the
// sample corpus takes seconds. Every request stays on this machine.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StaticServer, serveFiles } from '../targets/browser.js';
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
import { buildDemo, type DemoServer, serveBuiltDemo } from './demo-server.js';

let server: DemoServer;
let browser: Browser;
let proxy: RecordingProxy;

beforeAll(async () => {
  server = await serveBuiltDemo();
  proxy = await startRecordingProxy();
  browser = await launchThroughProxy(proxy);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await proxy?.close();
});

const query = 'How do I publish a scoped package?';
/** Words of the full trace that mean nothing to a newcomer: the collapsed view has none of them. */
const jargon = /minmax|fusion|fused|α|\bvec\b|bm25|propagated|prun/i;

interface PathLine {
  uri: string;
  crumbs: string[];
  parts: string;
  final: string;
  traceScore: string;
}

function pathLines(page: Page): Promise<PathLine[]> {
  return page.$$eval('.trace .trace-path', (lines) =>
    lines.map((line) => ({
      uri: (line as HTMLElement).dataset.uri ?? '',
      crumbs: [...line.querySelectorAll<HTMLElement>('.crumb')].map((crumb) => crumb.dataset.uri ?? ''),
      parts: line.querySelector('.parts')?.textContent ?? '',
      final: line.querySelector('.final')?.textContent ?? '',
      traceScore: (line as HTMLElement).dataset.traceScore ?? '',
    })),
  );
}

/** Each result has a line with its path from the root down to it, and the list's own score. */
async function expectPathsMatchList(page: Page): Promise<void> {
  const shown = await page.$$eval('#results .result', (buttons) =>
    buttons.map((button) => ({
      uri: (button as HTMLElement).dataset.uri ?? '',
      score: button.querySelector('.score .value')?.textContent ?? '',
    })),
  );
  expect(shown.length).toBeGreaterThan(0);
  const lines = await pathLines(page);
  expect(lines.map((line) => line.uri).sort()).toEqual(shown.map((result) => result.uri).sort());
  for (const result of shown) {
    const line = lines.find((l) => l.uri === result.uri)!;
    expect(line.final).toBe(result.score);
    expect(Number(line.traceScore).toFixed(3)).toBe(result.score);
    // viking://resources › npm-docs › … › the result: each crumb the one before it plus a name.
    expect(line.crumbs.at(-1)).toBe(result.uri);
    expect(line.crumbs[0]).toBe('viking://resources');
    line.crumbs.slice(1).forEach((crumb, i) => {
      expect(crumb.startsWith(`${line.crumbs[i]}/`)).toBe(true);
      expect(crumb.slice(line.crumbs[i]!.length + 1)).not.toContain('/');
    });
    expect(line.parts).toMatch(/^matched words \d\.\d\d · meaning \d\.\d\d → \d\.\d\d/);
    expect(line.parts.endsWith(`→ ${result.score}`)).toBe(true);
  }
}

describe('the demo trace', () => {
  it('shows each result’s path and score in plain words, the whole trace folded, and marks the selected path', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const network = await keepLocal(context);
    const errors: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(demoUrl(server.origin, { embedder: 'words', db: 'trace-test' }));
      await waitReady(page, 300_000);
      const results = await searchFor(page, query);
      expect(results.length).toBeGreaterThanOrEqual(3);

      // QUICK: one pass, so no rounds and no folders opened, but it scored and kept candidates.
      const quick = page.locator('.trace[data-mode=quick] .trace-plain');
      expect(Number(await quick.getAttribute('data-scored'))).toBeGreaterThan(0);
      expect(Number(await quick.getAttribute('data-candidates'))).toBeGreaterThanOrEqual(results.length);
      expect(await quick.textContent()).toMatch(/^Quick search: scored [1-9]\d* files and folders/);
      await expectPathsMatchList(page);
      // Collapsed, the trace speaks plainly; the whole tree, with its terms, is folded away.
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's rendered text, without what a closed <details> hides
      const collapsed = await page.locator('.trace').innerText();
      expect(collapsed).not.toMatch(jargon);
      expect(await page.locator('.trace .trace-row').first().isVisible()).toBe(false);
      await page.click('.trace-full > summary');
      expect(await page.locator('.trace .trace-row').first().isVisible()).toBe(true);
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's rendered text, without what a closed <details> hides
      expect(await page.locator('.trace').innerText()).toMatch(jargon);

      // THINKING: the walk's rounds and the folders it opened are counted.
      await page.click('input[name=mode][value=thinking]');
      const walk = page.locator('.trace[data-mode=thinking] .trace-plain');
      await walk.waitFor();
      expect(Number(await walk.getAttribute('data-rounds'))).toBeGreaterThan(0);
      expect(Number(await walk.getAttribute('data-folders'))).toBeGreaterThan(0);
      expect(await walk.textContent()).toMatch(
        /^Folder by folder: opened [1-9]\d* folders? in [1-9]\d* rounds?/,
      );
      await expectPathsMatchList(page);
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's rendered text, without what a closed <details> hides
      expect(await page.locator('.trace').innerText()).not.toMatch(jargon);

      // Selecting a result marks its line and, in the whole tree, the rows on its path.
      const picked = (await pathLines(page))[1]!;
      await page.click(`#results .result[data-uri="${picked.uri}"]`);
      expect(
        await page.$$eval('.trace-path.selected', (ls) => ls.map((l) => (l as HTMLElement).dataset.uri)),
      ).toEqual([picked.uri]);
      await page.click('.trace-full > summary');
      const onPath = await page.$$eval('.trace-row.on-path', (rows) =>
        rows.map((row) => (row as HTMLElement).dataset.uri ?? ''),
      );
      expect(onPath).toContain(picked.uri);
      expect(onPath.length).toBeGreaterThanOrEqual(2);
      expect(onPath.every((uri) => picked.uri === uri || picked.uri.startsWith(`${uri}/`))).toBe(true);
      await screenshot(page, 'demo-trace');

      expect(errors).toEqual([]);
      expect(network.blocked).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);

  it('works from a sub-path of a plain static server, with no special headers', async () => {
    const root = await mkdtemp(join(tmpdir(), 'longship-demo-host-'));
    let host: StaticServer | undefined;
    const context = await browser.newContext();
    try {
      await mkdir(join(root, 'longship'));
      await buildDemo(join(root, 'longship'));
      // Files only, with their MIME types: no COOP/COEP, no SPA fallback.
      host = await serveFiles(root);
      const errors: string[] = [];
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(String(error)));
      const seen = proxy.requested.length;
      await page.goto(`${host.origin}/longship/index.html?embedder=words&db=subpath-test`);
      await waitReady(page, 300_000);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
      const results = await searchFor(page, query);
      expect(results.length).toBeGreaterThanOrEqual(3);
      expect(await page.locator('.trace .trace-path').count()).toBe(results.length);
      // Every file came from under /longship/, the worker's included (the proxy sees them all).
      const ours = proxy.requested.slice(seen).filter((url) => url.startsWith(`${host!.origin}/`));
      expect(ours.length).toBeGreaterThan(3);
      expect(ours.filter((url) => !url.startsWith(`${host!.origin}/longship/`))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await host?.close();
      await rm(root, { recursive: true, force: true });
    }
  }, 600_000);
});
