import type { EngineRun } from '../harness.js';

/** Each engine's adapter, imported only inside that engine's own child process. */
export const registry: Record<string, () => Promise<EngineRun>> = {
  'brute-force': async () => (await import('./brute-force.js')).bruteForce,
  longship: async () => (await import('./longship.js')).longship('f32'),
  'longship-ordered': async () => (await import('./longship.js')).longship('f32', { ordered: true }),
  'longship-i8': async () => (await import('./longship.js')).longship('i8'),
  'longship-f16': async () => (await import('./longship.js')).longship('f16'),
  'usearch-native': async () => (await import('./usearch-native.js')).usearchNative,
  'hnswlib-wasm': async () => (await import('./hnswlib-wasm.js')).hnswlibWasm,
  mememo: async () => (await import('./mememo.js')).mememo,
  voy: async () => (await import('./voy.js')).voy,
  orama: async () => (await import('./orama.js')).orama,
};
