// The one place that touches transformers.js's global `env` (and, in workerd, WebAssembly.instantiate
// for the length of a load): its model-file settings while a model loads, and onnxruntime-web's
// WASM files, which Longship always names itself so that onnxruntime-web never reaches for a CDN.

import { isCrossOriginIsolated, isServiceWorker } from '../env/runtime.js';
import { LongshipError } from '../errors.js';
import { SerialQueue } from '../serial-queue.js';
import { type OrtWasmFiles, packagedOrtFiles } from './ort-files.js';

type TransformersEnv = typeof import('@huggingface/transformers')['env'];

interface WasmSettings {
  device?: 'wasm' | 'webgpu' | 'cpu' | undefined;
  wasmPaths?: string | URL | OrtWasmFiles | undefined;
  threads?: number | undefined;
}

const envQueue = new SerialQueue();

/** transformers.js's own hub host, kept for a model named by hub id; undefined until the first load. */
let hubHost: string | undefined;

/**
 * Turns transformers.js's remote models off and forgets its hub host, for good: a model is never
 * fetched from the hub unless a load names one by id and borrows them back for its length. Set at
 * every load, in case something else turned them on. (A load that failed midway once went on
 * fetching from the hub after its borrowed settings were put back: issue 37.)
 */
function remoteModelsOff(env: TransformersEnv): void {
  if (hubHost === undefined) hubHost = env.remoteHost;
  env.allowRemoteModels = false;
  env.remoteHost = '';
}

/**
 * Runs `load` with `borrowed` model settings and onnxruntime-web's WASM settings in `env`. WASM
 * settings stay (onnxruntime-web reads them once, when it starts), and so do remote models off; the
 * model settings are put back afterwards. `load` must settle only once all its requests have:
 * anything still loading after that would run with the settings put back. Loads run one at a time
 * so that no load sees another one's settings.
 */
export function withEnv<T>(
  env: TransformersEnv,
  borrowed: Partial<TransformersEnv>,
  { wasmPaths, threads, device }: WasmSettings,
  load: () => Promise<T>,
): Promise<T> {
  return envQueue.run(async () => {
    remoteModelsOff(env);
    // A model named by hub id borrows the hub back; every other load keeps it off.
    if (borrowed.allowRemoteModels) borrowed = { ...borrowed, remoteHost: hubHost ?? '' };
    const wasm = env.backends.onnx.wasm;
    // Node runs onnxruntime-node and has no onnxruntime-web settings: nothing to name there.
    if (!wasm) return withSettings(env, borrowed, load);
    let files = wasmFiles(wasmPaths ?? packagedOrtFiles(), device);
    // A service worker disallows import(): its onnxruntime-web is the WASM-only bundle
    // (src/env/transformers.ts), whose built-in glue takes the module compiled here.
    if (isServiceWorker() && typeof files === 'object') files = { wasm: await compiledWasm(files.wasm) };
    let compiled: WebAssembly.Module | undefined;
    if (typeof files === 'object' && files.wasm instanceof WebAssembly.Module) {
      compiled = files.wasm;
      // No glue named: onnxruntime-web starts the one its bundle holds (and never its CDN default).
      wasm.wasmPaths = (files.mjs === undefined ? {} : { mjs: files.mjs }) as { mjs: string; wasm: string };
    } else wasm.wasmPaths = files as string | { mjs: string; wasm: string };
    if (threads !== undefined) wasm.numThreads = threads;
    // WASM threads need SharedArrayBuffer, which browsers give only to cross-origin isolated pages;
    // elsewhere onnxruntime-web would warn and fall back to one thread anyway. workerd has no
    // threads, and with one thread the glue starts no pthread workers.
    if (!isCrossOriginIsolated()) wasm.numThreads = 1;
    // With its WASM cache on, transformers.js downloads the files itself and hands onnxruntime-web
    // the bytes, which then compiles them without streaming and without the browser's code cache.
    // Files the app serves are in the browser's HTTP cache already. A runtime that needs the cache
    // (Deno, see src/env/transformers.ts) says so in `borrowed`.
    const settings = { useWasmCache: false, ...borrowed };
    if (!compiled) return withSettings(env, settings, load);
    const module = compiled;
    return withCompiledWasm(wasm, module, () => withSettings(env, settings, load));
  });
}

/** Runs `load` with some of transformers.js's settings changed, and puts them back afterwards. */
async function withSettings<T>(
  env: TransformersEnv,
  borrowed: Partial<TransformersEnv>,
  load: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(
    Object.keys(borrowed).map((key) => [key, env[key as keyof TransformersEnv]]),
  );
  Object.assign(env, borrowed);
  try {
    return await load();
  } finally {
    Object.assign(env, saved);
  }
}

/**
 * onnxruntime-web's files as it takes them: URLs as strings, a prefix as the plain WASM build's two
 * files unless the model runs on WebGPU. transformers.js imports onnxruntime-web's WebGPU bundle,
 * which would otherwise load its `.asyncify` build: twice the size (27 MB against 14), about twice
 * as slow to start in Chromium, and no faster once running (bench/embed). A compiled module stays.
 */
function wasmFiles(
  wasmPaths: string | URL | OrtWasmFiles,
  device: WasmSettings['device'],
): string | { mjs?: string; wasm: string | WebAssembly.Module } {
  if (typeof wasmPaths === 'object' && !(wasmPaths instanceof URL)) {
    const { mjs, wasm } = wasmPaths;
    return {
      ...(mjs === undefined ? {} : { mjs: String(mjs) }),
      wasm: wasm instanceof WebAssembly.Module ? wasm : String(wasm),
    };
  }
  const prefix = String(wasmPaths);
  if (device === 'webgpu') return prefix;
  const folder = prefix.endsWith('/') ? prefix : `${prefix}/`;
  return { mjs: `${folder}ort-wasm-simd-threaded.mjs`, wasm: `${folder}ort-wasm-simd-threaded.wasm` };
}

/** onnxruntime-web's WASM compiled from its URL (streaming where it is served as application/wasm). */
async function compiledWasm(wasm: string | WebAssembly.Module): Promise<WebAssembly.Module> {
  if (wasm instanceof WebAssembly.Module) return wasm;
  const response = await fetch(wasm).catch((error: unknown) => {
    throw new Error(`could not fetch ${wasm}: ${String(error)}`, { cause: error });
  });
  if (!response.ok) throw new Error(`could not fetch ${wasm}: HTTP ${response.status}`);
  if (response.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** Whether `imports` offers exactly the functions and values `module` imports. */
function sameImports(module: WebAssembly.Module, imports: WebAssembly.Imports | undefined): boolean {
  const needed = new Set(WebAssembly.Module.imports(module).map((entry) => `${entry.module}.${entry.name}`));
  const given = Object.entries(imports ?? {}).flatMap(([name, values]) =>
    Object.keys(values).map((key) => `${name}.${key}`),
  );
  return given.length === needed.size && given.every((name) => needed.has(name));
}

/**
 * onnxruntime-web from a compiled module, for workerd, which refuses to compile WebAssembly from
 * bytes. onnxruntime-web takes the WASM as a URL or as bytes only, and passes the bytes to the glue,
 * which instantiates them: it gets a placeholder buffer, and while the model loads,
 * `WebAssembly.instantiate` answers for that buffer with an instance of the module.
 */
async function withCompiledWasm<T>(
  wasm: NonNullable<TransformersEnv['backends']['onnx']['wasm']>,
  module: WebAssembly.Module,
  load: () => Promise<T>,
): Promise<T> {
  const placeholder = new ArrayBuffer(8);
  const original = WebAssembly.instantiate;
  const instantiate = (source: unknown, imports?: WebAssembly.Imports) => {
    const bytes = ArrayBuffer.isView(source) ? source.buffer : source;
    if (bytes !== placeholder) return (original as (s: unknown, i?: unknown) => unknown)(source, imports);
    // A glue built for another .wasm would link or hang (the WebGPU bundle's, made for the
    // .asyncify build, hangs): Emscripten's glue imports exactly what its own .wasm needs.
    if (!sameImports(module, imports)) {
      return Promise.reject(
        new LongshipError(
          'MODEL_LOAD',
          "onnxruntime-web's built-in glue is not the one for ort-wasm-simd-threaded.wasm: alias onnxruntime-web/webgpu to longship/onnxruntime-web/wasm (docs/guide/workerd.md)",
        ),
      );
    }
    return original(module, imports).then((instance) => ({ instance, module }));
  };
  (wasm as { wasmBinary?: ArrayBuffer }).wasmBinary = placeholder;
  WebAssembly.instantiate = instantiate as typeof WebAssembly.instantiate;
  try {
    return await load();
  } finally {
    WebAssembly.instantiate = original;
  }
}
