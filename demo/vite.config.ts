// The demo page: `npm start` serves it with Vite's dev server; the e2e tests build it. Everything it
// loads comes from this machine: the bundled model (model/use-lite/), onnxruntime-web's WASM files
// and USearch's WASM (wasm/dist/) are served under /local/ in development and copied there in a build.
import { copyFileSync, createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

/** onnxruntime-web's dist folder: the copy transformers.js itself imports. */
function onnxruntimeWebDist(): string {
  const require = createRequire(import.meta.url);
  const fromTransformers = createRequire(require.resolve('@huggingface/transformers'));
  return dirname(fromTransformers.resolve('onnxruntime-web'));
}

/** URL prefix under /local/ → the folder it comes from and the files the demo needs from it. */
const localAssets: Record<string, { folder: string; files: string[] }> = {
  'model/use-lite/': {
    folder: join(root, 'model/use-lite'),
    files: ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'],
  },
  'ort/': {
    folder: onnxruntimeWebDist(),
    files: ['ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm'],
  },
  'usearch/': { folder: join(root, 'wasm/dist'), files: ['usearch.wasm'] },
};

const contentTypes: Record<string, string> = {
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.mjs': 'text/javascript; charset=utf-8',
};

function localAssetFile(path: string): string | undefined {
  for (const [prefix, { folder, files }] of Object.entries(localAssets)) {
    const name = path.slice(`/local/${prefix}`.length);
    if (path.startsWith(`/local/${prefix}`) && files.includes(name)) return join(folder, name);
  }
  return undefined;
}

function serveLocalAssets(): Plugin {
  let outDir = '';
  return {
    name: 'longship-local-assets',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
        const file = localAssetFile(path);
        if (!file) return next();
        if (!existsSync(file)) {
          response.statusCode = 404;
          response.end(`${file} is missing: run npm run build:model (model) or npm run build:wasm (USearch)`);
          return;
        }
        response.setHeader('content-type', contentTypes[extname(file)] ?? 'application/octet-stream');
        response.setHeader('content-length', statSync(file).size);
        createReadStream(file).pipe(response);
      });
    },
    // writeBundle runs in a build only (closeBundle also runs when the dev server stops).
    writeBundle() {
      for (const [prefix, { folder, files }] of Object.entries(localAssets)) {
        for (const name of files) {
          const target = join(outDir, 'local', prefix, name);
          mkdirSync(dirname(target), { recursive: true });
          copyFileSync(join(folder, name), target);
        }
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // The corpus is read with import.meta.glob from demo/corpus; nothing else is public.
  publicDir: false,
  plugins: [serveLocalAssets()],
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, fs: { allow: [root] } },
  preview: { host: '127.0.0.1' },
  build: { target: 'es2022', emptyOutDir: true, outDir: 'dist' },
  // The workers' dependencies too, found before the first load: otherwise the dev server finds them
  // when a worker starts and reloads the page in the middle of the first indexing.
  optimizeDeps: { entries: ['index.html', 'src/model-worker.ts', 'src/words-worker.ts'] },
});
