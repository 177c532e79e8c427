// Replaces the compiled worker script, dist/worker/entry.js, with one self-contained ES module, for
// pages without a bundler: a browser resolves bare imports ('comlink', 'idb') in a page through an
// import map, but a worker never sees the page's import map, so tsc's entry.js cannot start there.
// In the same place, openLongshipInWorker's default URL finds it, and the URLs it finds its own files by
// (../../wasm/dist/usearch.wasm, ../../model/use-lite/config.json, ../../dist/ort/…) still point
// into the package; what it imports on demand lies beside it as chunk-*.js. Bundlers (Vite) take
// it as it is. It also copies onnxruntime-web's plain WASM
// build into dist/ort/, from the onnxruntime-web that transformers.js imports (the one bundled
// here), so that the glue and the binary match the JavaScript that loads them. Runs after tsc in
// `npm run build`. See docs/guide/assets.md.
// Usage: tsx tools/worker/bundle.ts [--out <file>]   (default: dist/worker/entry.js)
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build, type Plugin } from 'esbuild';

export const workerEntry = fileURLToPath(new URL('../../src/worker/entry.ts', import.meta.url));
export const defaultOut = fileURLToPath(new URL('../../dist/worker/entry.js', import.meta.url));
/** Where the package keeps onnxruntime-web's WASM files (src/embed/ort-files.ts points there). */
export const ortOut = fileURLToPath(new URL('../../dist/ort/', import.meta.url));
/**
 * onnxruntime-web's plain WASM build, what the embedder loads unless it runs on WebGPU; and its
 * WASM-only bundle, whose built-in glue matches that .wasm, for workerd (docs/guide/workerd.md).
 */
export const ortFiles = [
  'ort-wasm-simd-threaded.mjs',
  'ort-wasm-simd-threaded.wasm',
  'ort.wasm.bundle.min.mjs',
];

/** The dist folder of the onnxruntime-web that transformers.js imports (its version, not the newest). */
export function onnxruntimeWebDist(): string {
  const require = createRequire(import.meta.url);
  const fromTransformers = createRequire(require.resolve('@huggingface/transformers'));
  return dirname(fromTransformers.resolve('onnxruntime-web'));
}

/**
 * onnxruntime-web's bundles locate their `.asyncify` build by `new URL('…asyncify.wasm',
 * import.meta.url)`, a form bundlers follow: Vite copied that 27 MB file into every app, unused,
 * since Longship names onnxruntime-web's files itself (src/embed/transformers-env.ts). USearch's
 * glue does the same for a `usearch.wasm` beside this bundle, which is not there (loadUsearch
 * passes its own URL), and Vite warned of it. Written `String(import.meta.url)`, each means the
 * same at run time and no bundler follows it (a minifier keeps the call).
 */
export function hideFallbackUrls(source: string): string {
  return source.replace(
    /new URL\(("[\w.-]+\.(?:wasm|mjs)"),\s*import\.meta\.url\)/g,
    'new URL($1, String(import.meta.url))',
  );
}

/**
 * transformers.js names hosts to fetch from: a CDN for onnxruntime-web's files when its WASM paths
 * are unset, the Hugging Face hub for a model named by id, and the hub's documentation in two error
 * messages. Longship always sets the WASM paths and loads its models from files it is given
 * (src/embed/transformers-env.ts), so the worker script carries none of those hosts: remote models
 * are off by default and have no host, and a load that somehow missed its files fails on this
 * origin instead of fetching code or weights from elsewhere (docs/guide/assets.md).
 */
export function dropRemoteHosts(source: string): string {
  return source
    .replace(/`https:\/\/cdn\.jsdelivr\.net\/npm\/onnxruntime-web@\$\{[^}]+\}\/dist\/`/g, '""')
    .replace(
      /allowRemoteModels: true,(\s*)remoteHost: "https:\/\/huggingface\.co\/",/,
      'allowRemoteModels: false,$1remoteHost: "",',
    )
    .replace(/\["huggingface\.co", "hf\.co"\]/g, '[]')
    .replace(/https:\/\/huggingface\.co\/docs\/[^\s"'`]*[^\s"'`.]/g, 'the transformers.js documentation');
}

/**
 * The hub's hosts and the CDNs scripts are commonly loaded from, which nothing the package ships
 * may name (`cdnjs` alone is a token of the o200k_base vocabulary the worker script holds).
 */
const remoteHosts = /huggingface\.co|\bhf\.co\b|cdn\.jsdelivr|unpkg\.com|cdnjs\./gi;

/** Where `text` names one of {@link remoteHosts}, each as `file: …excerpt…`. */
export function remoteHostsIn(file: string, text: string): string[] {
  return [...text.matchAll(remoteHosts)].map(
    (match) => `${file}: …${text.slice(Math.max(0, match.index - 40), match.index + 40)}…`,
  );
}

/** The files {@link hideFallbackUrls} applies to: onnxruntime-web's bundles and USearch's glue. */
export const fallbackUrlFiles = /(onnxruntime-web[\\/]dist[\\/].*\.m?js|wasm[\\/]dist[\\/]usearch\.js)$/;

export const hideOrtFallbackUrls: Plugin = {
  name: 'hide-fallback-urls',
  setup(plugin) {
    plugin.onLoad({ filter: fallbackUrlFiles }, async (args) => ({
      contents: hideFallbackUrls(await readFile(args.path, 'utf8')),
      loader: 'js',
    }));
    plugin.onLoad({ filter: /@huggingface[\\/]transformers[\\/]dist[\\/].*\.js$/ }, async (args) => ({
      contents: dropRemoteHosts(await readFile(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};

/**
 * pdf.js as its own minified build, a quarter smaller gzipped than what the whitespace and syntax
 * minifying here makes of its plain build (names are kept here, for stack traces; pdf.js's
 * minified build renames them). Loaded only when a PDF arrives (docs/guide/documents.md).
 */
const minifiedPdfJs: Plugin = {
  name: 'minified-pdfjs',
  setup(plugin) {
    plugin.onResolve({ filter: /^pdfjs-dist\/legacy\/build\/pdf(\.worker)?\.mjs$/ }, (args) => ({
      path: createRequire(import.meta.url).resolve(args.path.replace(/\.mjs$/, '.min.mjs')),
    }));
  },
};

/**
 * Copies {@link ortFiles} into dist/ort/: scripts without their source map comments (the maps are
 * not shipped) and with their fallback URLs hidden, the .wasm as it is.
 */
export async function copyOrtFiles(): Promise<void> {
  await mkdir(ortOut, { recursive: true });
  for (const file of ortFiles) {
    const from = join(onnxruntimeWebDist(), file);
    if (file.endsWith('.wasm')) await copyFile(from, join(ortOut, file));
    else {
      const script = hideFallbackUrls(await readFile(from, 'utf8'));
      await writeFile(join(ortOut, file), script.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
    }
  }
}

/** The esbuild options of the bundle, for the build and for tests that serve the same file. */
export const workerBundleOptions: BuildOptions = {
  entryPoints: [workerEntry],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  // Node-only modules are imported behind runtime checks (src/env/); they never run in a worker.
  external: ['node:*'],
  // Node's module resolution, used only where those checks pass (src/env/pdf-thread.ts): a bundler
  // that wraps a worker in a classic script (Vite's default) warns of any `import.meta` it is left.
  define: { 'import.meta.resolve': 'undefined' },
  // No comments (transformers.js's hold example URLs, its docs a hub image) and a third less to
  // load; names stay, for stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  // Text as UTF-8, not \u escapes: the tokenizer's vocabulary is 0.7 MB smaller so. A module
  // script is always read as UTF-8, whatever its server says.
  charset: 'utf8',
  // What is imported on demand (the tokenizer's tables, 3 MB) stays out of what every worker loads:
  // a chunk beside the entry, two levels below the package root like it, so the URLs it finds the
  // package's files by still hold.
  splitting: true,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  plugins: [hideOrtFallbackUrls, minifiedPdfJs],
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--out');
  const outfile = at > 0 && process.argv[at + 1] ? process.argv[at + 1]! : defaultOut;
  // Chunks of an earlier build would ship in the package beside the new ones.
  const outdir = dirname(outfile);
  for (const file of await readdir(outdir).catch(() => [])) {
    if (/^chunk-[\w-]+\.js$/.test(file)) await rm(join(outdir, file));
  }
  const result = await build({
    ...workerBundleOptions,
    outdir,
    entryNames: basename(outfile, '.js'),
    metafile: true,
  });
  await copyOrtFiles();
  const outputs = [...Object.keys(result.metafile.outputs), ...ortFiles.map((file) => join(ortOut, file))];
  const named = (
    await Promise.all(outputs.map(async (file) => remoteHostsIn(file, await readFile(file, 'latin1'))))
  ).flat();
  if (named.length > 0) throw new Error(`the worker script names remote hosts:\n${named.join('\n')}`);
  for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) {
    console.log(`${resolve(file)}: ${(bytes / 1024) | 0} KB`);
  }
}
