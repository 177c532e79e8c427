import * as mememoPackage from 'mememo';
import {
  buildAndSearch,
  type EngineContext,
  type EngineRun,
  graph,
  jsBytes,
  MB,
  measureRecall,
  measureSearch,
  row,
  timed,
} from '../harness.js';

// mememo's index.d.ts re-exports './mememo' without an extension, which NodeNext cannot resolve, so its
// types are invisible here: the little used is declared.
interface MememoIndexJSON {
  entryPointKey: string | null;
}

interface HNSW {
  insert(key: string, value: number[]): Promise<void>;
  query(value: number[], k?: number, ef?: number): Promise<{ keys: string[]; distances: number[] }>;
  exportIndex(): MememoIndexJSON;
  loadIndex(index: MememoIndexJSON): void;
  bulkInsertSkipIndex(keys: string[], values: number[][]): Promise<void>;
}

const { HNSW } = mememoPackage as unknown as {
  HNSW: new (config: {
    distanceFunction: 'cosine-normalized';
    m: number;
    efConstruction: number;
    seed: number;
    useIndexedDB: boolean;
  }) => HNSW;
};

/**
 * MeMemo 0.1.0 (HNSW in TypeScript), in memory (`useIndexedDB: false`, its fastest mode; its default keeps
 * nodes in IndexedDB through Dexie). Distances are its 'cosine-normalized' (1 − dot; the vectors are unit).
 */
export const mememo: EngineRun = async (ctx: EngineContext) => {
  const { n, k } = ctx;
  const config = {
    distanceFunction: 'cosine-normalized' as const,
    m: graph.connectivity,
    efConstruction: graph.expansionAdd,
    seed: ctx.seed,
    useIndexedDB: false,
  };
  const before = jsBytes();
  const keys = Array.from({ length: n }, (_, i) => String(i));
  // Its API takes number[] vectors; the conversion is input, not build.
  const values = Array.from({ length: n }, (_, i) => Array.from(row(ctx, i)));
  const started = performance.now();
  const built = await timed(async () => {
    const index = new HNSW(config);
    for (let i = 0; i < n; i++) {
      await index.insert(keys[i]!, values[i]!);
      if ((i + 1) % 2000 === 0) {
        const rate = (i + 1) / ((performance.now() - started) / 1000);
        ctx.progress(`inserted ${i + 1} of ${n} (${rate.toFixed(0)}/s)`);
      }
    }
    return index;
  });
  const memory = jsBytes() - before;
  const index = built.value;
  const search = (target: HNSW) => async (query: Float32Array) =>
    (await target.query(Array.from(query), k, graph.expansionSearch)).keys.map(Number);
  const searched = await measureSearch(ctx, search(index));

  // Its own format: exportIndex() is the graph as JSON; the embeddings are not in it and must be inserted
  // again with bulkInsertSkipIndex (they live in IndexedDB in its default mode). Counted here as raw f32.
  const saved = await timed(() => JSON.stringify(index.exportIndex()));
  const graphBytes = Buffer.byteLength(saved.value);
  const loaded = await timed(async () => {
    const fresh = new HNSW(config);
    fresh.loadIndex(JSON.parse(saved.value) as MememoIndexJSON);
    await fresh.bulkInsertSkipIndex(
      keys,
      Array.from({ length: n }, (_, i) => Array.from(row(ctx, i))),
    );
    return fresh;
  });
  const loadRecall = await measureRecall(ctx, search(loaded.value));
  return {
    quantization: 'f32',
    ...buildAndSearch(n, built, searched),
    memory_mb: memory / MB,
    memory_how:
      'JS heap + external after GC, after build minus before the number[] vectors were made (its API takes number[], so they count)',
    bytes: graphBytes + n * ctx.dims * 4,
    save_ms: saved.ms,
    load_ms: loaded.ms,
    load_recall10: loadRecall,
    notes: [
      'mememo 0.1.0 in memory (useIndexedDB: false), inserted one at a time (its bulkInsert does the same per ' +
        `vector); query(…, k, ef=${graph.expansionSearch}); serialized = exportIndex() JSON ` +
        `(${(graphBytes / MB).toFixed(1)} MB, graph only) + the vectors as raw f32; load = JSON.parse + loadIndex + ` +
        'bulkInsertSkipIndex of the vectors',
    ],
  };
};
