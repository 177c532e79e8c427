// onnxruntime-web's plain WASM build (ort-wasm-simd-threaded.mjs and .wasm), copied into the
// package's dist/ort/ by tools/worker/bundle.ts from the onnxruntime-web that transformers.js
// imports, so that the versions match. Without these paths transformers.js would point
// onnxruntime-web at a CDN.

import type { WasmModule } from '../web-types.js';

/** onnxruntime-web's WASM files, as URLs or (in workerd) the compiled module. */
export interface OrtWasmFiles {
  /**
   * The Emscripten glue, an ES module onnxruntime-web imports. Leave it out where onnxruntime-web's
   * own bundle holds the glue that matches the `.wasm`: its `wasm` bundle does (workerd, docs/guide/workerd.md).
   */
  mjs?: string | URL;
  /** The WebAssembly binary: its URL, or a compiled `WebAssembly.Module` (workerd). */
  wasm: string | URL | WasmModule;
}

/**
 * The package's own copy, each file by its own literal `new URL(…, import.meta.url)` so that
 * bundlers copy it into a build (docs/guide/assets.md). Called only when a model loads: workerd has no
 * `import.meta.url`. Paths are relative to this module, two levels below the package root.
 */
export function packagedOrtFiles(): { mjs: URL; wasm: URL } {
  return {
    mjs: new URL('../../dist/ort/ort-wasm-simd-threaded.mjs', import.meta.url),
    wasm: new URL('../../dist/ort/ort-wasm-simd-threaded.wasm', import.meta.url),
  };
}
