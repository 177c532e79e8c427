// The browser half: each measurement in a module Worker of a fresh headless Chromium profile (an
// empty HTTP cache), then a second worker in the same page for the warm start. A profile on disk,
// not an incognito context: an incognito context's cache lives in memory and did not keep the
// model (7 MB) or onnxruntime's WASM (14 MB), which every new worker then downloaded again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { bundledModel } from '../../src/embed/bundled-model.js';
import {
  bundleForBrowser,
  chromiumFlags,
  chromiumPath,
  launchChromium,
  onnxruntimeWebDist,
} from '../../test/targets/browser.js';
import type { Measurement, MeasureRequest } from './measure.js';
import { type BenchServer, isolationHeaders, serveBench } from './server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Which onnxruntime-web files to load: the plain WASM build (the embedder's choice) or `.asyncify`. */
export type WasmBuild = 'plain' | 'asyncify';

export interface ChromiumMeasurement extends Measurement {
  /** A new worker in the same page after the first: files from the HTTP cache. */
  loadWarmMs: number;
  crossOriginIsolated: boolean;
}

export interface ChromiumBench {
  version: string;
  /** Threads > 1 run in a cross-origin isolated page (COOP/COEP), which WASM threads need. */
  /** `modelPath`: the model folder, relative to the repository root. */
  measure(request: MeasureRequest, build: WasmBuild, modelPath?: string): Promise<ChromiumMeasurement>;
  close(): Promise<void>;
}

export async function openChromiumBench(): Promise<ChromiumBench> {
  const worker = await bundleForBrowser(fileURLToPath(new URL('./worker.ts', import.meta.url)));
  const files = { '/': '<!doctype html><title>bench:embed</title>', '/bundle/worker.js': worker };
  const servers: BenchServer[] = [];
  const plain = await serveBench(root, files);
  servers.push(plain);
  const isolated = await serveBench(root, files, isolationHeaders);
  servers.push(isolated);
  const version = await launchChromium().then(async (browser) => {
    const answer = browser.version();
    await browser.close();
    return answer;
  });
  const dist = onnxruntimeWebDist(root);
  return {
    version,
    async measure(request, build, modelPath = 'model/use-lite') {
      const server = request.threads > 1 ? isolated : plain;
      const prefix = `${server.origin}/${dist}/`;
      const full: MeasureRequest = {
        ...request,
        model: { ...bundledModel, directory: `${server.origin}/${modelPath}/` },
        wasmPaths:
          build === 'plain'
            ? prefix
            : {
                mjs: `${prefix}ort-wasm-simd-threaded.asyncify.mjs`,
                wasm: `${prefix}ort-wasm-simd-threaded.asyncify.wasm`,
              },
      };
      const profile = mkdtempSync(join(tmpdir(), 'longship-bench-embed-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath(),
        args: chromiumFlags,
        headless: true,
      });
      const remote: string[] = [];
      context.on('request', (r) => {
        const url = new URL(r.url());
        if (url.protocol.startsWith('http') && url.hostname !== '127.0.0.1') remote.push(r.url());
      });
      try {
        const page = await context.newPage();
        await page.goto(`${server.origin}/`);
        const first = (await inWorker(page, full)) as {
          measurement: Measurement;
          crossOriginIsolated: boolean;
        };
        const second = (await inWorker(page, { ...full, loadOnly: true })) as { measurement: Measurement };
        if (remote.length > 0) throw new Error(`requests left localhost: ${remote.join(', ')}`);
        if (request.threads > 1 && !first.crossOriginIsolated) {
          throw new Error('the page is not cross-origin isolated, so WASM would run on one thread');
        }
        return {
          ...first.measurement,
          loadWarmMs: second.measurement.loadMs,
          crossOriginIsolated: first.crossOriginIsolated,
        };
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    },
    async close() {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}

/** Runs one request in a new module Worker of the page and terminates it. */
async function inWorker(page: Page, request: MeasureRequest): Promise<unknown> {
  // A string, not a function: tsx would add helpers to a function's code that the page lacks.
  const answer = (await page.evaluate(`
    new Promise((resolve) => {
      const worker = new Worker('/bundle/worker.js', { type: 'module' });
      worker.onerror = (event) => resolve({ error: 'worker error: ' + event.message });
      worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
      worker.postMessage(${JSON.stringify(request)});
    })`)) as { error?: string };
  if (answer.error) throw new Error(answer.error);
  return answer;
}
