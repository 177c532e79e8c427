// openLongshipInWorker(): Longship in a worker, for a page. Nothing heavy loads on the main thread:
// this module reaches the engine only through the worker script.

import { LongshipError } from '../errors.js';
import type { MessageEndpoint, Port, WebSharedWorker, WebWorker } from '../web-types.js';
import { type ConnectOptions, connectLongship, type RemoteLongship } from '../worker/connect.js';
import { assetsOfPage, checkWorkerLlm, databaseOf, type WorkerOptions } from '../worker/worker-options.js';

export interface OpenLongshipInWorkerOptions extends WorkerOptions {
  /**
   * The worker: a module script's URL, or a Worker, SharedWorker or MessagePort you started (it is
   * closed with the Longship). Default: `dist/worker/entry.js` under `assets` where that is given,
   * else this package's worker script, which Vite bundles.
   */
  worker?: string | URL | WebWorker | WebSharedWorker | Port;
  /**
   * One SharedWorker for all tabs of the origin (default where the browser has SharedWorker), or a
   * Worker per tab, each waiting for the store while another tab's worker holds it.
   */
  shared?: boolean;
  /** Another tab holds the store (only without a SharedWorker); this tab waits until that one closes. */
  onWait?: () => void;
  /** Gives up opening (waiting for another tab, loading the model): rejects with `ABORTED`, ends the worker. */
  signal?: AbortSignal;
}

/**
 * Starts Longship in a module Worker (a SharedWorker where there is one, so the tabs of an
 * origin share one engine) and resolves once it holds the store. Every method of
 * {@link Longship} is there, asynchronous; errors arrive as LongshipErrors with their codes.
 *
 * The worker, USearch's WASM, the bundled model and onnxruntime-web's WASM are found in the
 * package (docs/guide/assets.md); to host them elsewhere, name the folder that holds them all as
 * `assets` (`{ assets: '/longship/' }`, laid out as in the package), or each one, as URLs (strings or `URL`s,
 * relative to the page or absolute): `{ usearch: '/wasm/usearch.wasm', embedder: { transformers: { model:
 * { ...bundledModel, directory: new URL('/models/use-lite/', location.href) }, wasmPaths: '/ort/' } } }`.
 *
 * @example
 * const longship = await openLongshipInWorker();
 * const job = longship.addResource(file, { onProgress: (p) => console.log(p.phase, p.done, p.total) });
 * await job;
 * const { resources } = await longship.find('how are retries configured?');
 */
export async function openLongshipInWorker(
  options: OpenLongshipInWorkerOptions = {},
): Promise<RemoteLongship> {
  checkKeys(options);
  checkWorkerLlm(options.llm, 'openLongshipInWorker()');
  const { worker, shared, onWait, signal, ...rest } = options;
  const name = databaseName(rest.store);
  const assets = rest.assets === undefined ? undefined : assetsOfPage(rest.assets, 'openLongshipInWorker()');
  const started = start(worker ?? assets?.worker, shared ?? typeof SharedWorker !== 'undefined', name);
  const connect: ConnectOptions = { ...rest, lost: started.lost, dispose: started.dispose, onWait, signal };
  const longship = await connectLongship(started.endpoint, connect);
  started.opened();
  return longship;
}

const optionKeys = [
  'store',
  'assets',
  'usearch',
  'embedder',
  'llm',
  'user',
  'agent',
  'worker',
  'shared',
  'onWait',
  'signal',
];
/** The keys these options had before issue 34, and what took their place. */
const renamed: Record<string, string> = {
  name: "store: { indexedDB: 'name' }",
  transformers: 'embedder: { transformers }',
};

/** An unknown option is INVALID_ARGUMENT naming it (and its new form, for a renamed one). */
function checkKeys(options: object): void {
  const unknown = Object.keys(options).find((key) => !optionKeys.includes(key));
  if (unknown === undefined) return;
  const instead = renamed[unknown]
    ? `; use ${renamed[unknown]}`
    : `; the options are ${optionKeys.join(', ')}`;
  throw new LongshipError(
    'INVALID_ARGUMENT',
    `openLongshipInWorker(): unknown option '${unknown}'${instead}`,
  );
}

/** The IndexedDB database `store` names: what the worker opens, and what its tabs share it by. */
function databaseName(store: WorkerOptions['store']): string {
  if (store === undefined) return databaseOf({});
  const name = (store as { indexedDB?: unknown } | null)?.indexedDB;
  if (typeof name !== 'string' || name === '' || Object.keys(store).length !== 1) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      "store must be { indexedDB: 'a name' }: a worker keeps its store in IndexedDB (for another store, see exposeLongship)",
    );
  }
  return name;
}

interface Started {
  endpoint: MessageEndpoint;
  lost: Promise<never>;
  dispose: () => void;
  /** From now on an 'error' event is the running worker's own report, not a failed start. */
  opened: () => void;
}

function start(worker: OpenLongshipInWorkerOptions['worker'], shared: boolean, name: string): Started {
  if (typeof MessagePort !== 'undefined' && worker instanceof MessagePort) {
    return {
      endpoint: worker,
      lost: new Promise<never>(() => {}),
      dispose: () => worker.close(),
      opened() {},
    };
  }
  if (typeof SharedWorker !== 'undefined' && worker instanceof SharedWorker) return fromShared(worker);
  if (typeof Worker !== 'undefined' && worker instanceof Worker) return fromDedicated(worker);
  if (worker !== undefined && typeof worker !== 'string' && !(worker instanceof URL)) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      'worker must be a URL, a Worker, a SharedWorker or a MessagePort',
    );
  }
  if (typeof Worker === 'undefined') {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      'this runtime has no Worker: pass a MessagePort as `worker`, or use openLongship() in-process',
    );
  }
  if (shared && typeof SharedWorker === 'undefined') {
    throw new LongshipError('INVALID_ARGUMENT', 'this browser has no SharedWorker: leave `shared` unset');
  }
  // A SharedWorker is found again by its script and name: one per database, for every tab.
  const sharedName = `longship:${name}`;
  if (worker !== undefined) {
    return shared
      ? fromShared(new SharedWorker(worker, { type: 'module', name: sharedName }))
      : fromDedicated(new Worker(worker, { type: 'module', name: sharedName }));
  }
  // Written out twice, literally: Vite recognises and bundles a worker only in this form.
  return shared
    ? fromShared(
        new SharedWorker(new URL('../worker/entry.js', import.meta.url), {
          type: 'module',
          name: sharedName,
        }),
      )
    : fromDedicated(
        new Worker(new URL('../worker/entry.js', import.meta.url), { type: 'module', name: sharedName }),
      );
}

function fromDedicated(worker: Worker): Started {
  return { endpoint: worker, ...watchStart(worker), dispose: () => worker.terminate() };
}

function fromShared(worker: SharedWorker): Started {
  // The worker lives on for the other tabs; this tab only hangs up.
  return { endpoint: worker.port, ...watchStart(worker), dispose: () => worker.port.close() };
}

/**
 * `lost` rejects on an 'error' event before the engine opened: a script that failed to load or
 * threw at start, which would otherwise leave the page waiting forever. Later errors inside a
 * running worker are its own to report; they do not end it.
 */
function watchStart(worker: Worker | SharedWorker): Pick<Started, 'lost' | 'opened'> {
  let starting = true;
  const lost = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (event) => {
      if (!starting) return;
      const detail = event instanceof ErrorEvent && event.message ? `: ${event.message}` : '';
      reject(new LongshipError('WORKER_LOST', `the Longship worker failed to start${detail}`));
    });
  });
  return {
    lost,
    opened: () => {
      starting = false;
    },
  };
}
