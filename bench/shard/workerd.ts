// The fan-out part of bench:shard under workerd (Miniflare): the documents loaded into 1 and into N
// SQLite-backed Durable Objects (bench/shard/worker.ts), then each query's find() timed inside the
// Worker: over RPC to the one object, or through the corpus's two rounds to N. All objects share
// one workerd process here; on Cloudflare each runs on its own.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { bundleWorker } from '../../test/edge/workerd-bundle.js';
import { median, quantile } from '../lib/stats.js';

const worker = fileURLToPath(new URL('./worker.ts', import.meta.url));
const wasm = new URL('../../wasm/dist/usearch.wasm', import.meta.url);

export interface WorkerdFanOut {
  shards: number;
  loadSeconds: number;
  p50Ms: number;
  p95Ms: number;
}

/** find() latency over 1 and each of `counts` objects, with the documents spread by folder. */
export async function workerdFanOut(
  documents: readonly { path: string; content: string }[],
  queries: readonly string[],
  counts: readonly number[],
): Promise<WorkerdFanOut[]> {
  const folder = await mkdtemp(join(tmpdir(), 'longship-shard-bench-'));
  const miniflare = new Miniflare({
    compatibilityDate: '2026-04-01',
    modules: [
      { type: 'ESModule', path: 'worker.mjs', contents: await bundleWorker(worker) },
      { type: 'CompiledWasm', path: 'usearch.wasm', contents: await readFile(wasm) },
    ],
    durableObjects: { SHARD: { className: 'ShardObject', useSQLite: true } },
    durableObjectsPersist: folder,
  });
  const post = async <T>(path: string, body: object): Promise<T> => {
    const response = await miniflare.dispatchFetch(`http://bench${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  };
  try {
    const rows: WorkerdFanOut[] = [];
    for (const shards of [1, ...counts]) {
      const { ms } = await post<{ ms: number }>('/load', { shards, documents });
      await post('/find', { shards, queries: queries.slice(0, 5) });
      const { times } = await post<{ times: number[] }>('/find', { shards, queries });
      rows.push({ shards, loadSeconds: ms / 1000, p50Ms: median(times), p95Ms: quantile(times, 0.95) });
      console.log(`  workerd, ${shards} object(s): find p50 ${median(times).toFixed(1)} ms`);
    }
    return rows;
  } finally {
    await miniflare.dispose();
    await rm(folder, { recursive: true, force: true });
  }
}
