// The options a page sends the worker that opens its engine, and how their URLs travel.

import { type AssetUrls, assetUrls } from '../assets.js';
import type { TransformersEmbedderOptions } from '../embed/transformers-embedder.js';
import { pageLocation } from '../env/runtime.js';
import { LongshipError } from '../errors.js';
import type { OpenAiCompatibleLlmOptions } from '../llm/openai-compatible.js';
import type { WasmModule } from '../web-types.js';

/** `openAiCompatibleLlm()`'s options as data: all but `fetch`, a function, which cannot cross a thread. */
export type WorkerLlmOptions = Omit<OpenAiCompatibleLlmOptions, 'fetch'>;

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
  /**
   * The folder where the package's asset files lie as in the package (`dist/worker/entry.js`,
   * `wasm/dist/usearch.wasm`, `model/use-lite/…`, `dist/ort/…`): every asset not named on its own
   * is loaded from there (docs/guide/assets.md).
   */
  assets?: string | URL;
  /** Where the USearch `.wasm` is (a URL), or its bytes or compiled module. Default: next to the worker's module. */
  usearch?: string | URL | ArrayBuffer | ArrayBufferView | WasmModule;
  /** The on-device model the worker loads. Default: the bundled USE-lite, found next to the worker's module. */
  embedder?: { transformers: TransformersEmbedderOptions };
  /**
   * A chat model the worker makes with `openAiCompatibleLlm()` (docs/guide/worker.md, "An LLM"):
   * search() plans its queries with it and session commits extract memories with it. Its requests
   * go from the worker to `baseUrl`, an absolute URL. Default: none, and everything works offline.
   */
  llm?: { openAiCompatible: WorkerLlmOptions };
  /**
   * The user and agent this page works as (docs/guide/namespaces.md): its `viking://~`, memories and
   * sessions. Tabs sharing a worker may each name their own; default the engine's (`'default'`).
   */
  user?: string;
  agent?: string;
}

/** The IndexedDB database `options` name: the one the worker opens, and its tabs share it by. */
export function databaseOf(options: WorkerOptions): string {
  return options.store?.indexedDB ?? 'longship';
}

/** The asset URLs under `assets`, a URL or a path relative to this page (INVALID_ARGUMENT otherwise). */
export function assetsOfPage(assets: unknown, what: string): AssetUrls {
  return assetUrls(assets, pageLocation()?.href, what);
}

/** What `llm.openAiCompatible` may hold. */
const llmKeys = [
  'baseUrl',
  'model',
  'apiKey',
  'timeoutMs',
  'maxRetries',
  'retryBaseMs',
  'retryMaxMs',
  'maxConcurrent',
] as const satisfies readonly (keyof WorkerLlmOptions)[];
// A key openAiCompatibleLlm() gains must be added above: until it is, this does not compile.
const everyLlmKey: [Exclude<keyof WorkerLlmOptions, (typeof llmKeys)[number]>] extends [never]
  ? true
  : never = true;
void everyLlmKey;

/**
 * The `llm` option's shape, checked where it is given (the page) and where it is used (the worker):
 * INVALID_ARGUMENT names an unknown key. The values themselves are `openAiCompatibleLlm()`'s to
 * check, in the worker. Checked by hand, not with the engine's schemas: the page loads no valibot.
 */
export function checkWorkerLlm(llm: unknown, what: string): WorkerOptions['llm'] {
  if (llm === undefined) return undefined;
  const bad = (detail: string): never => {
    throw new LongshipError('INVALID_ARGUMENT', `${what}: ${detail}`);
  };
  if (!isPlainObject(llm)) return bad("option 'llm' must be { openAiCompatible: { baseUrl, model, … } }");
  const unknown = Object.keys(llm).find((key) => key !== 'openAiCompatible');
  if (unknown !== undefined) bad(`unknown option 'llm.${unknown}'; llm takes openAiCompatible`);
  const options = (llm as { openAiCompatible?: unknown }).openAiCompatible;
  if (!isPlainObject(options)) return bad("option 'llm.openAiCompatible' must be an object");
  const key = Object.keys(options).find((k) => !(llmKeys as readonly string[]).includes(k));
  if (key === 'fetch') {
    bad(
      "option 'llm.openAiCompatible.fetch' cannot cross to the worker; pass llm to openLongship() in a worker script of your own (exposeLongship)",
    );
  }
  if (key !== undefined) {
    bad(`unknown option 'llm.openAiCompatible.${key}'; llm.openAiCompatible takes ${llmKeys.join(', ')}`);
  }
  for (const required of ['baseUrl', 'model'] as const) {
    const value = options[required];
    if (typeof value !== 'string' || value === '') {
      bad(`option 'llm.openAiCompatible.${required}' must be a non-empty string`);
    }
  }
  // Relative to what the worker's script is, it would miss; not quoted, since it may hold a secret.
  try {
    new URL(options.baseUrl as string);
  } catch {
    bad("option 'llm.openAiCompatible.baseUrl' must be an absolute URL");
  }
  return llm as WorkerOptions['llm'];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The options whose strings are URLs, and every file of a model folder's `files`. */
const urlKeys = new Set(['assets', 'usearch', 'directory', 'localModelPath', 'wasmPaths', 'mjs', 'wasm']);

/**
 * `options` with every URL in it as an absolute string. A `URL` object does not survive structured
 * clone, and a relative URL would be resolved in the worker against the worker's script, which a
 * bundler moves (to /assets/): so both are resolved here, against `base` (the page's address). A
 * `model` is a URL only as a path (`'./models/x/'`): hub ids (`'Xenova/all-MiniLM-L6-v2'`) stay.
 */
export function urlsForWorker(options: WorkerOptions, base?: string): WorkerOptions {
  // The LLM's `baseUrl` is absolute, and its `model` a name that may look like a path ('/models/x').
  const { llm, ...rest } = options;
  const resolved = resolveUrls(rest, base);
  return llm === undefined ? resolved : { ...resolved, llm };
}

function resolveUrls(options: WorkerOptions, base: string | undefined): WorkerOptions {
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
