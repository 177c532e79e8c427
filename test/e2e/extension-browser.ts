// Chromium with an unpacked extension loaded, for the extension's end-to-end test: Debian's
// Chromium loads extensions under --headless=new; a profile folder of its own keeps the
// extension's IndexedDB across a restart.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BrowserContext, chromium, type Worker } from 'playwright-core';
import { chromiumFlags } from '../targets/browser.js';

/** Debian's Chromium: the one build known to load an unpacked extension headless. */
export const debianChromium = '/usr/bin/chromium';
export const hasDebianChromium = existsSync(debianChromium);

export interface ExtensionBrowser {
  readonly context: BrowserContext;
  /** The extension's service worker, as Playwright sees it. */
  readonly serviceWorker: Worker;
  readonly id: string;
  /**
   * Closes the browser, which completes its network log (--log-net-log: every request, the
   * service worker's, the offscreen document's and its workers' included), and returns its URLs.
   */
  closeAndReadUrls(): Promise<string[]>;
}

/** Starts Chromium on `profile` with the unpacked extension in `extension`, logging the network to `netLog`. */
export async function launchWithExtension(
  extension: string,
  profile: string,
  netLog: string,
): Promise<ExtensionBrowser> {
  const context = await chromium.launchPersistentContext(profile, {
    headless: false,
    executablePath: debianChromium,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [
      '--headless=new',
      ...chromiumFlags.filter((flag) => flag !== '--headless'),
      `--load-extension=${extension}`,
      `--disable-extensions-except=${extension}`,
      `--log-net-log=${netLog}`,
      '--net-log-capture-mode=Default',
    ],
    timeout: 60_000,
  });
  const serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const id = new URL(serviceWorker.url()).host;
  return {
    context,
    serviceWorker,
    id,
    async closeAndReadUrls() {
      await context.close();
      const text = await readFile(netLog, 'utf8');
      return [...new Set([...text.matchAll(/"url":"([^"]*)"/g)].map((m) => m[1]!))];
    },
  };
}

/** A site on 127.0.0.1 whose pages are articles: `/article/<n>` has a title and a few paragraphs. */
export async function serveArticles(
  pages: (n: number) => { title: string; paragraphs: string[] },
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const n = Number(/^\/article\/(\d+)$/.exec(request.url ?? '')?.[1] ?? Number.NaN);
    if (!Number.isInteger(n)) {
      response.writeHead(404).end();
      return;
    }
    const { title, paragraphs } = pages(n);
    const body = paragraphs.map((p) => `<p>${p}</p>`).join('\n');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>${title}</title><nav>Home · About · Contact</nav>` +
        `<article><h1>${title}</h1>${body}</article><footer>Footer text</footer>`,
    );
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
