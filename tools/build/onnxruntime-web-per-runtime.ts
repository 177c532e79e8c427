// onnxruntime-web as the package's copy of transformers.js imports it (tools/build/transformers-web.ts):
// its WebGPU bundle, except in a service worker. That bundle's built-in glue belongs to the
// `.asyncify` build, so for the plain build it `import()`s the `.mjs` glue, which a service worker
// disallows; the WASM-only bundle's built-in glue is the plain build's, and takes the module
// Longship compiles (src/embed/transformers-env.ts). docs/guide/extension.md#the-engine-in-the-service-worker

// @ts-expect-error: resolved by the build to onnxruntime-web's dist/ort.wasm.bundle.min.mjs, untyped.
import * as wasmOnly from 'onnxruntime-web/wasm-bundle';
import * as webgpu from 'onnxruntime-web/webgpu';
import { isServiceWorker } from '../../src/env/runtime.js';

const ort: typeof webgpu = isServiceWorker() ? wasmOnly : webgpu;

// What transformers.js takes from onnxruntime-web.
export const { env, InferenceSession, Tensor } = ort;
