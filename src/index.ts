// The public API of Longship: exactly what this file re-exports (test/exports.test.ts snapshots it).
export { type ErrorCode, LongshipError } from './errors.js';
export { createVectorIndex, distance, loadVectorIndex } from './index/usearch-index.js';
export { loadUsearch, type UsearchModule, type WasmSource } from './index/usearch-module.js';
export type {
  Metric,
  Quantization,
  SearchHit,
  SearchOptions,
  VectorIndex,
  VectorIndexOptions,
} from './index/vector-index.js';
