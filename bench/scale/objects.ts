// Miniflare hosting bench/scale/worker.ts: one workerd process over a folder of Durable Object
// storage, started afresh for each cold open, and the requests the benchmark sends it.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { Miniflare } from 'miniflare';
import { bundleWorker } from '../../test/edge/workerd-bundle.js';

export const WORKER_NAME = 'scale';
const worker = fileURLToPath(new URL('./worker.ts', import.meta.url));
const wasm = new URL('../../wasm/dist/usearch.wasm', import.meta.url);

let script: Promise<string> | undefined;
let minified: Promise<string> | undefined;

/**
 * workerd over the objects' storage in `folder`, with its inspector on a free port. `minify`: the
 * bundle minified, as a deployment would ship it, to see what the script alone holds.
 */
export async function startObjects(folder: string, options: { minify?: boolean } = {}): Promise<Miniflare> {
  script ??= bundleWorker(worker);
  if (options.minify)
    minified ??= script.then(async (code) => (await transform(code, { minify: true, format: 'esm' })).code);
  return new Miniflare({
    name: WORKER_NAME,
    compatibilityDate: '2026-04-01',
    modules: [
      { type: 'ESModule', path: 'worker.mjs', contents: await (options.minify ? minified! : script) },
      { type: 'CompiledWasm', path: 'usearch.wasm', contents: await readFile(wasm) },
    ],
    durableObjects: { SCALE: { className: 'ScaleObject', useSQLite: true } },
    durableObjectsPersist: folder,
    inspectorPort: 0,
  });
}

/** Sends `action` to the object `name`; its JSON answer, and the round trip in ms. */
export async function ask<T>(
  miniflare: Miniflare,
  name: string,
  action: string,
  params: Record<string, number> = {},
): Promise<{ answer: T; roundTripMs: number }> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const started = performance.now();
  const response = await miniflare.dispatchFetch(`http://scale/${name}/${action}?${query}`);
  const text = await response.text();
  const roundTripMs = performance.now() - started;
  if (response.status !== 200) throw new Error(`${action} on ${name}: ${response.status} ${text}`);
  return { answer: JSON.parse(text) as T, roundTripMs };
}
