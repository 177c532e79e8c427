// Replaces the compiled worker script, dist/worker/entry.js, with one self-contained ES module, for
// pages without a bundler: a browser resolves bare imports ('comlink', 'idb') in a page through an
// import map, but a worker never sees the page's import map, so tsc's entry.js cannot start there.
// In the same place, createLongship's default URL finds it, and the URLs it finds its own files by
// (../../wasm/dist/usearch.wasm, ../../model/use-lite/) still point into the package. Bundlers
// (Vite) take it as it is. Runs after tsc in `npm run build`.
// Usage: tsx tools/worker/bundle.ts [--out <file>]   (default: dist/worker/entry.js)
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';

export const workerEntry = fileURLToPath(new URL('../../src/worker/entry.ts', import.meta.url));
export const defaultOut = fileURLToPath(new URL('../../dist/worker/entry.js', import.meta.url));

/** The esbuild options of the bundle, for the build and for tests that serve the same file. */
export const workerBundleOptions: BuildOptions = {
  entryPoints: [workerEntry],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  // Node-only modules are imported behind runtime checks (src/env/); they never run in a worker.
  external: ['node:*'],
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--out');
  const outfile = at > 0 && process.argv[at + 1] ? process.argv[at + 1]! : defaultOut;
  const result = await build({ ...workerBundleOptions, outfile, metafile: true });
  console.log(
    `${outfile}: ${((result.metafile.outputs[relative(process.cwd(), outfile)]?.bytes ?? 0) / 1024) | 0} KB`,
  );
}
