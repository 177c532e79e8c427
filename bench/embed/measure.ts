// One measurement, the same in Node and in a browser worker (no Node imports here): load an
// embedder cold and again, then embed the texts at each batch size.

import type { Embedder } from '../../src/embed/embedder.js';
import type { ModelFolder } from '../../src/embed/transformers-embedder.js';
import { transformersEmbedder } from '../../src/embed/transformers-embedder.js';

export interface MeasureRequest {
  dtype: 'q8' | 'fp32';
  /** Intra-op threads (Node) or WASM threads (browsers). */
  threads: number;
  batches: number[];
  texts: string[];
  /** Browsers: the bundled model as served, and onnxruntime-web's files. */
  model?: ModelFolder;
  wasmPaths?: string | { mjs: string; wasm: string };
  /** Only load (and time) one embedder: the warm-start measurement. */
  loadOnly?: boolean;
}

export interface Measurement {
  /** From `transformersEmbedder()` to its first vector, for the first model in this process/worker. */
  loadMs: number;
  /** The same for a second embedder right after: runtime started, files cached. */
  loadAgainMs?: number;
  /** Sentences per second by batch size, over all texts. */
  rates?: Record<number, number>;
}

export async function measure(request: MeasureRequest): Promise<Measurement> {
  const make = (batchSize: number) =>
    transformersEmbedder({
      dtype: request.dtype,
      threads: request.threads,
      batchSize,
      ...(request.model ? { model: request.model } : {}),
      ...(request.wasmPaths ? { wasmPaths: request.wasmPaths } : {}),
    });
  const loadMs = await timeLoad(make(1));
  if (request.loadOnly) return { loadMs };
  const loadAgainMs = await timeLoad(make(1));

  // The first calls run cold code (V8 compiles WASM in tiers); a warm-up pass keeps that out.
  const texts = request.texts;
  const warmUp = make(8);
  await warmUp.embed(texts.slice(0, 64));
  await warmUp.dispose?.();
  const rates: Record<number, number> = {};
  for (const batch of request.batches) {
    const embedder = make(batch);
    await embedder.embed(texts.slice(0, batch * 2));
    const started = performance.now();
    await embedder.embed(texts);
    rates[batch] = (texts.length / (performance.now() - started)) * 1000;
    await embedder.dispose?.();
  }
  return { loadMs, loadAgainMs, rates };
}

async function timeLoad(embedder: Embedder): Promise<number> {
  const started = performance.now();
  await embedder.embed(['warm up']);
  const elapsed = performance.now() - started;
  await embedder.dispose?.();
  return elapsed;
}
