// The example extension (examples/extension/) as a user builds it: the package packed and
// installed from its tarball, the example bundled against it with esbuild, and loaded unpacked in
// Debian's Chromium. A page saved through the service worker is found from the side panel with its
// URL and title; the service worker stopped through the DevTools protocol in the middle of saving
// 50 pages loses none it acknowledged; Chromium's network log shows no request off the extension
// but the test page's. docs/guide/extension.md says what this checks and why.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offOrigin } from '../consumer/chromium-net-log.js';
import { type ConsumerProject, installConsumerProject, removeConsumerProject } from '../consumer/install.js';
import {
  debianChromium,
  type ExtensionBrowser,
  hasDebianChromium,
  launchWithExtension,
  serveArticles,
} from './extension-browser.js';

/** The extension APIs the test calls in the browser (the repository has no @types/chrome). */
declare const chrome: {
  runtime: {
    sendMessage(
      message: object,
    ): Promise<{ ok: boolean; value?: unknown; error: { code: string; message: string } }>;
  };
  tabs: { query(filter: { url: string }): Promise<{ id?: number }[]> };
};

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const missing = `skipped: ${debianChromium} is missing (Debian's chromium package; it loads unpacked extensions headless)`;
if (!hasDebianChromium) console.warn(`test/e2e/extension.test.ts ${missing}`);

interface SavedPage {
  uri: string;
  url: string;
  title: string;
}

type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

/** One request of the extension's protocol, sent from an extension page as the side panel sends it. */
function answer(page: Page, op: string, args: object): Promise<Answer> {
  return page.evaluate(
    ([op, args]) => chrome.runtime.sendMessage({ longship: 1, to: 'background', op, args }),
    [op, args] as const,
  ) as Promise<Answer>;
}

/** {@link answer}'s value; its error, thrown with its code. */
async function request<T>(page: Page, op: string, args: object): Promise<T> {
  const answered = await answer(page, op, args);
  if (!answered.ok) throw new Error(`${answered.error.code}: ${answered.error.message}`);
  return answered.value as T;
}

const article = (n: number) => ({
  title: n === 1 ? 'Why rivers flood in spring' : `Field notes ${n}`,
  paragraphs:
    n === 1
      ? [
          'Rivers flood in spring when the snow melts in the mountains and the meltwater arrives all at once.',
          'Levees and wetlands slow the water down; the worst floods come when rain falls on melting snow.',
        ]
      : [
          `Note ${n}: the heron came back to pond ${n} this morning.`,
          `Water level at gauge ${n} was steady.`,
        ],
});

describe.skipIf(!hasDebianChromium)(
  `the example extension in Debian's Chromium${hasDebianChromium ? '' : ` (${missing})`}`,
  () => {
    let project: ConsumerProject;
    let extension: string;
    let profile: string;
    let site: Awaited<ReturnType<typeof serveArticles>>;
    const netLogs: string[] = [];
    const urls: string[] = [];

    async function launch(): Promise<ExtensionBrowser> {
      const log = join(profile, '..', `${profile.split('/').at(-1)}-net-log-${netLogs.length}.json`);
      netLogs.push(log);
      return launchWithExtension(extension, profile, log);
    }

    beforeAll(async () => {
      project = await installConsumerProject();
      // The example's one build tool, at this repository's version (npm's cache holds it).
      const esbuild = JSON.parse(
        await readFile(join(repo, 'node_modules/esbuild/package.json'), 'utf8'),
      ).version;
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `esbuild@${esbuild}`], {
        cwd: project.root,
      });
      const source = join(project.root, 'extension');
      await cp(join(repo, 'examples/extension'), source, {
        recursive: true,
        filter: (path) => !/[/\\](dist|node_modules)$/.test(path),
      });
      extension = join(project.root, 'extension-build');
      // The host permission lets the service worker read the test page without a click on the action.
      await run('node', ['build.mjs', '--out', extension, '--host-permission', 'http://127.0.0.1/*'], {
        cwd: source,
      });
      profile = await mkdtemp(join(tmpdir(), 'longship-extension-profile-'));
      site = await serveArticles(article);
    }, 900_000);

    afterAll(async () => {
      await site?.close();
      if (profile) await rm(profile, { recursive: true, force: true });
      await Promise.all(netLogs.map((log) => rm(log, { force: true })));
      if (project) await removeConsumerProject(project);
    });

    it('saves a tab through the service worker and finds it from the side panel', async () => {
      const browser = await launch();
      try {
        const tab = await browser.context.newPage();
        const address = `${site.origin}/article/1`;
        await tab.goto(address);
        const tabId = await browser.serviceWorker.evaluate(
          async (url) => (await chrome.tabs.query({ url }))[0]?.id,
          address,
        );
        const saved = (await browser.serviceWorker.evaluate(
          (id) =>
            (
              globalThis as { longshipExtension?: { saveTab(id: number): Promise<SavedPage> } }
            ).longshipExtension!.saveTab(id),
          tabId!,
        )) as SavedPage;
        expect(saved).toEqual({
          uri: `viking://resources/web/${new URL(site.origin).host}/article-1`,
          url: address,
          title: 'Why rivers flood in spring',
        });

        const panel = await browser.context.newPage();
        await panel.goto(`chrome-extension://${browser.id}/panel.html`);
        await panel.fill('#query', 'when do rivers flood?');
        await panel.click('#search button');
        const first = panel.locator('#results li').first();
        await first.waitFor({ timeout: 120_000 });
        expect(await first.getAttribute('data-uri')).toBe(saved.uri);
        expect(await first.locator('a.title').textContent()).toBe('Why rivers flood in spring');
        expect(await first.locator('a.title').getAttribute('href')).toBe(address);
        // The page's text, not its navigation or footer.
        expect(await first.locator('.snippet').textContent()).toContain('Rivers flood in spring');
        expect(await panel.textContent('#results')).not.toContain('Home · About');

        // The block an agent would get, within the budget picked.
        await panel.fill('#question', 'What makes the worst floods?');
        await panel.selectOption('#budget', '200');
        await panel.click('#ask button');
        await panel.locator('#context-summary').filter({ hasText: 'tokens' }).waitFor();
        const summary = (await panel.textContent('#context-summary'))!;
        expect(Number(/^(\d+) of 200 tokens/.exec(summary)?.[1])).toBeLessThanOrEqual(200);
        expect(await panel.textContent('#context')).toContain('rain falls on melting snow');

        // A memory, found by what it says.
        await panel.fill('#memory', 'I keep a canoe at the boathouse by the old mill.');
        await panel.click('#remember button');
        await panel
          .locator('#status')
          .filter({ hasText: 'Remembered as viking://user/default/memories/' })
          .waitFor();
        await panel.fill('#query', 'where is my canoe?');
        await panel.click('#search button');
        await panel.locator('#results li', { hasText: 'Memory:' }).first().waitFor();
        expect(await panel.locator('#results li').first().textContent()).toContain('canoe at the boathouse');

        // Bad input comes back as the engine's typed error.
        expect(await answer(panel, 'search', { query: '' })).toEqual({
          ok: false,
          error: { code: 'INVALID_ARGUMENT', message: "'query' must be a non-empty string" },
        });
        expect(await answer(panel, 'nothing', {})).toEqual({
          ok: false,
          error: { code: 'INVALID_ARGUMENT', message: "unknown operation 'nothing'" },
        });
      } finally {
        urls.push(...(await browser.closeAndReadUrls()));
      }
    }, 300_000);

    it('loses no acknowledged page when the service worker is stopped in the middle of 50 saves', async () => {
      const page = (n: number) => ({
        url: `${site.origin}/article/${n}`,
        title: `Field notes ${n}`,
        text: `Note ${n}: the heron came back to pond ${n} this morning.`,
      });
      const numbers = Array.from({ length: 50 }, (_, k) => k + 100);
      let browser = await launch();
      try {
        const panel = await browser.context.newPage();
        await panel.goto(`chrome-extension://${browser.id}/panel.html`);
        const devtools = await browser.context.newCDPSession(panel);
        await devtools.send('ServiceWorker.enable');
        const acknowledged: number[] = [];
        let stopped: Promise<unknown> | undefined;
        let interrupted: unknown;
        for (const n of numbers) {
          // Stopped while the eleventh save is on its way: the worker goes, whatever it was doing.
          if (acknowledged.length === 10) stopped ??= devtools.send('ServiceWorker.stopAllWorkers');
          try {
            await browser.serviceWorker.evaluate(
              (saved) =>
                (
                  globalThis as { longshipExtension?: { savePage(p: object): Promise<unknown> } }
                ).longshipExtension!.savePage(saved),
              page(n),
            );
            acknowledged.push(n);
          } catch (error) {
            interrupted = error;
            break;
          }
        }
        await stopped;
        // The save in flight fails ("Service worker restarted", or the messaging's "No SW").
        expect(interrupted).toBeInstanceOf(Error);
        expect(acknowledged.length).toBeGreaterThanOrEqual(10);
        expect(acknowledged.length).toBeLessThan(50);

        // The next message starts a new service worker; every acknowledged page is there.
        const after = await request<SavedPage[]>(panel, 'pages', {});
        const have = new Set(after.map((saved) => saved.url));
        expect(acknowledged.filter((n) => !have.has(page(n).url))).toEqual([]);
        // The caller saves what was not acknowledged again: saving an address twice replaces it.
        for (const n of numbers.filter((n) => !acknowledged.includes(n)))
          await request(panel, 'savePage', page(n));

        urls.push(...(await browser.closeAndReadUrls()));
        browser = await launch();
        const again = await browser.context.newPage();
        await again.goto(`chrome-extension://${browser.id}/panel.html`);
        const kept = await request<SavedPage[]>(again, 'pages', {});
        const keptUrls = new Set(kept.map((saved) => saved.url));
        expect(numbers.filter((n) => !keptUrls.has(page(n).url))).toEqual([]);
        expect(kept.find((saved) => saved.url === page(100).url)?.title).toBe('Field notes 100');
        expect(await request(again, 'verify', {})).toEqual({ ok: true, problems: [] });
      } finally {
        urls.push(...(await browser.closeAndReadUrls()));
      }
    }, 300_000);

    it('gives the service worker the whole API over a port, and a restarted one a new port', async () => {
      const browser = await launch();
      /** find() in the service worker, on the RemoteLongship the offscreen document's port gives it. */
      const findThroughPort = (worker: Worker) =>
        worker.evaluate(async () => {
          const extension = globalThis as {
            longshipExtension?: {
              remoteEngine(): Promise<{
                find(q: string, o: object): Promise<{ resources: { uri: string }[] }>;
              }>;
            };
          };
          const longship = await extension.longshipExtension!.remoteEngine();
          // An AbortSignal, which the JSON messages of chrome.runtime cannot carry.
          const signal = new AbortController().signal;
          const found = await longship.find('when do rivers flood?', { limit: 1, signal });
          return found.resources.map((hit) => hit.uri);
        });
      const saved = `viking://resources/web/${new URL(site.origin).host}/article-1`;
      try {
        const panel = await browser.context.newPage();
        await panel.goto(`chrome-extension://${browser.id}/panel.html`);
        expect(await findThroughPort(browser.serviceWorker)).toEqual([saved]);

        const devtools = await browser.context.newCDPSession(panel);
        await devtools.send('ServiceWorker.enable');
        // A mark on this service worker's global: a new one starts without it.
        await browser.serviceWorker.evaluate(() => Object.assign(globalThis, { beforeStop: true }));
        await devtools.send('ServiceWorker.stopAllWorkers');
        // The panel's next message starts a new service worker, which has lost the port: it asks again.
        await request(panel, 'pages', {});
        expect(await browser.serviceWorker.evaluate(() => 'beforeStop' in globalThis)).toBe(false);
        expect(await findThroughPort(browser.serviceWorker)).toEqual([saved]);
      } finally {
        urls.push(...(await browser.closeAndReadUrls()));
      }
    }, 300_000);

    it('is built from its own files: the package’s assets copied in, no remote host named', async () => {
      const files = (await readdir(extension, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => relative(extension, join(entry.parentPath, entry.name)).split('\\').join('/'));
      // The layout the assets option reads (docs/guide/assets.md, "One folder for every file").
      for (const asset of [
        'longship/dist/worker/entry.js',
        'longship/wasm/dist/usearch.wasm',
        'longship/model/use-lite/onnx/model_quantized.onnx',
        'longship/dist/ort/ort-wasm-simd-threaded.wasm',
      ]) {
        expect(files).toContain(asset);
      }
      const manifest = JSON.parse(await readFile(join(extension, 'manifest.json'), 'utf8'));
      expect(manifest.content_security_policy.extension_pages).toBe(
        "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'",
      );
      const scripts = files.filter((file) => /\.(m?js|html)$/.test(file));
      // The hub and the CDNs transformers.js and onnxruntime-web default to (docs/guide/package.md).
      const remote = /cdn\.jsdelivr|unpkg\.com|cdnjs\.|huggingface\.co\b/;
      const naming: string[] = [];
      for (const file of scripts) {
        if (remote.test(await readFile(join(extension, file), 'utf8'))) naming.push(file);
      }
      expect(naming).toEqual([]);
    });

    it('made no request off the extension but the test page (Chromium’s network log)', () => {
      expect(urls.some((url) => url.startsWith(`${site.origin}/article/1`))).toBe(true);
      expect(offOrigin(urls, [site.origin])).toEqual([]);
    });
  },
);
