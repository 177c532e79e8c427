// The worker's side: one Longship per worker, held under a Web Lock, served over comlink to every
// page that connects (one for a dedicated Worker, any number for a SharedWorker); what a page may
// call is the table in remote-api.ts.

import { type Longship, openLongship } from '../engine.js';
import { defaultLocks } from '../env/locks.js';
import type { Locks, MessageEndpoint } from '../web-types.js';
import { Connection } from './connection.js';
import { engineSlot } from './engine-slot.js';
import { refuse, serveOn } from './serve.js';
import { registerThrowHandler } from './wire.js';
import type { WorkerOptions } from './worker-options.js';

export interface ExposeLongshipOptions {
  /**
   * Opens the engine from the options a page sent. Default: {@link openLongship} with the page's
   * `name`, `usearch` and `transformers`. Pass your own to choose the store or the embedder here,
   * where functions and objects can be made.
   */
  open?: (options: WorkerOptions) => Promise<Longship>;
  /** Default: the runtime's Web Locks; `null` to run without (one page, or tests). */
  locks?: Locks | null;
}

/** The engine of one worker, shared by its connections. */
export interface LongshipHost {
  /** Serves one more page over `endpoint` (a MessagePort, a worker's global scope). */
  connect(endpoint: MessageEndpoint): void;
}

/**
 * Serves a Longship from this worker. A dedicated Worker serves the page that started it; a
 * SharedWorker serves every page that connects, all on one engine. The engine opens with the first
 * page's options (later pages share it as it is) and closes when the last page closes it. It opens
 * under the Web Lock `longship:<name>`, so that two workers (tabs without a SharedWorker, or two
 * versions of an app) never write one store at once: the second waits until the first closes.
 *
 * @example
 * // my-worker.ts, started with openLongshipInWorker({ worker: new Worker(new URL('./my-worker.ts', import.meta.url), { type: 'module' }) })
 * import { functionEmbedder, openLongship } from 'longship';
 * import { exposeLongship } from 'longship/worker';
 * const embedder = functionEmbedder({ id: 'my-model@1', dimensions: 768, embed: myEmbed });
 * exposeLongship({ open: (options) => openLongship({ store: { indexedDB: options.name ?? 'longship' }, embedder }) });
 */
export function exposeLongship(options: ExposeLongshipOptions = {}): LongshipHost {
  const host = createLongshipHost(options);
  const scope = globalThis as unknown as MessageEndpoint;
  // A SharedWorker's scope has no messages of its own: each page arrives as a port on 'connect'.
  if ('onconnect' in scope) {
    scope.addEventListener('connect', (event: MessageEvent) => {
      for (const port of event.ports) host.connect(port);
    });
  } else host.connect(scope);
  return host;
}

/**
 * The engine of {@link exposeLongship} without a scope to serve: connect endpoints to it yourself
 * (an extension's offscreen document, a test). Every endpoint shares the one engine.
 *
 * @example
 * const host = createLongshipHost({ open: (options) => openLongship({ store: { indexedDB: options.name ?? 'longship' }, embedder }) });
 * chrome.runtime.onConnect.addListener((port) => host.connect(toEndpoint(port)));
 */
export function createLongshipHost(options: ExposeLongshipOptions = {}): LongshipHost {
  registerThrowHandler();
  const locks = options.locks === undefined ? (defaultLocks() ?? null) : options.locks;
  const engine = engineSlot(options.open ?? openFromOptions, locks);
  const allow = (path: unknown[]) => {
    if (!(path.length === 1 && (path[0] === 'open' || path[0] === 'close'))) {
      refuse(`a connection to the worker has no method '${path.join('.')}'`);
    }
  };
  return { connect: (endpoint) => serveOn(endpoint, new Connection(engine).root, allow) };
}

/** The default: the engine opened from the page's options (it chooses and owns the embedder). */
function openFromOptions({ name, usearch, transformers }: WorkerOptions): Promise<Longship> {
  return openLongship({
    ...(name ? { store: { indexedDB: name } } : {}),
    // A URL arrives as a string (worker-options.ts).
    ...(usearch === undefined ? {} : { usearch: typeof usearch === 'string' ? new URL(usearch) : usearch }),
    ...(transformers === undefined ? {} : { embedder: { transformers } }),
  });
}
