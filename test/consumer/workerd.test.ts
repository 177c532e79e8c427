// The workerd quick start (examples/workerd/worker.js) from the installed package, under Miniflare:
// bundled as wrangler bundles a Worker with examples/workerd/wrangler.toml (its conditions, its
// alias, the assets left as module imports), the WASM as CompiledWasm modules, the model's files as
// Data modules. openLongship + addResource + find with the bundled model, for real.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { describe, expect, inject, it } from 'vitest';
import { bundleWorker } from './workerd-bundle.js';

const example = fileURLToPath(new URL('../../examples/workerd/worker.js', import.meta.url));
const wranglerToml = fileURLToPath(new URL('../../examples/workerd/wrangler.toml', import.meta.url));

/** The [alias] entries of the example's wrangler.toml, which wrangler hands to esbuild. */
async function wranglerAliases(): Promise<Record<string, string>> {
  const toml = await readFile(wranglerToml, 'utf8');
  const section = toml.split(/^\[alias\]$/m)[1] ?? '';
  return Object.fromEntries(
    [...section.matchAll(/^"([^"]+)"\s*=\s*"([^"]+)"$/gm)].map((m) => [m[1]!, m[2]!]),
  );
}

/** A worker that only loads the model, and answers with the error it got. */
const loadOnly = `
import { transformersEmbedder } from 'longship';
import { bundledModel } from 'longship/extend';
import config from 'longship/model/use-lite/config.json';
import model from 'longship/model/use-lite/onnx/model_quantized.onnx';
import tokenizer from 'longship/model/use-lite/tokenizer.json';
import tokenizerConfig from 'longship/model/use-lite/tokenizer_config.json';
import ortWasm from 'longship/ort-wasm-simd-threaded.wasm';
const files = { 'config.json': config, 'tokenizer.json': tokenizer, 'tokenizer_config.json': tokenizerConfig,
  'onnx/model_quantized.onnx': model };
export default {
  async fetch() {
    const embedder = transformersEmbedder({ model: { ...bundledModel, files }, wasmPaths: { wasm: ortWasm } });
    try {
      await embedder.embed(['x']);
      return Response.json({ loaded: true });
    } catch (error) {
      return Response.json({ code: error.code, cause: error.cause?.message });
    }
  },
};
`;

describe('a workerd worker (Miniflare) with the bundled model', () => {
  const root = inject('consumerRoot');
  const fixture = join(root, 'workerd-app');

  it('opens, indexes a few documents and finds them by meaning', async () => {
    await mkdir(fixture, { recursive: true });
    await copyFile(example, join(fixture, 'worker.js'));
    // onnxruntime-web's bundle whose glue matches its plain .wasm, from longship's exports.
    expect(await wranglerAliases()).toEqual({ 'onnxruntime-web/webgpu': 'longship/onnxruntime-web/wasm' });
    const modules = await bundleWorker(fixture, 'worker.js', await wranglerAliases());
    expect(modules.map((m) => m.path)).toEqual([
      'worker.js',
      'longship/model/use-lite/config.json',
      'longship/model/use-lite/onnx/model_quantized.onnx',
      'longship/model/use-lite/tokenizer.json',
      'longship/model/use-lite/tokenizer_config.json',
      'longship/ort-wasm-simd-threaded.wasm',
      'longship/usearch.wasm',
    ]);
    const miniflare = new Miniflare({ compatibilityDate: '2026-04-01', modules });
    try {
      const ask = async (query: string) => {
        const response = await miniflare.dispatchFetch(`http://localhost/?q=${encodeURIComponent(query)}`);
        const text = await response.text();
        expect(response.status, text).toBe(200);
        return JSON.parse(text) as Array<{ uri: string; score: number }>;
      };
      const rivers = await ask('When do rivers flood?');
      expect(rivers[0]!.uri).toBe('viking://resources/rivers.md');
      const rain = await ask('How much rain falls in a desert?');
      expect(rain[0]!.uri).toBe('viking://resources/deserts.md');
      const baking = await ask('How long do I knead dough?');
      expect(baking[0]!.uri).toBe('viking://resources/bread.md');
    } finally {
      await miniflare.dispose();
    }
  }, 240_000);

  it('without the alias, fails to load the model at once with MODEL_LOAD saying what to do', async () => {
    await mkdir(fixture, { recursive: true });
    await writeFile(join(fixture, 'load-only.js'), loadOnly);
    const miniflare = new Miniflare({
      compatibilityDate: '2026-04-01',
      modules: await bundleWorker(fixture, 'load-only.js', {}),
    });
    try {
      // onnxruntime-web's WebGPU bundle holds the glue of its .asyncify build, which hung with the
      // plain module until workerd cancelled the request.
      const answer = await (await miniflare.dispatchFetch('http://localhost/')).json();
      expect(answer).toEqual({
        code: 'MODEL_LOAD',
        cause: expect.stringMatching(/alias onnxruntime-web\/webgpu to longship\/onnxruntime-web\/wasm/),
      });
    } finally {
      await miniflare.dispose();
    }
  }, 240_000);
});
