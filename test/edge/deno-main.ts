// Run by test/edge/deno.test.ts with `deno run --sloppy-imports --allow-read` (sloppy imports map
// this repository's `.js` import specifiers to its `.ts` files). Prints one JSON line.
import { loadUsearch } from '../../src/exports/vector.js';
import { runScenario } from './scenario.js';

// Just what this script uses of Deno's global, for tsc (which runs without Deno's types).
declare const Deno: { readFile(url: URL): Promise<Uint8Array<ArrayBuffer>>; version: { deno: string } };

const wasmUrl = new URL('../../wasm/dist/usearch.wasm', import.meta.url);
const sources = {
  default: () => loadUsearch(),
  bytes: async () => loadUsearch(await Deno.readFile(wasmUrl)),
  fetch: async () => loadUsearch(await fetch(wasmUrl)),
  module: async () => loadUsearch(await WebAssembly.compile(await Deno.readFile(wasmUrl))),
};
const results: Record<string, unknown> = {};
for (const [name, load] of Object.entries(sources)) results[name] = runScenario(await load());
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, results }));
