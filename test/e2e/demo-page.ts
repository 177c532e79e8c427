// Driving the demo page: open it, wait until it is ready, search through its input, read results
// back from the page, and keep every request on this machine.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { chromiumFlags, chromiumPath } from '../targets/browser.js';

/** Where the tests keep their screenshots of the demo (git-ignored). */
export const artifacts = new URL('./artifacts/', import.meta.url);

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, artifacts).pathname, fullPage: false });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations, as `rule: selectors`: in the whole page, or in the
 * element `selector` names.
 */
export async function seriousViolations(page: Page, selector?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (selector) => {
    type Violation = { id: string; impact: string | null; nodes: { target: string[] }[] };
    type Axe = { run(context: Document | Element): Promise<{ violations: Violation[] }> };
    const context = selector ? document.querySelector(selector)! : document;
    const { violations } = await (window as unknown as { axe: Axe }).axe.run(context);
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }, selector);
}

/** Whether a request stays on this machine: localhost over HTTP(S), or a blob:/data: URL. */
export function isLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'blob:' || protocol === 'data:') return true;
  return (
    (protocol === 'http:' || protocol === 'https:') && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname)
  );
}

/**
 * Records every request of the context (pages and their workers) and aborts any that would leave
 * this machine, so a test can assert that none was even attempted.
 */
export async function keepLocal(
  context: BrowserContext,
): Promise<{ requested: string[]; blocked: string[] }> {
  const log = { requested: [] as string[], blocked: [] as string[] };
  context.on('request', (request) => log.requested.push(request.url()));
  await context.route(
    (url) => !isLocal(url.href),
    (route) => {
      log.blocked.push(route.request().url());
      return route.abort();
    },
  );
  return log;
}

export interface DemoParams {
  embedder?: 'model' | 'words';
  db?: string;
  corpus?: 'none';
  worker?: 'shared' | 'dedicated';
}

export function demoUrl(origin: string, params: DemoParams = {}): string {
  const query = new URLSearchParams(params as Record<string, string>).toString();
  return `${origin}/${query ? `?${query}` : ''}`;
}

/**
 * Waits until the page says it is ready (or fails with the page's own error), and by default until
 * its model has loaded too: before that, searches are answered by words alone (demo/src/main.ts).
 */
export async function waitReady(
  page: Page,
  timeoutMs = 240_000,
  { model = true }: { model?: boolean } = {},
): Promise<void> {
  await page.waitForFunction(
    (model) => {
      const { state, model: loaded } = document.body.dataset;
      if (state === 'error') return true;
      return state === 'ready' && (!model || loaded !== 'loading');
    },
    model,
    { timeout: timeoutMs, polling: 250 },
  );
  const state = await page.evaluate(() => document.body.dataset.state);
  if (state === 'error') throw new Error(`the demo failed: ${await page.textContent('#status')}`);
}

export interface ShownResult {
  uri: string;
  score: string;
  abstract: string;
}

/** Types `query` into the search box and reads the results the page shows for it. */
export async function searchFor(page: Page, query: string): Promise<ShownResult[]> {
  await page.fill('#query', query);
  await page.waitForFunction((q) => document.getElementById('results')?.dataset.query === q, query, {
    timeout: 60_000,
  });
  return page.$$eval('#results .result', (buttons) =>
    buttons.map((button) => ({
      uri: (button as HTMLElement).dataset.uri ?? '',
      score: button.querySelector('.score')?.textContent ?? '',
      abstract: button.querySelector('.abstract')?.textContent ?? '',
    })),
  );
}

export interface RecordingProxy {
  /** For Playwright's `proxy.server`. */
  readonly server: string;
  /** Every URL the browser asked for, from any page, worker or SharedWorker. */
  readonly requested: string[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy that records every request the browser makes and forwards only those to this
 * machine. Playwright's request events miss a SharedWorker's fetches (the demo's model and WASM
 * files); a proxy sees them all. Playwright sends loopback through the proxy too.
 */
export async function startRecordingProxy(
  /** Answers a request itself, with these bytes, instead of forwarding it (a test's own file). */
  answer?: (url: string) => Uint8Array | undefined,
  /** Holds a request back until the promise it gives settles (a slow network, on demand). */
  hold?: (url: string) => Promise<void> | undefined,
): Promise<RecordingProxy> {
  const requested: string[] = [];
  const server = createServer(async (request, response) => {
    const url = request.url ?? '';
    requested.push(url);
    await hold?.(url)?.catch(() => {});
    if (!/^http:\/\//.test(url) || !isLocal(url)) {
      response.writeHead(403).end('not on this machine');
      return;
    }
    const own = answer?.(url);
    if (own) {
      response.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(own);
      return;
    }
    const upstream = httpRequest(url, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  // HTTPS goes through CONNECT: recorded and refused, since nothing here speaks TLS.
  server.on('connect', (request, socket) => {
    requested.push(`https://${request.url ?? ''}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    requested,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Chromium with every request, a SharedWorker's included, going through the recording `proxy`. */
export function launchThroughProxy(proxy: RecordingProxy): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: chromiumFlags,
    headless: true,
    timeout: 60_000,
    proxy: { server: proxy.server },
  });
}
