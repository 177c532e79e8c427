// Starts Miniflare with durable-object-agents-worker.ts: its Durable Object class with SQLite storage,
// the .wasm files as modules (onnxruntime-web's built by `npm run build`), the bundled model's files
// as bindings.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { expect } from 'vitest';
import { bundleWorker } from './workerd-bundle.js';

const worker = fileURLToPath(new URL('./durable-object-agents-worker.ts', import.meta.url));
const file = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const model = 'model/use-lite';

let script: Promise<string> | undefined;

/** `persist`: the folder the objects' SQLite files are kept in, to start Miniflare again over them. */
export async function startAgents(persist: string): Promise<Miniflare> {
  script ??= bundleWorker(worker);
  return new Miniflare({
    compatibilityDate: '2026-04-01',
    modules: [
      { type: 'ESModule', path: 'worker.mjs', contents: await script },
      {
        type: 'CompiledWasm',
        path: 'usearch.wasm',
        contents: await readFile(file('wasm/dist/usearch.wasm')),
      },
      {
        type: 'CompiledWasm',
        path: 'ort-wasm-simd-threaded.wasm',
        contents: await readFile(file('dist/ort/ort-wasm-simd-threaded.wasm')),
      },
    ],
    dataBlobBindings: {
      MODEL_CONFIG: file(`${model}/config.json`),
      MODEL_TOKENIZER: file(`${model}/tokenizer.json`),
      MODEL_TOKENIZER_CONFIG: file(`${model}/tokenizer_config.json`),
      MODEL_ONNX: file(`${model}/onnx/model_quantized.onnx`),
    },
    durableObjects: { AGENT: { className: 'AgentObject', useSQLite: true } },
    durableObjectsPersist: persist,
  });
}

/** Sends `path` (`agent/action?…`) to the agent's object: a 200 answer's JSON. */
export async function ask<T>(miniflare: Miniflare, path: string, body?: object): Promise<T> {
  const response = await miniflare.dispatchFetch(`http://agents/${path}`, {
    method: body ? 'POST' : 'GET',
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}
