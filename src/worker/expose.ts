// The worker's side: one Longship per worker, held under a Web Lock, served over comlink to every
// page that connects (one for a dedicated Worker, any number for a SharedWorker); what a page may
// call is the table in remote-api.ts.

import { type Longship, openLongship } from '../engine.js';
import { defaultLocks } from '../env/locks.js';
import type { Locks, MessageEndpoint } from '../web-types.js';
import { openConnection } from './connection.js';
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
 * exposeLongship({ open: (options) => openLongship({ name: options.name, embedder }) });
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
 * const host = createLongshipHost({ open: (options) => openLongship({ name: options.name, embedder }) });
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
  return { connect: (endpoint) => serveOn(endpoint, openConnection(engine), allow) };
}

/** The default: the engine opened from the page's options (it chooses and owns the embedder). */
function openFromOptions({ name, usearch, transformers }: WorkerOptions): Promise<Longship> {
  // A URL arrives as a string (worker-options.ts).
  return openLongship({
    name: name || undefined,
    usearch: typeof usearch === 'string' ? new URL(usearch) : usearch,
    transformers,
  });
}

export type EngineSlot = ReturnType<typeof engineSlot>;

/**
 * The one engine a worker holds for all its connections: opened under the Web Lock of its store by
 * the first, with its options (later ones share it as it is); closed when the last one leaves, and
 * only then is the lock let go.
 */
function engineSlot(open: (options: WorkerOptions) => Promise<Longship>, locks: Locks | null) {
  let current: Promise<{ longship: Longship; release: () => void }> | undefined;
  let members = 0;
  const start = async (options: WorkerOptions, onWait?: () => void) => {
    const name = `longship:${options.name ?? 'longship'}`;
    const release = locks ? await holdLock(locks as LockManager, name, onWait) : () => {};
    try {
      return { longship: await open(options), release };
    } catch (error) {
      release();
      throw error;
    }
  };
  return {
    async join(options: WorkerOptions, onWait?: () => void): Promise<Longship> {
      members++;
      current ??= start(options, onWait);
      const opening = current;
      try {
        return (await opening).longship;
      } catch (error) {
        members--;
        if (current === opening) current = undefined;
        throw error;
      }
    },
    async leave(): Promise<void> {
      const closing = --members > 0 ? undefined : current;
      if (!closing) return;
      current = undefined;
      const opened = await closing.catch(() => undefined);
      try {
        await opened?.longship.close();
      } finally {
        // Only now may the next worker (another tab's) open the store.
        opened?.release();
      }
    },
  };
}

/**
 * Takes the lock and keeps it until the returned function is called. `onWait` hears that another
 * holder (another tab's worker) has it, before this one starts to wait.
 */
function holdLock(locks: LockManager, name: string, onWait?: () => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    // The lock is held until the promise its callback returns settles: its resolver is the release.
    const hold = () => new Promise<void>((release) => resolve(release));
    const taken = locks.request(name, { ifAvailable: true }, (lock) => {
      if (lock) return hold();
      onWait?.();
      locks.request(name, hold).catch(reject);
      return undefined;
    });
    taken.catch(reject);
  });
}
