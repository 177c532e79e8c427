import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  buildAndSearch,
  type EngineContext,
  type EngineRun,
  errorText,
  MB,
  measureRecall,
  measureSearch,
  timed,
} from '../harness.js';

interface Resource {
  embeddings: { id: string; title: string; url: string; embeddings: number[] }[];
}

interface Voy {
  add(resource: Resource): void;
  search(query: Float32Array, k: number): { neighbors: { id: string }[] };
  serialize(): string;
  size(): number;
  free(): void;
}

interface VoyModule {
  Voy: { new (resource?: Resource): Voy; deserialize(serialized: string): Voy };
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
}

const chunk = 10_000;

/**
 * voy-search 0.6.3 is a wasm-bindgen "bundler" build: its entry imports the .wasm as an ES module, which
 * Node 20 only does with --experimental-wasm-modules. Instead its JS bindings (voy_search_bg.js, a deep
 * import) are loaded and the .wasm instantiated against them by hand — the same code, no flag.
 */
async function loadVoy(): Promise<{ voy: VoyModule; exports: WebAssembly.Exports }> {
  const require = createRequire(import.meta.url);
  const directory = dirname(require.resolve('voy-search/package.json'));
  const bindings = (await import(pathToFileURL(join(directory, 'voy_search_bg.js')).href)) as VoyModule;
  const { instance } = await WebAssembly.instantiate(readFileSync(join(directory, 'voy_search_bg.wasm')), {
    './voy_search_bg.js': bindings as unknown as WebAssembly.ModuleImports,
  });
  bindings.__wbg_set_wasm(instance.exports);
  return { voy: bindings, exports: instance.exports };
}

export const voy: EngineRun = async (ctx: EngineContext) => {
  const { n, dims, k } = ctx;
  const notes: string[] = [];
  const { voy: Voy, exports } = await loadVoy();
  const memory = exports.memory as WebAssembly.Memory;
  const resource = (start: number, end: number): Resource => ({
    embeddings: Array.from({ length: end - start }, (_, j) => {
      const i = start + j;
      return {
        id: String(i),
        title: '',
        url: '',
        embeddings: Array.from(ctx.base.subarray(i * dims, (i + 1) * dims)),
      };
    }),
  });
  const heapBefore = memory.buffer.byteLength;
  // Adding all vectors in one call fails at 100k, so they go in chunks (each add rebuilds the k-d tree).
  const started = performance.now();
  const built = await timed(() => {
    const index = new Voy.Voy();
    for (let start = 0; start < n; start += chunk) {
      const end = Math.min(n, start + chunk);
      index.add(resource(start, end));
      const rate = end / ((performance.now() - started) / 1000);
      ctx.progress(`added ${end} of ${n} (${rate.toFixed(0)}/s)`);
    }
    return index;
  });
  const heapAfter = memory.buffer.byteLength;
  const index = built.value;
  const search = (target: Voy) => (query: Float32Array) =>
    target.search(query, k).neighbors.map((neighbor) => Number(neighbor.id));
  const searched = await measureSearch(ctx, search(index));

  let bytes: number | null = null;
  let saveMs: number | null = null;
  let loadMs: number | null = null;
  let loadRecall: number | null = null;
  try {
    const saved = await timed(() => index.serialize());
    saveMs = saved.ms;
    bytes = Buffer.byteLength(saved.value);
    const loaded = await timed(() => Voy.Voy.deserialize(saved.value));
    loadMs = loaded.ms;
    loadRecall = await measureRecall(ctx, search(loaded.value));
  } catch (error) {
    notes.push(`serialize()/deserialize() failed at n=${n}: ${errorText(error)}`);
  }
  notes.push(
    `voy-search 0.6.3 (k-d tree in Rust/WASM; Euclidean, which ranks unit vectors as cosine does), added in ` +
      `chunks of ${chunk} as {id, title, url, embeddings: number[]}; serialized = its serialize() JSON string`,
  );
  return {
    quantization: 'f32',
    ...buildAndSearch(n, built, searched),
    memory_mb: (heapAfter - heapBefore) / MB,
    memory_how:
      'growth of its WASM linear memory during the build (it never shrinks, so the peak of the temporary ' +
      'copies serde makes of each chunk is included)',
    wasm_heap_mb: heapAfter / MB,
    bytes,
    save_ms: saveMs,
    load_ms: loadMs,
    load_recall10: loadRecall,
    notes,
  };
};
