// transformersEmbedder in a module Worker in Chromium: the bundled model and onnxruntime-web's WASM
// files served from localhost, vectors that match Node's, and no request to anywhere else.
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledModel } from '../../src/embed/bundled-model.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';
import {
  bundleForBrowser,
  launchChromium,
  onnxruntimeWebDist,
  type StaticServer,
  serveFiles,
} from './browser.js';
import type { EmbedderWorkerAnswer, EmbedderWorkerRequest } from './embedder-worker.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const texts = [
  'How do I reset my password?',
  'The cat is sleeping on the sofa.',
  'Vitamin D deficiency is associated with an increased risk of fractures in older adults.',
  '',
  'word '.repeat(200),
];

let browser: Browser;
let server: StaticServer;
let expected: Float32Array[];

beforeAll(async () => {
  const worker = await bundleForBrowser(fileURLToPath(new URL('./embedder-worker.ts', import.meta.url)));
  server = await serveFiles(root, {
    '/': { body: '<!doctype html><title>Longship</title>', type: 'text/html' },
    '/bundle/embedder-worker.js': { body: worker },
  });
  browser = await launchChromium();
  // Node's vectors through the same kind of option the worker gets: the bundled model by folder.
  const node = transformersEmbedder({
    model: { ...bundledModel, directory: fileURLToPath(new URL('../../model/use-lite/', import.meta.url)) },
  });
  expect(node.id).toBe(bundledModel.id);
  expected = await node.embed(texts);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(aa * bb);
}

describe('transformersEmbedder in a Chromium module Worker', () => {
  it('embeds offline with the served model and WASM files, like Node does (cosine ≥ 0.999)', async () => {
    const context = await browser.newContext();
    const requested: string[] = [];
    const blocked: string[] = [];
    // The request event sees the worker's fetches as well as the page's (the model files below are
    // the worker's); the route makes sure a request elsewhere fails here instead of going out.
    context.on('request', (request) => requested.push(request.url()));
    if (process.env.NOROUTE)
      await context.route(
        () => false,
        (r) => r.continue(),
      );
    else
      await context.route(
        (url) => !isLocal(url),
        (route) => {
          blocked.push(route.request().url());
          return route.abort();
        },
      );
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/`);
      const request: EmbedderWorkerRequest = {
        modelDirectory: `${server.origin}/model/use-lite/`,
        wasmPaths: `${server.origin}/${onnxruntimeWebDist(root)}/`,
        texts,
      };
      // A string, not a function: vitest would rewrite a function's code for Node. The page gets
      // the vectors from the worker and compares them with Node's.
      const answer = (await page.evaluate(`
        new Promise((resolve) => {
          const worker = new Worker('/bundle/embedder-worker.js', { type: 'module' });
          worker.onerror = (event) => resolve({ error: 'worker error: ' + event.message });
          worker.onmessage = ({ data }) => {
            worker.terminate();
            if (data.error) return resolve(data);
            const expected = ${JSON.stringify(expected.map((vector) => Array.from(vector)))};
            const cosine = (a, b) => {
              let dot = 0, aa = 0, bb = 0;
              for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; aa += a[i] * a[i]; bb += b[i] * b[i]; }
              return dot / Math.sqrt(aa * bb);
            };
            resolve({ ...data, vectors: data.vectors.map((v) => Array.from(v)),
              cosines: data.vectors.map((v, i) => cosine(v, expected[i])) });
          };
          worker.postMessage(${JSON.stringify(request)});
        })`)) as EmbedderWorkerAnswer & { cosines?: number[] };
      if ('error' in answer) throw new Error(answer.error);
      expect(answer.isWorker).toBe(true);
      expect(answer.crossOriginIsolated).toBe(false);
      expect(answer.id).toBe('longship/use-lite');
      expect(answer.vectors).toHaveLength(texts.length);
      expect(answer.vectors.every((vector) => vector.length === 512)).toBe(true);
      expect(Math.min(...answer.cosines!)).toBeGreaterThanOrEqual(0.999);
      // The same check in Node, so that a page that skipped a vector cannot pass.
      answer.vectors.forEach((vector, i) => {
        expect(cosine(vector, expected[i]!)).toBeGreaterThanOrEqual(0.999);
      });

      const paths = requested.filter(isLocal).map((url) => new URL(url).pathname);
      expect(paths).toContain('/model/use-lite/onnx/model_quantized.onnx');
      expect(paths).toContain('/model/use-lite/tokenizer.json');
      // The plain WASM build, not the twice as large .asyncify one (see wasmPaths).
      expect(paths).toContain(`/${onnxruntimeWebDist(root)}/ort-wasm-simd-threaded.wasm`);
      expect(blocked).toEqual([]);
      expect(requested.filter((url) => !isLocal(url))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** Whether a request stays on this machine: localhost over HTTP, or a blob:/data: URL. */
function isLocal(url: string | URL): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'blob:' || protocol === 'data:') return true;
  return (protocol === 'http:' || protocol === 'https:') && ['127.0.0.1', 'localhost'].includes(hostname);
}
