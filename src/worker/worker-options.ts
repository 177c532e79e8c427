// The options a page sends the worker that opens its engine, and how their URLs travel.

import type { TransformersEmbedderOptions } from '../embed/transformers-embedder.js';
import type { WasmModule } from '../web-types.js';

/**
 * What a page tells the worker to open: plain data, since nothing else crosses a thread. Every URL
 * (a string or a `URL`, relative to the page or absolute) travels as an absolute string (see
 * `urlsForWorker`). An embedder that is not a transformers.js model, or a store of your own,
 * is chosen in a worker script of your own: see `exposeLongship` (`longship/worker`).
 */
export interface WorkerOptions {
  /** The IndexedDB database, and the name the tabs of an origin share it by. Default `'longship'`. */
  name?: string;
  /** Where the USearch `.wasm` is (a URL), or its bytes or compiled module. Default: next to the worker's module. */
  usearch?: string | URL | ArrayBuffer | ArrayBufferView | WasmModule;
  /** The on-device model the worker loads. Default: the bundled USE-lite, found next to the worker's module. */
  transformers?: TransformersEmbedderOptions;
}

/**
 * `options` with every URL in it as an absolute string. A `URL` object does not survive structured
 * clone, and a relative URL would be resolved in the worker against the worker's script, which a
 * bundler moves (to /assets/): so both are resolved here, against `base` (the page's address). Hub
 * model ids (`'Xenova/all-MiniLM-L6-v2'`) are not URLs and stay as they are.
 */
export function urlsForWorker(options: WorkerOptions, base?: string): WorkerOptions {
  const absolute = (url: string | URL): string => {
    if (url instanceof URL) return url.href;
    return base === undefined ? url : new URL(url, base).href;
  };
  const wire: WorkerOptions = { ...options };
  if (typeof wire.usearch === 'string' || wire.usearch instanceof URL) wire.usearch = absolute(wire.usearch);
  const transformers = options.transformers;
  if (transformers === undefined || typeof transformers !== 'object') return wire;
  const embedder: TransformersEmbedderOptions = { ...transformers };
  const { model, localModelPath, wasmPaths } = transformers;
  if (model instanceof URL || (typeof model === 'string' && /^\.{0,2}\//.test(model))) {
    embedder.model = absolute(model);
  } else if (model !== undefined && typeof model === 'object') {
    const folder = { ...model };
    if (folder.directory !== undefined) folder.directory = absolute(folder.directory);
    if (folder.files !== undefined && typeof folder.files === 'object') {
      folder.files = Object.fromEntries(
        Object.entries(folder.files).map(([name, file]) => [
          name,
          typeof file === 'string' || file instanceof URL ? absolute(file) : file,
        ]),
      );
    }
    embedder.model = folder;
  }
  if (localModelPath !== undefined) embedder.localModelPath = absolute(localModelPath);
  if (typeof wasmPaths === 'string' || wasmPaths instanceof URL) embedder.wasmPaths = absolute(wasmPaths);
  else if (wasmPaths !== undefined && typeof wasmPaths === 'object') {
    const { mjs, wasm } = wasmPaths;
    embedder.wasmPaths = {
      ...(mjs === undefined ? {} : { mjs: absolute(mjs) }),
      wasm: wasm instanceof WebAssembly.Module ? wasm : absolute(wasm),
    };
  }
  wire.transformers = embedder;
  return wire;
}
