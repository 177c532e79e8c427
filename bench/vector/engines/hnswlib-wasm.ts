import { median } from '../../lib/stats.js';
import {
  buildAndSearch,
  type EngineContext,
  type EngineRun,
  graph,
  heapTop,
  MB,
  measureRecall,
  measureSearch,
  row,
  timed,
} from '../harness.js';

export interface HnswIndex {
  initIndex(maxElements: number, m: number, efConstruction: number, randomSeed: number): void;
  setEfSearch(ef: number): void;
  addPoints(items: Float32Array[], labels: number[], replaceDeleted: boolean): void;
  searchKnn(query: Float32Array, k: number, filter: undefined): { neighbors: number[]; distances: number[] };
  writeIndex(filename: string): Promise<boolean>;
  readIndex(filename: string, maxElements: number): Promise<boolean>;
  getCurrentCount(): number;
  delete(): void;
}

export interface HnswLibrary {
  HierarchicalNSW: new (space: 'cosine' | 'l2' | 'ip', dims: number, autoSaveFilename: string) => HnswIndex;
  HEAP8: Int8Array;
  asm: { malloc(bytes: number): number; free(pointer: number): void };
}

const repeats = 3;
const chunk = 1000;

/**
 * hnswlib-wasm is a web-only emscripten build (no "main": imported by its dist path): it checks for `window` and mounts IDBFS (IndexedDB) for
 * its files. In Node it gets a `window` shim and fake-indexeddb.
 */
export async function loadLibrary(): Promise<{
  lib: HnswLibrary;
  sync: (action: 'read' | 'write') => Promise<void>;
}> {
  (globalThis as { window?: unknown }).window ??= globalThis;
  // Its exports map gives "./auto" no types; a specifier TypeScript does not resolve needs none.
  const fakeIndexedDb: string = 'fake-indexeddb/auto';
  await import(fakeIndexedDb);
  const { loadHnswlib, syncFileSystem } = (await import('hnswlib-wasm/dist/hnswlib.js')) as unknown as {
    loadHnswlib: () => Promise<HnswLibrary>;
    syncFileSystem: (action: 'read' | 'write') => Promise<void>;
  };
  return { lib: await loadHnswlib(), sync: syncFileSystem };
}

async function idbFile(path: string): Promise<Uint8Array> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = await idbRead(path);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${path} not found in IndexedDB`);
}

async function idbRead(path: string): Promise<Uint8Array | undefined> {
  const request = (what: IDBRequest) =>
    new Promise<unknown>((resolve, reject) => {
      what.onsuccess = () => resolve(what.result);
      what.onerror = () => reject(what.error);
    });
  const databases = await indexedDB.databases();
  for (const { name } of databases) {
    if (!name) continue;
    const db = (await request(indexedDB.open(name))) as IDBDatabase;
    const store = db.transaction('FILE_DATA').objectStore('FILE_DATA');
    const record = (await request(store.get(path))) as { contents?: Uint8Array } | undefined;
    db.close();
    if (record?.contents) return record.contents;
  }
  return undefined;
}

/** The index over the context's vectors at the shared graph parameters, added in batches of `chunk`. */
export function buildHnswlib(lib: HnswLibrary, ctx: EngineContext): HnswIndex {
  const index = new lib.HierarchicalNSW('cosine', ctx.dims, '');
  index.initIndex(ctx.n, graph.connectivity, graph.expansionAdd, ctx.seed);
  index.setEfSearch(graph.expansionSearch);
  for (let start = 0; start < ctx.n; start += chunk) {
    const end = Math.min(ctx.n, start + chunk);
    const items: Float32Array[] = [];
    const labels: number[] = [];
    for (let i = start; i < end; i++) {
      items.push(row(ctx, i));
      labels.push(i);
    }
    index.addPoints(items, labels, false);
    if (end % 10_000 === 0) ctx.progress(`added ${end} of ${ctx.n}`);
  }
  return index;
}

export const hnswlibWasm: EngineRun = async (ctx: EngineContext) => {
  const { n, k } = ctx;
  const { lib, sync } = await loadLibrary();
  const topBefore = heapTop(lib.asm.malloc, lib.asm.free);
  const built = await timed(() => buildHnswlib(lib, ctx));
  const topAfter = heapTop(lib.asm.malloc, lib.asm.free);
  const heapAfter = lib.HEAP8.buffer.byteLength;
  const index = built.value;
  const search = (target: HnswIndex) => (query: Float32Array) =>
    target.searchKnn(query, k, undefined).neighbors;
  const searched = await measureSearch(ctx, search(index));

  const file = 'bench.bin';
  // writeIndex starts a sync of its IDBFS mount to IndexedDB without waiting for it: wait here.
  const saved = await timed(async () => {
    await index.writeIndex(file);
    await sync('write');
  });
  const bytes = await idbFile(`/hnswlib-index/${file}`);
  const times: number[] = [];
  let loadRecall = Number.NaN;
  for (let r = 0; r < repeats; r++) {
    const fresh = new lib.HierarchicalNSW('cosine', ctx.dims, '');
    const loaded = await timed(() => fresh.readIndex(file, n));
    times.push(loaded.ms);
    fresh.setEfSearch(graph.expansionSearch);
    if (r === 0) loadRecall = await measureRecall(ctx, search(fresh));
    fresh.delete();
  }
  return {
    quantization: 'f32',
    ...buildAndSearch(n, built, searched),
    memory_mb: (topAfter - topBefore) / MB,
    memory_how:
      'growth of the top of its WASM malloc heap during the build (see heapTop in bench/vector/harness.ts)',
    wasm_heap_mb: heapAfter / MB,
    bytes: bytes.byteLength,
    save_ms: saved.ms,
    load_ms: median(times),
    load_recall10: loadRecall,
    notes: [
      'hnswlib-wasm 0.8.2, space "cosine", addPoints in batches of 1,000; web-only build run with a window shim ' +
        'and fake-indexeddb; save = writeIndex to its IDBFS mount + the sync to IndexedDB, bytes = the stored file; ' +
        `load = readIndex from the in-memory file system (no IndexedDB read), median of ${repeats}`,
    ],
  };
};
