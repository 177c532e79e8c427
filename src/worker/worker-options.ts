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
  /**
   * The IndexedDB database the worker keeps everything in, and the name the tabs of an origin share
   * it by. Default `{ indexedDB: 'longship' }`.
   */
  store?: { indexedDB: string };
  /** Where the USearch `.wasm` is (a URL), or its bytes or compiled module. Default: next to the worker's module. */
  usearch?: string | URL | ArrayBuffer | ArrayBufferView | WasmModule;
  /** The on-device model the worker loads. Default: the bundled USE-lite, found next to the worker's module. */
  embedder?: { transformers: TransformersEmbedderOptions };
}

/** The IndexedDB database `options` name: the one the worker opens, and its tabs share it by. */
export function databaseOf(options: WorkerOptions): string {
  return options.store?.indexedDB ?? 'longship';
}

/** The options whose strings are URLs, and every file of a model folder's `files`. */
const urlKeys = new Set(['usearch', 'directory', 'localModelPath', 'wasmPaths', 'mjs', 'wasm']);

/**
 * `options` with every URL in it as an absolute string. A `URL` object does not survive structured
 * clone, and a relative URL would be resolved in the worker against the worker's script, which a
 * bundler moves (to /assets/): so both are resolved here, against `base` (the page's address). A
 * `model` is a URL only as a path (`'./models/x/'`): hub ids (`'Xenova/all-MiniLM-L6-v2'`) stay.
 */
export function urlsForWorker(options: WorkerOptions, base?: string): WorkerOptions {
  const resolve = (value: unknown, key: string, isFile: boolean): unknown => {
    if (value instanceof URL) return value.href;
    if (typeof value === 'string') {
      const isUrl = isFile || urlKeys.has(key) || (key === 'model' && /^\.{0,2}\//.test(value));
      return isUrl && base !== undefined ? new URL(value, base).href : value;
    }
    // Bytes, a compiled module and the like go as they are.
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
      return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, item]) => [k, resolve(item, k, key === 'files')]),
    );
  };
  return resolve(options, '', false) as WorkerOptions;
}
