// OVPack export and import, and namespaces, in Chromium (docs/guide/ovpack.md): the scenario of
// ../edge/ovpack-scenario.ts between two IndexedDB databases, in a module Worker and on a page.
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectOvpackRoundTrip } from '../edge/ovpack-expect.js';
import type { OvpackResult } from '../edge/ovpack-scenario.js';
import { bundleForBrowser, launchChromium, type StaticServer, serveFiles } from './browser.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  server = await serveFiles(root, {
    '/': { body: '<!doctype html><title>Longship</title>', type: 'text/html' },
    '/bundle/ovpack-worker.js': { body: await bundleForBrowser(here('./ovpack-worker.ts')) },
    '/bundle/ovpack-page.js': { body: await bundleForBrowser(here('./ovpack-page.ts')) },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('in a module Worker: exports a folder with its vectors, imports it into another IndexedDB store, refuses tampered packs', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(`${server.origin}/`);
    const answer = (await page.evaluate(`new Promise((resolve) => {
      const worker = new Worker('/bundle/ovpack-worker.js', { type: 'module' });
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => resolve({ error: String(event.message) });
      worker.postMessage({
        databases: ['ovpack-source', 'ovpack-target'],
        wasm: new URL('/wasm/dist/usearch.wasm', location.href).href,
      });
    })`)) as { result?: OvpackResult; isWorker?: boolean; error?: string };
    expect(answer.error).toBeUndefined();
    expect(answer.isWorker).toBe(true);
    expect(answer.result!.persistent).toEqual([true, true]);
    await expectOvpackRoundTrip(answer.result!);
  } finally {
    await page.close();
  }
}, 120_000);

it('on a page: the same', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(`${server.origin}/`);
    // A string, not a function: vitest would rewrite a function's import() for Node.
    await page.evaluate(`import('${server.origin}/bundle/ovpack-page.js')`);
    const result = (await page.evaluate(`globalThis.ovpackPage.run(
      ['ovpack-page-source', 'ovpack-page-target'],
      new URL('/wasm/dist/usearch.wasm', location.href).href,
    )`)) as OvpackResult;
    expect(result.persistent).toEqual([true, true]);
    await expectOvpackRoundTrip(result);
  } finally {
    await page.close();
  }
}, 120_000);
