// The root entry as an app's esbuild bundles it for a page: transformers.js comes from the package's
// own copy of its web build (tools/build/transformers-web.ts, package.json `imports`), so the bundle
// names no hub, no CDN and no URL of onnxruntime-web's `.asyncify` WASM that a bundler would follow
// (docs/guide/assets.md). The packed package is checked the same way in test/consumer/package.test.ts.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import {
  followedAsyncifyUrl,
  transformersWebOptions,
  vendorOut,
} from '../../tools/build/transformers-web.js';
import { remoteHostsIn } from '../../tools/worker/bundle.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** What the bundle of `entry` names that it must not, file by file. */
async function namedIn(entry: string, plugins: Plugin[]): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: 'bundle',
    write: false,
    external: ['node:*'],
    logLevel: 'silent',
    plugins,
  });
  return result.outputFiles.flatMap((file) => [
    ...remoteHostsIn(file.path, file.text),
    ...(file.text.match(followedAsyncifyUrl) ?? []).map((url) => `${file.path}: ${url}`),
  ]);
}

describe('the root entry bundled by esbuild for a page', () => {
  it('resolves #transformers to the package’s copy everywhere but Node, Deno and workerd', async () => {
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(manifest.imports['#transformers']).toEqual({
      node: '@huggingface/transformers',
      deno: '@huggingface/transformers',
      workerd: '@huggingface/transformers',
      default: `./${vendorOut.slice(repo.length).split('\\').join('/')}`,
    });
  });

  it('names no hub, no CDN and no followed .asyncify URL', async () => {
    const copy = await build({ ...transformersWebOptions(), write: false, outfile: 'transformers.js' });
    const vendored: Plugin = {
      name: 'vendored-transformers',
      setup(plugin) {
        plugin.onResolve({ filter: /^#transformers$/ }, () => ({
          path: 'transformers',
          namespace: 'vendor',
        }));
        plugin.onLoad({ filter: /.*/, namespace: 'vendor' }, () => ({
          contents: copy.outputFiles![0]!.text,
          loader: 'js',
        }));
      },
    };
    expect(await namedIn(`${repo}src/index.ts`, [vendored])).toEqual([]);
  });

  it('would name them with transformers.js itself, as before', async () => {
    const itself: Plugin = {
      name: 'transformers-itself',
      setup(plugin) {
        plugin.onResolve({ filter: /^#transformers$/ }, (args) =>
          plugin.resolve('@huggingface/transformers', { kind: args.kind, resolveDir: args.resolveDir }),
        );
      },
    };
    const named = await namedIn(`${repo}src/index.ts`, [itself]);
    expect(named.some((line) => line.includes('cdn.jsdelivr'))).toBe(true);
    expect(named.some((line) => line.includes('asyncify'))).toBe(true);
  });
});
