// One workload for every runtime (Node, Deno, workerd, Chromium page and worker): its JSON answer
// must be the same everywhere, and the nearest keys are also checked against known values.
// Self-contained (no vitest, no fixtures) so that Deno and bundlers can load it as is.
import { createVectorIndex, loadVectorIndex, type UsearchModule } from '../../src/exports/vector.js';

export interface ScenarioResult {
  /** Nearest key to (0.1, 0.2, 0.9) among 10 → x, 20 → y, 30 → z: always 30. */
  nearest: number;
  /** For queries that are stored vectors 5, 123 and 400: their own keys, first. */
  selfHits: number[];
  /** Top-5 keys per quantization for three queries, plus a filtered search and a view round trip. */
  topKeys: Record<string, number[][]>;
  filtered: number[];
  viewMatches: boolean;
}

/** A seeded generator (mulberry32), so every runtime builds the same vectors. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 500 vectors in 20 clusters, 32 dimensions. */
function clustered(): Float32Array {
  const random = seeded(7);
  const dimensions = 32;
  const centres = Array.from({ length: 20 }, () =>
    Float32Array.from({ length: dimensions }, () => random() * 2 - 1),
  );
  const data = new Float32Array(500 * dimensions);
  for (let i = 0; i < 500; i++) {
    const centre = centres[i % 20]!;
    for (let d = 0; d < dimensions; d++) data[i * dimensions + d] = centre[d]! + (random() - 0.5) * 0.3;
  }
  return data;
}

export function runScenario(usearch: UsearchModule): ScenarioResult {
  const small = createVectorIndex(usearch, { dimensions: 3 });
  small.add(10, new Float32Array([1, 0, 0]));
  small.add(20, new Float32Array([0, 1, 0]));
  small.add(30, new Float32Array([0, 0, 1]));
  const nearest = small.search(new Float32Array([0.1, 0.2, 0.9]), 1)[0]!.key;
  small.dispose();

  const data = clustered();
  const keys = Float64Array.from({ length: 500 }, (_, i) => i);
  const row = (i: number) => data.subarray(i * 32, (i + 1) * 32);
  const topKeys: Record<string, number[][]> = {};
  let selfHits: number[] = [];
  let filtered: number[] = [];
  let viewMatches = false;
  for (const quantization of ['f32', 'f16', 'i8'] as const) {
    const index = createVectorIndex(usearch, { dimensions: 32, quantization });
    index.addBatch(keys, data);
    topKeys[quantization] = [5, 123, 400].map((i) =>
      index.search(row(i), 5, { exact: true }).map((hit) => hit.key),
    );
    if (quantization === 'f32') {
      selfHits = [5, 123, 400].map((i) => index.search(row(i), 1)[0]!.key);
      filtered = index.search(row(5), 3, { allow: [1, 25, 45, 65, 300] }).map((hit) => hit.key);
      const view = loadVectorIndex(usearch, index.serialize(), { view: true });
      viewMatches = JSON.stringify(view.search(row(77), 10)) === JSON.stringify(index.search(row(77), 10));
      view.dispose();
    }
    index.dispose();
  }
  return { nearest, selfHits, topKeys, filtered, viewMatches };
}
