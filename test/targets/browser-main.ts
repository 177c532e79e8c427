// Bundled for Chromium by test/targets/chromium-worker.test.ts: the page imports run(), and a module
// Worker runs the same code when browser-worker.ts hands it a message.
import { loadUsearch } from '../../src/exports/vector.js';
import { runScenario } from '../edge/scenario.js';

/** Loads the module from `wasmUrl` (fetched; streamed when served as application/wasm) and runs the scenario. */
export async function run(wasmUrl: string) {
  const usearch = await loadUsearch(new URL(wasmUrl));
  return runScenario(usearch);
}
