// A Worker script bundled as wrangler bundles one for workerd (its conditions, the package's asset
// imports left as modules), for the consumer tests that run it under Miniflare.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

/** What each asset import is bound as in workerd (the rules in docs/guide/workerd.md). */
function moduleType(specifier: string): 'CompiledWasm' | 'Data' {
  return specifier.endsWith('.wasm') ? 'CompiledWasm' : 'Data';
}

const assetImport = /^longship\/(usearch\.wasm|ort-wasm-simd-threaded\.wasm|model\/.+)$/;

export type Module = {
  type: 'ESModule' | 'CompiledWasm' | 'Data';
  path: string;
  contents: string | Uint8Array;
};

/**
 * The worker script and its asset modules, as wrangler would upload them: the script bundled for
 * workerd with `alias`, each asset import resolved through the package's `exports`.
 */
export async function bundleWorker(
  fixture: string,
  entry: string,
  alias: Record<string, string>,
): Promise<Module[]> {
  const assets = new Set<string>();
  const bundled = await build({
    entryPoints: [join(fixture, entry)],
    absWorkingDir: fixture,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    // As wrangler resolves packages for workerd.
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    alias,
    external: ['node:*'],
    plugins: [
      {
        name: 'module-imports',
        setup(plugin) {
          plugin.onResolve({ filter: assetImport }, (args) => {
            assets.add(args.path);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  const resolve = createRequire(join(fixture, 'package.json')).resolve;
  const modules = await Promise.all(
    [...assets].sort().map(async (specifier) => ({
      type: moduleType(specifier),
      path: specifier,
      contents: await readFile(resolve(specifier)),
    })),
  );
  return [{ type: 'ESModule', path: 'worker.js', contents: bundled.outputFiles[0]!.text }, ...modules];
}
