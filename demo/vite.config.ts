// The demo page: `npm start` serves it with Vite's dev server; the e2e tests build it. Everything it
// loads comes from this machine: the bundled model, onnxruntime-web's WASM (dist/ort/, made by
// `npm run build`) and USearch's WASM are found by Longship's own `new URL(…, import.meta.url)`
// references, which Vite serves in development and copies into a build (docs/guide/assets.md).
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { fallbackUrlFiles, hideFallbackUrls } from '../tools/worker/bundle.js';
import { demoPack } from './pack-plugin.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The demo's workers import Longship's sources, and so onnxruntime-web itself, not the package's
 * worker bundle, where this is done already: without it Vite copies onnxruntime-web's unused
 * 27 MB `.asyncify` WASM into the build.
 */
function hideOrtFallbacks(): Plugin {
  return {
    name: 'longship-hide-fallback-urls',
    transform: (code, id) => (fallbackUrlFiles.test(id.split('?')[0]!) ? hideFallbackUrls(code) : null),
  };
}

/**
 * Cross-origin isolation, which onnxruntime-web's WASM threads need (SharedArrayBuffer): everything
 * the page loads is its own, so nothing is blocked (docs/guide/demo.md, "Threads and headers").
 */
const isolated = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative URLs: the build works from any folder of any static host (docs/guide/demo.md).
  base: './',
  // The corpus is read with import.meta.glob from demo/corpus; nothing else is public.
  publicDir: false,
  // The sample corpus's records, made once per change: a new visitor's store is filled from them.
  plugins: [demoPack({ emit: true })],
  worker: { format: 'es', plugins: () => [hideOrtFallbacks(), demoPack({ emit: false })] },
  server: { host: '127.0.0.1', port: 5173, fs: { allow: [root] }, headers: isolated },
  preview: { host: '127.0.0.1', headers: isolated },
  build: { target: 'es2022', emptyOutDir: true, outDir: 'dist' },
  // The workers' dependencies too, found before the first load: otherwise the dev server finds them
  // when a worker starts and reloads the page in the middle of the first indexing.
  optimizeDeps: { entries: ['index.html', 'src/model-worker.ts', 'src/words-worker.ts'] },
});
