// Bundles a test Worker for Miniflare as wrangler would for workerd (docs/guide/workerd.md): its package
// conditions, onnxruntime-web's plain WASM build for the engine's import, and each .wasm left as a
// module import by its file name, which workerd links as a compiled WebAssembly.Module.

import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// Built by `npm run build`; read only by Workers that bundle the engine.
const ortBundle = fileURLToPath(new URL('../../dist/ort/ort.wasm.bundle.min.mjs', import.meta.url));

/** The Worker at `entry` as one ES module that imports its .wasm files as `./usearch.wasm` and the like. */
export async function bundleWorker(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    // esbuild's browser platform, as wrangler bundles: it honours a package's "browser" field,
    // which swaps mammoth's file-system readers for in-memory ones.
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    // As wrangler resolves packages: comlink, for one, has a `module` field but no `exports`.
    mainFields: ['module', 'main'],
    alias: { 'onnxruntime-web/webgpu': ortBundle },
    target: 'es2022',
    write: false,
    // runtime.ts imports node:fs only behind a check that fails in workerd.
    external: ['node:*', 'cloudflare:*'],
    plugins: [
      {
        name: 'wasm-module',
        setup(plugin) {
          // Leave the .wasm import for workerd, which links it as a CompiledWasm module.
          plugin.onResolve({ filter: /\.wasm$/ }, (args) => ({
            path: `./${basename(args.path)}`,
            external: true,
          }));
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}
