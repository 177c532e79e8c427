// The Vite quick start (examples/vite/) in the installed project: `vite dev`, then `vite build`
// served statically, each driven in Chromium: it indexes a few documents and finds, and after a
// reload finds the same from IndexedDB without indexing again. Chromium's own network log shows
// that nothing, the workers' requests included, left the app's origin; the build warns of nothing.
import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type StaticServer, serveFiles } from '../targets/browser.js';
import { type LoggedChromium, launchWithNetLog, offOrigin } from './chromium-net-log.js';

const example = (file: string) => fileURLToPath(new URL(`../../examples/vite/${file}`, import.meta.url));

type Vite = typeof import('vite');

/** What the example page shows once it is done: its first line, and the results found. */
async function shownResults(page: Page): Promise<{ summary: string; results: string[] }> {
  await page.waitForFunction(() => !document.querySelector('#results')?.textContent?.startsWith('Indexing'), {
    timeout: 180_000,
  });
  const [summary = '', ...results] = (await page.textContent('#results'))!.split('\n');
  return { summary, results };
}

/** Opens the app, then reloads it: the second visit must find the same without indexing. */
async function visitTwice(chromium: LoggedChromium, url: string) {
  const context = await chromium.browser.newContext();
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(url);
    const first = await shownResults(page);
    await page.reload();
    const again = await shownResults(page);
    return { first, again, errors };
  } finally {
    await context.close();
  }
}

function expectFoundAndKept(visits: Awaited<ReturnType<typeof visitTwice>>): void {
  expect(visits.errors).toEqual([]);
  expect(visits.first.summary).toBe('added 3, unchanged 0');
  expect(visits.first.results[0]).toMatch(/^viking:\/\/resources\/rivers\.md /);
  expect(visits.again.summary).toBe('added 0, unchanged 3');
  expect(visits.again.results).toEqual(visits.first.results);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

describe('a Vite app that depends on longship', () => {
  const root = inject('consumerRoot');
  const app = join(root, 'vite-app');
  const origins: string[] = [];
  let vite: Vite;
  let chromium: LoggedChromium;

  beforeAll(async () => {
    await mkdir(app, { recursive: true });
    await Promise.all(['index.html', 'main.js'].map((file) => copyFile(example(file), join(app, file))));
    // The project's own Vite, as `npx vite` would run it.
    vite = (await import(pathToFileURL(join(root, 'node_modules/vite/dist/node/index.js')).href)) as Vite;
    chromium = await launchWithNetLog();
  });

  afterAll(async () => {
    await chromium?.browser.close();
  });

  it('works under `vite dev`: index, find, reload, the same results', async () => {
    const server = await vite.createServer({
      root: app,
      logLevel: 'error',
      server: { host: '127.0.0.1', port: await freePort(), strictPort: true },
    });
    await server.listen();
    const origin = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
    origins.push(origin);
    try {
      expectFoundAndKept(await visitTwice(chromium, `${origin}/`));
    } finally {
      await server.close();
    }
  }, 300_000);

  it('works from `vite build` served as static files, and the build warns of nothing', async () => {
    const warnings: string[] = [];
    const logger = vite.createLogger('warn');
    logger.warn = (message) => warnings.push(message);
    logger.warnOnce = (message) => warnings.push(message);
    await vite.build({ root: app, logLevel: 'warn', customLogger: logger });
    // Rolldown's note of how long plugins took (Vite's asset plugin reading the 2 MB worker
    // script, on a busy machine) is about the machine, not a problem in the package.
    expect(warnings.filter((warning) => !warning.startsWith('[PLUGIN_TIMINGS]'))).toEqual([]);
    const assets = join(app, 'dist/assets');
    const sizes = Object.fromEntries(
      await Promise.all(
        (await readdir(assets)).map(async (file) => [file, (await stat(join(assets, file))).size]),
      ),
    );
    // The model's int8 weights and onnxruntime-web's plain WASM, and not its unused .asyncify build.
    const names = Object.keys(sizes);
    expect(names.some((name) => /^model_quantized-[\w-]+\.onnx$/.test(name))).toBe(true);
    expect(names.some((name) => /^ort-wasm-simd-threaded-[\w-]+\.wasm$/.test(name))).toBe(true);
    expect(names.some((name) => /^usearch-[\w-]+\.wasm$/.test(name))).toBe(true);
    expect(names.filter((name) => /asyncify|jsep|jspi|model\.onnx|model-/.test(name))).toEqual([]);
    console.log('vite build assets (bytes):', JSON.stringify(sizes));

    let server: StaticServer | undefined;
    try {
      server = await serveFiles(join(app, 'dist'));
      origins.push(server.origin);
      expectFoundAndKept(await visitTwice(chromium, `${server.origin}/index.html`));
    } finally {
      await server?.close();
    }
  }, 300_000);

  it('made no request off the app’s origin, the workers’ included (Chromium’s network log)', async () => {
    expect(origins).toHaveLength(2);
    const urls = await chromium.closeAndReadUrls();
    // The log saw the workers' requests: the model's weights, in development and in the build.
    expect(urls.some((url) => url.startsWith(origins[0]!) && url.includes('model_quantized'))).toBe(true);
    expect(urls.some((url) => url.startsWith(origins[1]!) && /model_quantized-[\w-]+\.onnx$/.test(url))).toBe(
      true,
    );
    expect(offOrigin(urls, origins)).toEqual([]);
  });
});
