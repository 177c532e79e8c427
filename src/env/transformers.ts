// Which build of transformers.js this runtime loads, and the settings that build needs here.
// Deno resolves `@huggingface/transformers` to its Node build, which imports sharp and
// onnxruntime-node: native addons, so `--allow-ffi`. Longship loads the web build instead
// (onnxruntime-web, WASM) and serves it local files itself, so Deno needs only `--allow-read`
// (docs/guide/deno.md says why each piece is here).

type Transformers = typeof import('@huggingface/transformers');
type TransformersEnv = Transformers['env'];

/** The transformers.js module, and what a load of a local model must set in its `env` here. */
export interface LoadedTransformers {
  transformers: Transformers;
  /**
   * Settings a load of a local model needs here, over any other (empty outside Deno). In Deno,
   * transformers.js's WASM cache must stay on: without it, its web build refuses to start there.
   */
  localSettings: Partial<TransformersEnv>;
  /** Whether a local model's folder is read as files (Deno, through its custom cache) rather than fetched. */
  readsLocalFiles: boolean;
}

let deno: Promise<LoadedTransformers> | undefined;

/**
 * Node's modules by names no bundler resolves: this module is in the browser's worker bundle
 * too, where the Deno branch never runs, and a bundler would warn of each module it externalised.
 */
const nodeModule = 'node:module';
const nodeUrlName = 'node:url';
const nodeUrl = async () =>
  (await import(/* webpackIgnore: true */ /* @vite-ignore */ nodeUrlName)) as typeof import('node:url');

/**
 * transformers.js by a name no bundler follows: in Node it is imported from node_modules at run
 * time, bundled or not, as an app that bundles for Node and leaves transformers.js out expects.
 */
const transformersPackage = '@huggingface/transformers';

/** transformers.js for this runtime: its Node build in Node, its web build in browsers and Deno. */
export async function loadTransformers(): Promise<LoadedTransformers> {
  if (isDeno()) {
    deno ??= loadInDeno();
    return deno;
  }
  // Elsewhere `#transformers` (package.json `imports`): transformers.js itself in workerd, and in
  // browsers and workers the package's copy of its web build, without hub and CDN defaults
  // (docs/guide/assets.md).
  const transformers = (
    isNode()
      ? await import(/* webpackIgnore: true */ /* @vite-ignore */ transformersPackage)
      : await import('#transformers')
  ) as Transformers;
  return { transformers, localSettings: {}, readsLocalFiles: transformers.env.useFS };
}

function isNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

function isDeno(): boolean {
  return typeof (globalThis as { Deno?: { mainModule?: string } }).Deno?.mainModule === 'string';
}

async function loadInDeno(): Promise<LoadedTransformers> {
  // Resolved as Node resolves it, from the script Deno runs: the project's node_modules. Not by
  // import.meta.resolve, whose `import.meta` a bundler that builds workers as classic scripts
  // warns about (this module is in the browser's worker bundle too, where this never runs).
  const { createRequire } = (await import(
    /* webpackIgnore: true */ /* @vite-ignore */ nodeModule
  )) as typeof import('node:module');
  const { pathToFileURL } = await nodeUrl();
  const main = (globalThis as unknown as { Deno: { mainModule: string } }).Deno.mainModule;
  const nodeBuild = createRequire(main).resolve('@huggingface/transformers');
  // The package's `exports` name only its entry, which resolves to the Node build (CommonJS for
  // require); the web build lies beside it.
  const webBuild = new URL('./transformers.web.js', pathToFileURL(nodeBuild)).href;
  const transformers = (await import(/* @vite-ignore */ webBuild)) as Transformers;
  const wasm = transformers.env.backends.onnx.wasm;
  // Without this, transformers.js points onnxruntime-web at a CDN. The plain build, from the
  // onnxruntime-web transformers.js imports; the .asyncify one is twice its size.
  if (wasm) {
    const ort = createRequire(nodeBuild);
    const file = (name: string) => pathToFileURL(ort.resolve(`onnxruntime-web/${name}`)).href;
    wasm.wasmPaths = { mjs: file('ort-wasm-simd-threaded.mjs'), wasm: file('ort-wasm-simd-threaded.wasm') };
  }
  return {
    transformers,
    localSettings: {
      useCustomCache: true,
      customCache: localFiles,
      useBrowserCache: false,
      useWasmCache: true,
    },
    readsLocalFiles: true,
  };
}

/**
 * A "cache" that is the file system: it answers every file: URL or path with the file. Through
 * it, transformers.js never fetches a local file itself; its fetch would read `process.env` (so
 * `--allow-env`) to build request headers. For onnxruntime-web's `.mjs` it answers the URL
 * itself: transformers.js then imports the file from there, where it would otherwise import it
 * from a blob: URL, which Deno refuses for modules inside node_modules.
 */
const localFiles = {
  async match(key: string): Promise<Response | string | undefined> {
    const url = await fileUrl(key);
    if (!url) return undefined;
    if (url.pathname.endsWith('.mjs')) return url.href;
    try {
      return await fetch(url);
    } catch {
      // Not there: transformers.js reports the file as missing.
      return undefined;
    }
  },
  async put(): Promise<void> {},
};

/** A file: URL or an absolute path as a file: URL; undefined for anything else (a hub URL). */
async function fileUrl(key: string): Promise<URL | undefined> {
  if (/^file:/i.test(key)) return new URL(key);
  if (!key.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(key)) return undefined;
  const { pathToFileURL } = await nodeUrl();
  return pathToFileURL(key);
}
