// `longship/vector`: the USearch vector index on its own (docs/internals/store.md), without the engine.

export { allocateIndexBytes, createVectorIndex, distance, loadVectorIndex } from '../vector/usearch-index.js';
export { loadUsearch, type UsearchModule, type WasmSource } from '../vector/usearch-module.js';
// Every type of the index's interface: its options, hits and bytes.
export type * from '../vector/vector-index.js';
export type { WasmModule } from '../web-types.js';
