import { dot, TopK } from '../../lib/dataset.js';
import {
  buildAndSearch,
  type EngineContext,
  type EngineRun,
  jsBytes,
  MB,
  measureRecall,
  measureSearch,
  timed,
} from '../harness.js';

/** An exact scan in plain JS over one Float32Array (vectors are L2-normalised, so cosine is 1 − dot). */
class FlatIndex {
  constructor(
    readonly vectors: Float32Array,
    readonly dims: number,
  ) {}

  search(query: Float32Array, k: number): number[] {
    const { vectors, dims } = this;
    const n = vectors.length / dims;
    const top = new TopK(k);
    for (let i = 0; i < n; i++) top.push(i, 1 - dot(query, vectors, i * dims, dims));
    return Array.from(top.keys.subarray(0, top.size));
  }
}

export const bruteForce: EngineRun = async (ctx: EngineContext) => {
  const before = jsBytes();
  const built = await timed(() => new FlatIndex(ctx.base.slice(), ctx.dims));
  const memory = jsBytes() - before;
  const index = built.value;
  const searched = await measureSearch(ctx, (query) => index.search(query, ctx.k));
  const saved = await timed(
    () => new Uint8Array(index.vectors.buffer, index.vectors.byteOffset, index.vectors.byteLength),
  );
  const loaded = await timed(() => new FlatIndex(new Float32Array(saved.value.slice().buffer), ctx.dims));
  const loadRecall = await measureRecall(ctx, (query) => loaded.value.search(query, ctx.k));
  return {
    quantization: 'f32',
    ...buildAndSearch(ctx.n, built, searched),
    memory_mb: memory / MB,
    memory_how: 'JS heap + external bytes after GC, after build minus before (a copy of the vectors)',
    bytes: saved.value.byteLength,
    save_ms: saved.ms,
    load_ms: loaded.ms,
    load_recall10: loadRecall,
    notes: [
      'exact scan in JS (4-way unrolled dot products, a sorted top-k); "build" is copying the vectors; ' +
        'serialized = the raw f32 vectors, load = one copy',
    ],
  };
};
