import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { median } from '../../lib/stats.js';
import {
  buildAndSearch,
  type EngineContext,
  type EngineRun,
  graph,
  MB,
  measureRecall,
  measureSearch,
  rssBytes,
  timed,
} from '../harness.js';

interface NativeMatches {
  keys: BigUint64Array;
}

interface NativeIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vector: Float32Array, k: number, threads: number): NativeMatches;
  save(path: string): void;
  load(path: string): void;
  view(path: string): void;
  size(): number;
}

interface NativeModule {
  Index: new (config: {
    dimensions: number;
    metric: string;
    quantization: string;
    connectivity: number;
    expansion_add: number;
    expansion_search: number;
    multi: boolean;
  }) => NativeIndex;
}

const repeats = 3;

/** Loads the `usearch` npm package's N-API addon (its prebuild for this platform). */
function loadNative(): { usearch: NativeModule; how: string } {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('usearch');
  const packageJson = join(entry.slice(0, entry.lastIndexOf('/javascript/')), 'package.json');
  const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
  try {
    return {
      usearch: require('usearch') as NativeModule,
      how: `usearch@${version} through its own JS entry`,
    };
  } catch (error) {
    throw new Error(`usearch@${version} does not load on Node ${process.version}: ${String(error)}`);
  }
}

export const usearchNative: EngineRun = async (ctx: EngineContext) => {
  const { n, dims, k } = ctx;
  const { usearch, how } = loadNative();
  const config = {
    dimensions: dims,
    metric: 'cos',
    quantization: 'f32',
    connectivity: graph.connectivity,
    expansion_add: graph.expansionAdd,
    expansion_search: graph.expansionSearch,
    multi: false,
  };
  const before = rssBytes();
  const built = await timed(() => {
    const index = new usearch.Index(config);
    const chunk = 10_000;
    for (let start = 0; start < n; start += chunk) {
      const end = Math.min(n, start + chunk);
      const keys = new BigUint64Array(end - start);
      for (let i = start; i < end; i++) keys[i - start] = BigInt(i);
      index.add(keys, ctx.base.subarray(start * dims, end * dims), 1);
      ctx.progress(`added ${end} of ${n}`);
    }
    return index;
  });
  const memory = rssBytes() - before;
  const index = built.value;
  const search = (target: NativeIndex) => (vector: Float32Array) =>
    Array.from(target.search(vector, k, 1).keys, Number);
  const searched = await measureSearch(ctx, search(index));

  const path = join(ctx.scratch, 'native.usearch');
  const saved = await timed(() => index.save(path));
  const bytes = statSync(path).size;
  const open = async (mode: 'load' | 'view') => {
    const times: number[] = [];
    let recall = Number.NaN;
    for (let r = 0; r < repeats; r++) {
      const fresh = new usearch.Index(config);
      const opened = await timed(() => fresh[mode](path));
      times.push(opened.ms);
      if (r === 0) recall = await measureRecall(ctx, search(fresh));
    }
    return { ms: median(times), recall };
  };
  const load = await open('load');
  const view = await open('view');
  return {
    quantization: 'f32',
    ...buildAndSearch(n, built, searched),
    memory_mb: memory / MB,
    memory_how: 'process RSS after build minus before, after GC (the addon does not report its memory to JS)',
    bytes,
    save_ms: saved.ms,
    load_ms: load.ms,
    load_recall10: load.recall,
    view_ms: view.ms,
    view_recall10: view.recall,
    notes: [
      `${how}, N-API prebuild with its SIMD kernels (host CPU: ${process.arch}); one thread for add and search; ` +
        'save/load/view go through a file (the JS API has no buffer variant): load reads it from the page cache, ' +
        `view memory-maps it; median of ${repeats}`,
    ],
  };
};
