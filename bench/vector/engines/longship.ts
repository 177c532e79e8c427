import { readFileSync } from 'node:fs';
import {
  allocateIndexBytes,
  createVectorIndex,
  loadUsearch,
  loadVectorIndex,
  type Quantization,
  type SearchOptions,
  type VectorIndex,
} from '../../../src/exports/vector.js';
import { median } from '../../lib/stats.js';
import {
  buildAndSearch,
  type EngineContext,
  type EngineRun,
  graph,
  MB,
  measureRecall,
  measureSearch,
  row,
  rssBytes,
  timed,
} from '../harness.js';

const chunk = 1000;
const repeats = 3;
const pieceBytes = 1 << 20;

/**
 * Longship's VectorIndex (USearch 2.26.2 in WebAssembly, one thread), cosine, M=16, ef_construction=128,
 * ef_search=64. `i8` searches with rescoring: the top max(4k, 40) candidates are re-ranked with the f32
 * vectors the caller keeps (here the dataset in JS memory; in Longship, the Store). `ordered`: the build
 * ends with `optimize()` (the index laid out anew in graph order), timed as part of it.
 */
export function longship(quantization: Quantization, { ordered = false } = {}): EngineRun {
  return async (ctx: EngineContext) => {
    const notes: string[] = [];
    const { n, dims, k } = ctx;
    // One compilation shared by every instance below, so that a "cold" load measures a fresh heap,
    // not V8 compiling the wasm functions again.
    const compiled = await WebAssembly.compile(
      readFileSync(new URL('../../../wasm/dist/usearch.wasm', import.meta.url)),
    );
    const module = await loadUsearch(compiled);
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = i;

    const rssBefore = rssBytes();
    const built = await timed(() => {
      const index = createVectorIndex(module, { dimensions: dims, metric: 'cos', quantization, ...graph });
      index.reserve(n);
      for (let start = 0; start < n; start += chunk) {
        const end = Math.min(n, start + chunk);
        index.addBatch(keys.subarray(start, end), ctx.base.subarray(start * dims, end * dims));
        if (end % 10_000 === 0) ctx.progress(`added ${end} of ${n}`);
      }
      if (ordered) index.optimize();
      return index;
    });
    if (ordered) {
      notes.push(
        'built as the longship row, then optimize(): the index laid out anew in one block in graph order ' +
          '(breadth-first from the entry point), inside the build time; same graph, same answers',
      );
    }
    const index = built.value;
    const rss = rssBytes() - rssBefore;
    const memoryUsage = index.memoryUsage;
    const wasmHeap = module.memory.buffer.byteLength;

    const rescore: SearchOptions | undefined =
      quantization === 'i8' ? { rescore: { vectors: (key) => row(ctx, key) } } : undefined;
    const search = (target: VectorIndex) => (vector: Float32Array) =>
      target.search(vector, k, rescore).map((hit) => hit.key);
    const searched = await measureSearch(ctx, search(index));
    let plain: Awaited<ReturnType<typeof measureSearch>> | undefined;
    if (rescore) {
      plain = await measureSearch(ctx, (vector) => index.search(vector, k).map((hit) => hit.key));
      notes.push(
        `i8 search re-ranks the top ${Math.max(4 * k, 40)} candidates with f32 vectors kept outside the index ` +
          `(${((n * dims * 4) / MB).toFixed(0)} MB here, not in memory_mb; in Longship they live in the Store)`,
      );
    }

    const saved = await timed(() => index.serialize());
    const bytes = saved.value;
    index.dispose();

    // Cold: each load into a freshly instantiated module, whose heap must grow to hold the index,
    // as when an app starts and opens its snapshot. Warm: into a module whose heap is already grown.
    const cold = async (view: boolean) => {
      const times: number[] = [];
      let recall = Number.NaN;
      for (let r = 0; r < repeats; r++) {
        const fresh = await loadUsearch(compiled);
        const loaded = await timed(() => loadVectorIndex(fresh, bytes, { view }));
        times.push(loaded.ms);
        if (r === 0) recall = await measureRecall(ctx, search(loaded.value));
        loaded.value.dispose();
      }
      return { ms: median(times), recall };
    };
    const warm = async (view: boolean) => {
      const times: number[] = [];
      loadVectorIndex(module, bytes, { view }).dispose();
      for (let r = 0; r < repeats; r++) {
        const loaded = await timed(() => loadVectorIndex(module, bytes, { view }));
        times.push(loaded.ms);
        loaded.value.dispose();
      }
      return median(times);
    };
    // In place: the bytes are written into a fresh instance's heap in 1 MiB pieces (as a snapshot read
    // from IndexedDB chunk by chunk would be), then opened where they lie. Timed apart: filling touches
    // fresh memory (page faults); opening is the work Longship itself does.
    const inPlace = async (view: boolean) => {
      const fill: number[] = [];
      const open: number[] = [];
      let recall = Number.NaN;
      for (let r = 0; r < repeats; r++) {
        const fresh = await loadUsearch(compiled);
        const filled = await timed(() => {
          const room = allocateIndexBytes(fresh, bytes.byteLength);
          for (let at = 0; at < bytes.byteLength; at += pieceBytes) {
            room.write(bytes.subarray(at, at + pieceBytes), at);
          }
          return room;
        });
        const opened = await timed(() => filled.value.open({ view }));
        fill.push(filled.ms);
        open.push(opened.ms);
        if (r === 0) recall = await measureRecall(ctx, search(opened.value));
        opened.value.dispose();
      }
      return { fill: median(fill), open: median(open), recall };
    };
    // In place, warm: the same open in the instance the build grew, so that no new memory is touched.
    const inPlaceWarm = async (view: boolean) => {
      const open: number[] = [];
      for (let r = 0; r < repeats; r++) {
        const room = allocateIndexBytes(module, bytes.byteLength);
        room.write(bytes, 0);
        const opened = await timed(() => room.open({ view }));
        open.push(opened.ms);
        opened.value.dispose();
      }
      return median(open);
    };
    const load = await cold(false);
    const view = await cold(true);
    const loadWarm = await warm(false);
    const viewWarm = await warm(true);
    const loadInPlace = await inPlace(false);
    const viewInPlace = await inPlace(true);
    const loadInPlaceWarm = await inPlaceWarm(false);
    const viewInPlaceWarm = await inPlaceWarm(true);
    notes.push(
      `load_ms/view_ms: median of ${repeats}, each into a fresh instance of the compiled WASM module (its heap ` +
        `starts at 16 MB and must grow: included); warm = into an instance whose heap has already grown; ` +
        `view copies the bytes into WASM memory once and reads them in place; in place: allocateIndexBytes in a ` +
        `fresh instance, written in 1 MiB pieces (fill), then opened where they lie (open; warm: the same in the ` +
        `instance the build grew; recall@10 ` +
        `${loadInPlace.recall.toFixed(4)} loaded, ${viewInPlace.recall.toFixed(4)} viewed)`,
    );

    return {
      quantization,
      ...buildAndSearch(n, built, searched),
      recall10_no_rescore: plain?.recall ?? null,
      search_p50_ms_no_rescore: plain?.p50 ?? null,
      memory_mb: memoryUsage / MB,
      memory_how: 'VectorIndex.memoryUsage (bytes USearch holds on the WASM heap)',
      wasm_heap_mb: wasmHeap / MB,
      rss_mb: rss / MB,
      bytes: bytes.byteLength,
      save_ms: saved.ms,
      load_ms: load.ms,
      load_recall10: load.recall,
      view_ms: view.ms,
      view_recall10: view.recall,
      load_warm_ms: loadWarm,
      view_warm_ms: viewWarm,
      fill_ms: (loadInPlace.fill + viewInPlace.fill) / 2,
      open_load_ms: loadInPlace.open,
      open_view_ms: viewInPlace.open,
      open_load_warm_ms: loadInPlaceWarm,
      open_view_warm_ms: viewInPlaceWarm,
      notes,
    };
  };
}
