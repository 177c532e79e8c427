// Writes dist/vendor/transformers.js: transformers.js's web build with the onnxruntime-web it
// imports, in one ES module, with the hub and CDN defaults and the `.asyncify` WASM's URL taken
// out as the worker script has them (tools/worker/bundle.ts). The root entry imports it in browsers,
// workers and any runtime but Node, Deno and workerd (package.json `imports`, `#transformers`), so
// that an app's bundle of `longship` names no remote host and no unused 27 MB file
// (docs/guide/assets.md). Runs before the worker bundle in `npm run build`.
// Usage: tsx tools/build/transformers-web.ts
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { hideOrtFallbackUrls, onnxruntimeWebDist, remoteHostsIn } from '../worker/bundle.js';

export const vendorOut = fileURLToPath(new URL('../../dist/vendor/transformers.js', import.meta.url));

/** transformers.js's web build: what a browser bundler resolves `@huggingface/transformers` to. */
export function transformersWebBuild(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@huggingface/transformers')), 'transformers.web.js');
}

/** The esbuild options of the copy, for the build and for the test that bundles the root entry. */
export function transformersWebOptions(): BuildOptions {
  return {
    entryPoints: [transformersWebBuild()],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Names stay, for stack traces; no comments (the docs' example URLs and a hub image).
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'utf8',
    legalComments: 'none',
    plugins: [ortPerRuntime, hideOrtFallbackUrls],
  };
}

const perRuntime = fileURLToPath(new URL('./onnxruntime-web-per-runtime.ts', import.meta.url));

/**
 * transformers.js's `onnxruntime-web/webgpu` as {@link perRuntime}, which picks the WASM-only bundle
 * in a service worker; its own imports as transformers.js would resolve them.
 */
const ortPerRuntime: Plugin = {
  name: 'onnxruntime-web-per-runtime',
  setup(plugin) {
    plugin.onResolve({ filter: /^onnxruntime-web\/webgpu$/ }, (args) => {
      if (args.pluginData === 'real') return undefined;
      if (args.importer !== perRuntime) return { path: perRuntime };
      return plugin.resolve(args.path, {
        kind: args.kind,
        resolveDir: dirname(transformersWebBuild()),
        pluginData: 'real',
      });
    });
    plugin.onResolve({ filter: /^onnxruntime-web\/wasm-bundle$/ }, () => ({
      path: join(onnxruntimeWebDist(), 'ort.wasm.bundle.min.mjs'),
    }));
  },
};

/**
 * A `new URL('…', import.meta.url)` of onnxruntime-web's `.asyncify` build, which Longship never
 * loads: the form a bundler follows to copy the file (27 MB) into an app.
 */
export const followedAsyncifyUrl =
  /new URL\(\s*["'`][\w.-]*asyncify[\w.-]*["'`]\s*,\s*import\.meta\.url\s*\)/g;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await build({ ...transformersWebOptions(), outfile: vendorOut, write: true });
  const text = await readFile(vendorOut, 'latin1');
  const named = remoteHostsIn(vendorOut, text);
  if (followedAsyncifyUrl.test(text)) named.push(`${vendorOut}: the .asyncify WASM's URL`);
  if (named.length > 0) throw new Error(`transformers.js still names:\n${named.join('\n')}`);
  console.log(`${vendorOut}: ${(text.length / 1024) | 0} KB`);
}
