import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadUsearch } from '../../src/exports/vector.js';
import { runScenario, type ScenarioResult } from '../edge/scenario.js';
import { bundleForBrowser, launchChromium, type StaticServer, serveFiles } from './browser.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

let browser: Browser;
let server: StaticServer;
let expected: ScenarioResult;

beforeAll(async () => {
  const [main, worker, wasm] = await Promise.all([
    bundleForBrowser(here('./browser-main.ts')),
    bundleForBrowser(here('./browser-worker.ts')),
    readFile(new URL('../../wasm/dist/usearch.wasm', import.meta.url)),
  ]);
  server = await serveFiles(root, {
    '/': { body: '<!doctype html><title>Longship</title>', type: 'text/html' },
    '/bundle/main.js': { body: main },
    '/bundle/worker.js': { body: worker },
    // The same bytes without application/wasm: no streaming compile, the fallback path.
    '/octet/usearch.wasm': { body: wasm, type: 'application/octet-stream' },
  });
  browser = await launchChromium();
  expected = runScenario(await loadUsearch());
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function expectScenario(result: ScenarioResult) {
  expect(result.nearest).toBe(30);
  expect(result.selfHits).toEqual([5, 123, 400]);
  expect([...result.filtered].sort((a, b) => a - b)).toEqual([25, 45, 65]);
  expect(result.viewMatches).toBe(true);
  expect(result).toEqual(expected);
}

describe('Chromium', () => {
  it('serves the .wasm as application/wasm', async () => {
    const response = await fetch(`${server.origin}/wasm/dist/usearch.wasm`);
    expect(response.headers.get('content-type')).toBe('application/wasm');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    expect((await fetch(`${server.origin}/..%2f..%2f..%2fetc%2fpasswd`)).status).toBe(403);
  });

  it('runs add + search in the page, from a streamed and from a plain download', async () => {
    const page = await browser.newPage();
    try {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(`${server.origin}/`);
      // A string, not a function: vitest would rewrite a function's import() for Node.
      const results: { streamed: ScenarioResult; plain: ScenarioResult; agent: string } =
        await page.evaluate(`
        (async (origin) => {
          const { run } = await import(origin + '/bundle/main.js');
          return {
            streamed: await run(origin + '/wasm/dist/usearch.wasm'),
            plain: await run(origin + '/octet/usearch.wasm'),
            agent: navigator.userAgent,
          };
        })(${JSON.stringify(server.origin)})`);
      expect(results.agent).toMatch(/Chrome\//);
      expectScenario(results.streamed);
      expectScenario(results.plain);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('runs add + search in a module Web Worker', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.origin}/`);
      const answer = await page.evaluate(
        (origin) =>
          new Promise<{ result?: ScenarioResult; isWorker?: boolean; error?: string }>((resolve) => {
            const worker = new Worker(`${origin}/bundle/worker.js`, { type: 'module' });
            worker.onmessage = (event) => {
              resolve(event.data);
              worker.terminate();
            };
            worker.onerror = (event) => resolve({ error: `worker error: ${event.message}` });
            worker.postMessage(`${origin}/wasm/dist/usearch.wasm`);
          }),
        server.origin,
      );
      expect(answer.error).toBeUndefined();
      expect(answer.isWorker).toBe(true);
      expectScenario(answer.result!);
    } finally {
      await page.close();
    }
  });

  it('reports a missing .wasm as WASM_LOAD inside the worker', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.origin}/`);
      const answer = await page.evaluate(
        (origin) =>
          new Promise<{ error?: string }>((resolve) => {
            const worker = new Worker(`${origin}/bundle/worker.js`, { type: 'module' });
            worker.onmessage = (event) => resolve(event.data);
            worker.postMessage(`${origin}/missing/usearch.wasm`);
          }),
        server.origin,
      );
      expect(answer.error).toMatch(/^WASM_LOAD: .*HTTP 404/);
    } finally {
      await page.close();
    }
  });
});
