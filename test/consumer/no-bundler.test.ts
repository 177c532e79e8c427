// The no-bundler quick start (examples/no-bundler/index.html): a plain page at the root of the
// installed project that imports the package from node_modules through an import map, served as
// static files, driven in Chromium: index, find, reload, the same. Chromium's own network log
// shows that nothing, the worker's requests included, left the page's origin.
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type StaticServer, serveFiles } from '../targets/browser.js';
import { type LoggedChromium, launchWithNetLog, offOrigin } from './chromium-net-log.js';

const example = fileURLToPath(new URL('../../examples/no-bundler/index.html', import.meta.url));

describe('a page without a bundler', () => {
  const root = inject('consumerRoot');
  let server: StaticServer;
  let chromium: LoggedChromium;

  beforeAll(async () => {
    await copyFile(example, join(root, 'index.html'));
    server = await serveFiles(root);
    chromium = await launchWithNetLog();
  });

  afterAll(async () => {
    await chromium?.browser.close();
    await server?.close();
  });

  it('indexes, finds, and finds the same after a reload, with nothing off its origin', async () => {
    const context = await chromium.browser.newContext();
    const errors: string[] = [];
    const shown = async () => {
      await page.waitForFunction(
        () => !document.querySelector('#results')?.textContent?.startsWith('Indexing'),
        {
          timeout: 180_000,
        },
      );
      return (await page.textContent('#results'))!.split('\n');
    };
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${server.origin}/index.html`);
    const [summary, ...results] = await shown();
    await page.reload();
    const [summaryAgain, ...resultsAgain] = await shown();
    await context.close();

    expect(errors).toEqual([]);
    expect(summary).toBe('added 3, unchanged 0');
    expect(results[0]).toMatch(/^viking:\/\/resources\/rivers\.md /);
    expect(summaryAgain).toBe('added 0, unchanged 3');
    expect(resultsAgain).toEqual(results);

    const urls = await chromium.closeAndReadUrls();
    // The worker's requests are in the log: the package's own model file and onnxruntime-web's WASM.
    expect(urls).toContain(`${server.origin}/node_modules/longship/model/use-lite/onnx/model_quantized.onnx`);
    expect(urls).toContain(`${server.origin}/node_modules/longship/dist/ort/ort-wasm-simd-threaded.wasm`);
    expect(offOrigin(urls, [server.origin])).toEqual([]);
  }, 300_000);
});
