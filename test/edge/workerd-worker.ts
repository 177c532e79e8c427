// Bundled by test/edge/workerd.test.ts with esbuild and run in workerd by Miniflare. workerd
// forbids compiling WebAssembly from bytes at run time: the .wasm comes in as a module import
// (a compiled WebAssembly.Module), and that is what loadUsearch gets.

import { loadUsearch } from '../../src/exports/vector.js';
import { LongshipError } from '../../src/index.js';
import usearchWasm from '../../wasm/dist/usearch.wasm';
import { runScenario } from './scenario.js';

async function errorCode(load: () => Promise<unknown>): Promise<string> {
  try {
    await load();
    return 'loaded';
  } catch (error) {
    return error instanceof LongshipError
      ? `${error.code}: ${error.message}`
      : `not a LongshipError: ${error}`;
  }
}

export default {
  async fetch(): Promise<Response> {
    const isModule = usearchWasm instanceof WebAssembly.Module;
    const result = runScenario(await loadUsearch(usearchWasm));
    // What a caller that forgot the rule gets: a typed error, not a hang.
    const fromBytes = await errorCode(() => loadUsearch(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])));
    return Response.json({ isModule, result, fromBytes });
  },
};
