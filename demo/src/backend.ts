// The page's handle on Longship: openLongshipInWorker() with one of the demo's worker scripts, started
// here in the literal form Vite recognises and bundles. One SharedWorker serves every tab, or with
// `?worker=dedicated` a Worker of the tab's own (whose snapshots go to OPFS files; tabs take turns).
import { openLongshipInWorker } from '../../src/client/open-longship-in-worker.js';
import type { RemoteLongship } from '../../src/worker/connect.js';
import { llmOption } from './llm-setting.js';

export type Backend = RemoteLongship;

export interface BackendConfig {
  /** The IndexedDB database. */
  name: string;
  /** `model`: the bundled USE-lite; `words`: hashed words, no model. */
  embedder: 'model' | 'words';
  /** `shared` (default): one SharedWorker for every tab; `dedicated`: a Worker of this tab's own. */
  worker?: 'shared' | 'dedicated';
  /** false: the model's worker leaves an empty store empty, rather than fill it from the corpus's pack. */
  corpus?: boolean;
  onWait?: () => void;
}

export function startBackend({
  name,
  embedder,
  worker: kind,
  corpus = true,
  onWait,
}: BackendConfig): Promise<Backend> {
  // The options inline, with a literal type: Vite reads them to bundle the worker as a module.
  const worker =
    kind === 'dedicated'
      ? embedder === 'words'
        ? new Worker(new URL('./words-worker.ts', import.meta.url), {
            type: 'module',
            name: `longship:${name}`,
          })
        : new Worker(new URL('./model-worker.ts', import.meta.url), {
            type: 'module',
            name: `longship:${name}${corpus ? '' : '?corpus=none'}`,
          })
      : embedder === 'words'
        ? new SharedWorker(new URL('./words-worker.ts', import.meta.url), {
            type: 'module',
            name: `longship:${name}`,
          })
        : new SharedWorker(new URL('./model-worker.ts', import.meta.url), {
            type: 'module',
            name: `longship:${name}${corpus ? '' : '?corpus=none'}`,
          });
  // The model's files and the WASM are found from the package (docs/guide/assets.md): Vite serves them
  // in development and copies them into a build.
  // The LLM endpoint the visitor set in the agent panel, if any (llm-setting.ts).
  const llm = llmOption();
  return openLongshipInWorker({
    worker,
    store: { indexedDB: name },
    ...(llm ? { llm } : {}),
    ...(onWait ? { onWait } : {}),
  });
}
