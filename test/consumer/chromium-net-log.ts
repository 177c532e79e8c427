// Chromium with its own network log (--log-net-log): every request the browser makes, the
// SharedWorker's and Worker's included, which never reach Playwright's page or context events.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { chromiumFlags, chromiumPath } from '../targets/browser.js';

export interface LoggedChromium {
  browser: Browser;
  /** Closes the browser (which completes the log) and returns every URL the log holds. */
  closeAndReadUrls(): Promise<string[]>;
}

/**
 * Hosts Debian's Chromium calls on its own, whatever the page does (component updater, account
 * and autofill services): the browser's requests, never the app's.
 */
export const browserOwnHost =
  /^https?:\/\/(update\.googleapis\.com|accounts\.google\.com|content-autofill\.googleapis\.com)([:/]|$)/;

export async function launchWithNetLog(): Promise<LoggedChromium> {
  const folder = await mkdtemp(join(tmpdir(), 'longship-net-log-'));
  const log = join(folder, 'net-log.json');
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...chromiumFlags, `--log-net-log=${log}`, '--net-log-capture-mode=Default'],
    headless: true,
    timeout: 60_000,
  });
  return {
    browser,
    async closeAndReadUrls() {
      await browser.close();
      try {
        const text = await readFile(log, 'utf8');
        // Every request's URL: the `url` parameter of the log's events (requests, redirects, jobs).
        return [...new Set([...text.matchAll(/"url":"([^"]*)"/g)].map((m) => m[1]!))];
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}

/** The URLs of `urls` that are neither on one of `origins` nor the browser's own. */
export function offOrigin(urls: string[], origins: string[]): string[] {
  // The origin's own host and port, over HTTP or its WebSocket (Vite's dev server reloads by one).
  const local = (url: string) => {
    const { protocol, host } = new URL(url);
    return origins.some((origin) => {
      const app = new URL(origin);
      return host === app.host && protocol.replace(/^ws/, 'http') === app.protocol;
    });
  };
  // data: and blob: URLs are made in the page or worker, never fetched from anywhere.
  return urls.filter(
    (url) => url !== '' && !/^(data|blob):/.test(url) && !local(url) && !browserOwnHost.test(url),
  );
}
