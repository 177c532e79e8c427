import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConvertedDocument } from '../../src/ingest/convert/converted.js';
import { convertPdf } from '../../src/ingest/convert/pdf.js';
import { makeReportPdf } from '../fixtures/documents/make-pdf.js';
import { bundleFilesForBrowser, launchChromium, type StaticServer, serveFiles } from './browser.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

let browser: Browser;
let server: StaticServer;
let chunks: string[];

beforeAll(async () => {
  const files = await bundleFilesForBrowser(here('./pdf-worker.ts'));
  chunks = Object.keys(files);
  server = await serveFiles(root, {
    '/': { body: '<!doctype html><title>Longship</title>', type: 'text/html' },
    ...Object.fromEntries(Object.entries(files).map(([name, body]) => [`/bundle/${name}`, { body }])),
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('convertPdf in a module Worker in Chromium', () => {
  it('reads a report as Node does, fetching nothing but its own chunks', async () => {
    const report = await makeReportPdf();
    const page = await browser.newPage();
    const requested: string[] = [];
    page.context().on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${server.origin}/`);
    const answer = (await page.evaluate(async (bytes) => {
      const worker = new Worker('/bundle/pdf-worker.js', { type: 'module' });
      return new Promise((resolve) => {
        worker.onmessage = (event) => {
          // pdf.js's worker module also greets the page when it loads in a Worker; that is not the answer.
          if ('converted' in event.data || 'error' in event.data) resolve(event.data);
        };
        worker.postMessage(new Uint8Array(bytes));
      });
    }, Array.from(report))) as { converted?: ConvertedDocument; error?: string };
    expect(answer.error).toBeUndefined();
    expect(answer.converted).toEqual(await convertPdf(report, { name: 'report.pdf', maxPages: 100 }));
    // The worker script and the chunks it imports on demand (pdf.js among them): no fonts, no maps.
    expect(requested.filter((path) => path !== '/').sort()).toEqual(
      chunks.map((name) => `/bundle/${name}`).sort(),
    );
    await page.close();
  });
});
