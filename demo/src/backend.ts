// The page's handle on Longship: createLongship() with one of the demo's worker scripts, started
// here in the literal form Vite recognises and bundles. One SharedWorker serves every tab.
import { createLongship } from '../../src/client/create-longship.js';
import { bundledModel } from '../../src/embed/bundled-model.js';
import type { RemoteLongship } from '../../src/worker/connect.js';

export type Backend = RemoteLongship;

export interface BackendConfig {
  /** The IndexedDB database. */
  name: string;
  /** `model`: the bundled USE-lite; `words`: hashed words, no model. */
  embedder: 'model' | 'words';
  onWait?: () => void;
}

const local = (path: string) => new URL(`/local/${path}`, location.href).href;

export function startBackend({ name, embedder, onWait }: BackendConfig): Promise<Backend> {
  // The options inline, with a literal type: Vite reads them to bundle the worker as a module.
  const worker =
    embedder === 'words'
      ? new SharedWorker(new URL('./words-worker.ts', import.meta.url), {
          type: 'module',
          name: `longship:${name}`,
        })
      : new SharedWorker(new URL('./model-worker.ts', import.meta.url), {
          type: 'module',
          name: `longship:${name}`,
        });
  return createLongship({
    worker,
    name,
    usearch: local('usearch/usearch.wasm'),
    ...(embedder === 'model'
      ? {
          transformers: {
            model: { ...bundledModel, directory: local('model/use-lite/') },
            wasmPaths: local('ort/'),
          },
        }
      : {}),
    ...(onWait ? { onWait } : {}),
  });
}
