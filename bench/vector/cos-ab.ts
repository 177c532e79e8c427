// Before/after in one process: cosine search and build with two WASM builds, alternating, on the same vectors.
// `git show 3596aae:wasm/dist/usearch.wasm > old.wasm` (three sums a distance), then
// `flock <lock> npx tsx bench/vector/cos-ab.ts old.wasm [n] [rounds]` against the working tree's wasm/dist.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import { createVectorIndex, loadUsearch } from '../../src/exports/vector.js';
import { Documents } from '../store/synthetic.js';

const [oldWasm, nArg, roundsArg] = process.argv.slice(2);
if (!oldWasm) throw new Error('usage: cos-ab.ts OLD.wasm [n] [rounds]');
const n = Number(nArg ?? 50_000);
const rounds = Number(roundsArg ?? 2);
const dims = 512;
const builds = {
  old: await loadUsearch(readFileSync(oldWasm)),
  new: await loadUsearch(readFileSync(new URL('../../wasm/dist/usearch.wasm', import.meta.url))),
};
const docs = new Documents(dims, 7);
const flat = new Float32Array(n * dims);
for (let i = 0; i < n; i++) flat.set(docs.vector(i), i * dims);
const keys = Array.from({ length: n }, (_, i) => i);
const queries = Array.from({ length: 200 }, (_, i) => docs.vector(n + 10 * i));
const cpuMs = () => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const results: Record<string, { build: number[]; p50: number[] }> = {
  old: { build: [], p50: [] },
  new: { build: [], p50: [] },
};
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 ? (['new', 'old'] as const) : (['old', 'new'] as const)) {
    const options = {
      dimensions: dims,
      metric: 'cos' as const,
      connectivity: 16,
      expansionAdd: 128,
      expansionSearch: 64,
    };
    const index = createVectorIndex(builds[name], options);
    const cpu = cpuMs();
    let start = performance.now();
    index.addBatch(keys, flat);
    const build = (performance.now() - start) / 1000;
    const buildCpu = (cpuMs() - cpu) / 1000;
    for (const query of queries.slice(0, 20)) index.search(query, 10);
    const times: number[] = [];
    for (const query of queries) {
      start = performance.now();
      index.search(query, 10);
      times.push(performance.now() - start);
    }
    results[name]!.build.push(build);
    results[name]!.p50.push(median(times));
    console.log(
      `${name}: build ${build.toFixed(2)} s (CPU ${buildCpu.toFixed(2)} s), search p50 ${median(times).toFixed(3)} ms, load average ${loadavg()[0]!.toFixed(2)}`,
    );
    index.dispose();
  }
}
for (const name of ['old', 'new'] as const)
  console.log(
    `${name}: median build ${median(results[name]!.build).toFixed(2)} s, median search p50 ${median(results[name]!.p50).toFixed(3)} ms`,
  );
